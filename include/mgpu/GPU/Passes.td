//===- Passes.td - GPU passes ------------------------------*- tablegen -*-===//
//
// The passes of the GPU backend (lib/GPU): distribution over the lanes of a
// warpgroup, NVVM, outlining, targets. Each lives in one file of lib/GPU;
// mgpu/Passes.h declares the passes of every layer, mgpu/Pipelines.h
// composes them.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_GPU_PASSES_TD
#define MGPU_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MGPUPlaceBarriers : Pass<"mgpu-place-barriers"> {
  let summary = "Warpgroup barriers between lanes' conflicting accesses";
  let description = [{
    A launch body is written once per Pallas thread, at array level: an op
    that reads or writes a block is collective over the 128 lanes of a
    warpgroup, and after --mgpu-distribute-warpgroups one lane may read
    what another lane wrote. This pass puts an `mgpu.warpgroup_barrier`
    where that can happen, and nowhere else (the shape of Triton's Membar):

    - between a lane write and a later lane read or write of the same
      buffer, and between a read and a later write (atomic updates need
      none among themselves);
    - before an op that publishes the Pallas thread's memory to other
      threads (`barrier_arrive`, `semaphore_signal`, a copy into shared
      memory, `tcgen05_commit_arrive`, a side effect made by lane 0) if
      any access is pending; after `commit_smem` and the waits for copies
      (every lane then sees what was copied), always.

    An mbarrier wait needs none after it: every lane waits for the phase
    itself, so each sees what the phase's arrivals published (JAX's
    lowering has no barrier there either).

    Buffers are told apart by their allocation (a launch's scratch
    argument, `memref.alloc`), through views; global-memory arguments may
    alias one another. Accesses through a lane-private view and those of a
    kernel with `unsafe_no_auto_barriers` are not tracked. Loops and
    branches are solved to a fixed point, so a loop whose body reads what
    its previous iteration wrote gets the barrier at the top of the body.
    Operands the tensor cores read in place are ordered by the kernel's
    own `wgmma_wait`s and barriers, as in JAX: a barrier goes before them
    only if lanes wrote them. The exchanges the distribution makes through
    its scratch area place their own barriers.
  }];
}

def MGPUDistributeWarpgroups : Pass<"mgpu-distribute-warpgroups"> {
  let summary = "mgpu.launch bodies of Pallas threads to per-lane code";
  let description = [{
    The body of a launch is written once per Pallas thread, at array level:
    a vector value is a whole block, and ops on it are collective over the
    128 lanes of a warpgroup. This pass re-emits it as per-lane code (the
    launch gets `lanes` and a lane index), each vector value spread over the
    lanes in the layout `mgpu.out_layouts` records for it
    (--mgpu-assign-layouts): a value with no layout is an error.

    - `strided`: chunks of V consecutive elements (V the largest of 4, 2, 1
      dividing the innermost dimension), chunk c on lane c mod 128, so that
      blocks are read and written with V-wide coalesced accesses;
    - `wgmma`, `wgmma_row` and `wgmma_col`: the tensor cores' accumulator
      fragments, their rows and their columns (JAX's `Layout.WGMMA`,
      `.reduce(1)`, `.reduce(0)`), and JAX's other fragment layouts;
      `splat`: one scalar.

    Elementwise ops stay in registers; ops that move data between lanes
    exchange it through a new shared scratch entry (one area per warpgroup,
    sized once the body is distributed) and warp shuffles, with the
    `mgpu.warpgroup_barrier`s those exchanges need; those that
    --mgpu-place-barriers (run before) wrote stay in the lanes' code, one
    meeting where two would follow each other. The NVVM lowering makes
    them the warpgroup's named barrier. Scalars are uniform and a scalar
    side effect happens once per warpgroup (lane 0). linalg ops on memrefs
    become parallel loops first.

    An mgpu.wgmma marked `mgpu.tensor_cores` (--mgpu-select-tensor-cores)
    runs on the tensor cores (the lanes' mgpu.wgmma_shared or
    wgmma_register_a steps); another is computed lane by lane. An mgpu.mma
    runs on mma.sync (the lanes' mgpu.mma_sync), each warp a slab of rows,
    unless `mma-sync=0` (the pipelines' `tensor-cores=0`): then it is
    computed lane by lane. The pass writes no NVVM or LLVM op:
    --mgpu-primitives-to-nvvm lowers what it writes.
  }];
  let options = [
    Option<"mmaSync", "mma-sync", "bool", /*default=*/"true",
           "mgpu.mma on the tensor cores with mma.sync (else lane by lane)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPULowerToGPU : Pass<"mgpu-lower-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Per-lane mgpu.launch ops to gpu.launch ops";
  let description = [{
    Maps each launch that --mgpu-distribute-warpgroups made per-lane to a
    `gpu.launch` in the host function, over device copies of its arrays
    (gpu.alloc and gpu.memcpy, chained through async tokens, so that the
    same host program runs on the CPU and the GPU; an output the kernel only
    writes is not copied in).

    The launch's grid is numbered row-major onto the x dimension of CTAs
    (of clusters, with a cluster, which is the launch cluster); thread t of
    a CTA is lane t mod 128 of warpgroup t / 128. The shared scratch lives
    in dynamic shared memory at its planned offsets: buffers left undefined
    (as JAX's scratch), barrier arrays initialized (`mgpu.barrier_init`) by
    thread 0,
    then a CTA barrier (and a `mgpu.cluster_sync` where other CTAs of the
    cluster reach this CTA's barriers: cluster barriers, multicast copies,
    with another at the end of the kernel); global scratch is a device
    buffer zeroed before the launch. A launch whose threads wait on
    semaphores must fit in the CTAs
    the chip keeps resident at once.

    Kernel-level ops stay in the launch for a backend:
    --mgpu-primitives-to-nvvm (TMA, mbarriers) or --mgpu-emulate-gpu.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"copyWriteOnlyOuts", "copy-write-only-outs", "bool", "false",
           "copy write-only outputs to the device too, so that what a "
           "kernel leaves unwritten keeps its host values, as in interpret "
           "mode (the emulator sets it: host memory costs no transfer)">
  ];
}

def MGPUPrimitivesToNVVM : Pass<"mgpu-primitives-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower kernel-level ops in gpu.launch bodies to TMA and "
                "mbarriers (NVVM)";
  let description = [{
    The GPU implementation of the kernel-level ops left in `gpu.launch`
    bodies by --mgpu-lower-to-gpu, as conversion patterns:

    - barrier arrays are 64-bit mbarriers in shared memory
      (`mbarrier.init` with the array's arrival count, then
      `fence.mbarrier_init`); an arrival is `mbarrier.arrive` by lane 0 of
      the warpgroup; a wait is a `mbarrier.try_wait.parity` loop on every
      lane; on a cluster barrier lane 0 arrives on the barrier of each CTA
      of its group (`mapa`, then `mbarrier.arrive.release.cluster` on the
      shared::cluster address) and the wait acquires at cluster scope;
    - copy_gmem_to_smem of a window TMA can move (element of 1 to 8 bytes,
      global array with identity layout and rows of whole 16-byte chunks,
      window rows of whole 16-byte chunks) is `mbarrier.arrive.expect_tx`
      plus one `cp.async.bulk.tensor` per box (boxes of at most 256 per
      dimension), issued by lane 0, with a tensor map made on the host
      before the launch (`nvgpu.tma.create.descriptor`, out-of-bounds
      elements zero); other windows are copied by the warpgroup's lanes
      with vector accesses (zero-filled past the array) before lane 0
      arrives;
    - a multicast copy_gmem_to_smem (`collective_axes`) is
      `mbarrier.arrive.expect_tx` of the whole window plus the TMA loads of
      this CTA's share with `.multicast::cluster` and the mask of its
      group's cluster ranks, by lane 0 (where TMA cannot move the share,
      the plain copy of the whole window);
    - copy_smem_to_gmem is a TMA store (`cp.async.bulk.tensor` from shared
      to global) plus `cp.async.bulk.commit_group` by lane 0, or the lanes'
      copy;
    - commit_smem is `fence.proxy.async.shared::cta`; wait_smem_to_gmem is
      `cp.async.bulk.wait_group[.read]` on lane 0;
    - cluster_sync is `barrier.cluster.arrive` + `barrier.cluster.wait` on
      every lane (a CTA-wide barrier before sm_90);
    - an f32 `math.tanh` with `afn` (approx_math) is `tanh.approx.f32`, as
      JAX lowers it (llvm.tanh with `afn`, element by element); other math
      is left to the NVVM lowering (libdevice, whose fast exp, log, sin and
      cos serve `afn`).

    Runs before the launches are outlined (--mgpu-outline-kernels), so that
    tensor maps are made in host code.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Chip to lower for (default: the module's mgpu.target); TMA and "
           "bulk copies need sm_90 or later">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUOutlineKernels : Pass<"mgpu-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Outline gpu.launch ops into gpu.module kernels with "
                "reqntid";
  let description = [{
    Runs upstream gpu-kernel-outlining, then, in the kernels: gives each
    kernel launched with a constant block size `nvvm.reqntid` (and drops
    `known_block_size`, which would become a conflicting `.maxntid`), and
    turns strided slices of lane vectors into shuffles, which the NVVM
    lowering handles.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUAlignDynamicSharedMemory
    : Pass<"mgpu-align-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare a kernel module's dynamic shared memory extern, "
                "aligned for the 128-byte swizzle";
  let description = [{
    Runs on a `gpu.module` after `convert-gpu-to-nvvm`. The upstream
    lowering of `gpu.dynamic_shared_memory` defines an internal,
    zero-sized, 16-byte-aligned shared global; the NVPTX backend emits it
    as a 1-byte static shared variable that the kernel's whole dynamic
    shared memory is addressed from. This pass makes every zero-sized
    array global of the shared address space an external declaration
    (`.extern .shared .align 1024 .b8 name[]`: the dynamic shared memory
    itself, with no static variable before it) aligned to 1024 bytes, the
    period of the 128-byte swizzle that TMA and wgmma apply to absolute
    shared-memory addresses.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MGPUAttachTarget : Pass<"mgpu-attach-target", "::mlir::ModuleOp"> {
  let summary = "Give every gpu.module the NVVM target of the mgpu target";
  let description = [{
    Sets the `targets` of every `gpu.module` to one `#nvvm.target` for the
    chip given by `chip`, or else by the module's `mgpu.target` (sm_90a by
    default), with the PTX version the chip needs (PTX 8.0 for sm_80 and
    sm_90 families, 8.6 for sm_100). Unlike upstream `nvvm-attach-target`,
    which appends a target to those already present, it replaces them. The
    module's `mgpu.target` is removed once
    it has been carried over, so that the module no longer needs the mgpu
    dialect (mlir-translate reads the result).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Chip to compile for (default: the module's mgpu.target)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features (default: the PTX version the chip needs)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "Optimization level of the NVPTX backend">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect", "::mlir::mgpu::MGPUDialect"];
}

#endif // MGPU_GPU_PASSES_TD
