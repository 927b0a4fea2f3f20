//===- Passes.td - KernelForm passes -----------------------*- tablegen -*-===//
//
// The passes of the kernel form that every backend shares (lib/KernelForm):
// bufferization, run_scoped, pipelines expanded into step loops over
// kernel-level ops, launches, layouts. Each lives in one file of lib/KernelForm;
// mgpu/Passes.h declares the passes of every layer, mgpu/Pipelines.h
// composes them.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_PASSES_TD
#define MGPU_KERNELFORM_PASSES_TD

include "mlir/Pass/PassBase.td"

def MGPUBufferize : Pass<"mgpu-bufferize", "::mlir::ModuleOp"> {
  let summary = "Bufferize tensor-form pallas_call / mpmd_map (one-shot)";
  let description = [{
    Runs one-shot bufferization over the module, function boundaries
    included, with the BufferizableOpInterface models of the kernel ops:
    tensor `ins` / `outs` become buffers, results become the `outs` buffers,
    and an input passed again as an `outs` init is updated in place when the
    op reads and writes it block by block (same staged block spec), and
    copied otherwise. Function arguments and results get identity-layout
    memref types, the form the kernel regions use for whole arrays.
  }];
  let options = [
    Option<"identityLayout", "identity-layout", "bool", /*default=*/"true",
           "Give function boundaries identity-layout memref types (else "
           "fully dynamic layouts, cast back inside the kernels)">
  ];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUPackSubByte : Pass<"mgpu-pack-sub-byte", "::mlir::ModuleOp"> {
  let summary = "Elements narrower than a byte stored as JAX stores them "
                "(4-bit two to a byte, 6-bit one to a byte)";
  let description = [{
    JAX stores float6_e2m3fn and float6_e3m2fn arrays one element per
    byte, in its low 6 bits: a memref of f6E2M3FN or f6E3M2FN becomes an
    i8 memref of the same shape and layout, and its loads, stores and
    transfers read bytes truncated to 6 bits or write values zero-extended
    (masked and gathered accesses and atomics on them are refused).

    JAX stores int4, uint4 and float4_e2m1fn arrays two elements to a
    byte, element 2k in the low nibble of byte k. This pass rewrites the
    whole module, host code and kernels, after bufferization and before
    anything addresses memory: a memref of 4-bit elements becomes an i8
    memref with half as many innermost elements (strides and offset
    halved), a pallas_call's block specs and tilings follow (a swizzle is
    in bytes already), and accesses become byte accesses:
    `vector.transfer_read/write` move 2-byte pairs and `vector.bitcast`
    them to and from 4-nibble groups (one lane holds both in the
    warpgroup distribution), `memref.load` shifts the byte, and
    `memref.store` in host code reads, modifies and writes it. Vector
    values keep their 4-bit element type.

    Refused, at the op: an odd or dynamic innermost size or stride, a
    transposed block, a transfer whose innermost sizes or constant index
    are not multiples of 4 or that has a permutation or a mask, a scalar
    store in a kernel (lanes would race on the shared byte), and the other
    memref and vector ops on 4-bit memrefs (subviews, reshapes, copies,
    vector.load/store, atomics).

    With `scalar-loops` (interpret mode, which computes on whole blocks in
    loops over chunks), a transfer instead goes through a byte-per-element
    buffer of the vector's shape that scalar loops fill or drain, and the
    vector meets only elementwise conversions.
  }];
  let options = [
    Option<"scalarLoops", "scalar-loops", "bool", /*default=*/"false",
           "Move 4-bit vectors through byte-per-element buffers with "
           "scalar loops (the host backend)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUContractToWgmma : Pass<"mgpu-contract-to-wgmma"> {
  let summary = "Matmuls of staged blocks (vector.contract) as mgpu.wgmma "
                "(tensor cores)";
  let description = [{
    A Pallas body that multiplies two blocks with `jnp.dot(a_ref[...],
    b_ref[...])` has, in memref form, a `vector.contract` of two whole-block
    `vector.transfer_read`s of shared memory. This pass makes such a
    contraction an `mgpu.wgmma` of views of the two blocks at the reads'
    indices, which the tensor-core lowering runs as wgmma.mma_async (and
    whose blocks `--mgpu-expand-pipelines="apply-transforms=1"` may stage in
    the swizzled layout). It rewrites a row-major matmul (m, k) x (k, n) ->
    (m, n) adding f16 or bf16 products into an f32 accumulator, with M a
    multiple of 64, N a multiple of 8 up to 256 and K a multiple of 16, and
    both inputs in-bounds, unmasked, minor-identity reads of 2-d
    shared-memory memrefs, inside a kernel body; anything else is left as
    it is. An accumulator block that is read whole, multiplied into and
    written back whole is updated 64 rows at a time (one wgmma per 64-row
    half, as JAX's consumer warpgroups split it), so that each accumulator
    fits the tensor-core lowering's registers. The sums become wgmma's (f32,
    in k order). The tensor-core pipelines run it after bufferization.

    ```mlir
    %a = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<128x64xbf16, #smem>, vector<128x64xbf16>
    %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x128xbf16, #smem>, vector<64x128xbf16>
    %r = vector.contract {...} %a, %b, %acc
    // becomes
    %av = memref.subview %as[0, 0] [128, 64] [1, 1]
    %bv = memref.subview %bs[0, 0] [64, 128] [1, 1]
    %r = mgpu.wgmma %acc, %av, %bv
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUSelectTensorCores : Pass<"mgpu-select-tensor-cores"> {
  let summary = "Choose the mgpu.wgmma ops that run on the tensor cores";
  let description = [{
    The one decision about tensor cores, recorded in the IR for the passes
    after it: with `enable` on a chip with wgmma (sm_90a), every
    `mgpu.wgmma` of a kernel that the tensor cores can run (f16 or bf16 a
    and b, f32 accumulator of at most 64 KiB) gets the unit attribute
    `mgpu.tensor_cores`. --mgpu-expand-pipelines then stores the blocks only
    such ops read in their tiled, swizzled layout, --mgpu-assign-layouts
    leaves their results in WGMMA fragments and
    --mgpu-distribute-warpgroups issues wgmma.mma_async for them. In a
    kernel where the tensor cores are not available (not enabled, or
    another chip), the layouts that copies and wgmma ops name for them are
    dropped: the buffers stay row-major, as the lanes read them.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "Use the tensor cores where the chip has wgmma">
  ];
}

def MGPUDirectBlocks : Pass<"mgpu-direct-blocks"> {
  let summary = "Lane-local blocks read and written in place in global memory";
  let description = [{
    When a pallas_call body only reads and writes its blocks whole and
    computes lane by lane (arith, math, reductions, broadcasts, shape casts,
    scf, program ids), staging the blocks through shared memory adds two
    copies and barriers and buys nothing. This pass (memref form, before
    `--mgpu-expand-pipelines`, all axes parallel) makes each such block a
    `gmem` block of the whole array that the body views with a
    `memref.subview` at the block's offset, so that lanes load their
    elements straight into registers and store them back. A block stays
    staged when it has transforms, does not divide a static contiguous
    array, is passed twice, or is used by anything but whole-vector
    accesses; nothing changes when the body needs shared memory (a
    contraction, a copy, a barrier, scratch, a mesh).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUMarkUnsyncedAccesses : Pass<"mgpu-mark-unsynced-accesses"> {
  let summary = "Carry unsafe_no_auto_barriers to the memory accesses";
  let description = [{
    In each pallas_call and mpmd_map whose compiler params set
    `unsafe_no_auto_barriers = true`, marks every memory access of the body
    (vector transfers, loads and stores, memref loads and stores) with the
    unit attribute `mgpu.unsynced`: the distribution to lanes then puts no
    barrier between lanes before it. Barriers of mgpu's own exchanges
    between lanes and of `mgpu.commit_smem` stay.
  }];
}

def MGPUMathFlags : Pass<"mgpu-math-flags"> {
  let summary = "Fused multiply-adds in kernels; approximate math where asked";
  let description = [{
    Sets fastmath flags on the floating-point ops of pallas_call and
    mpmd_map bodies: `contract` everywhere (multiply-adds may fuse, as nvcc
    does by default), and `afn` + `arcp` in pallas_calls whose compiler
    params set `approx_math = true` (fast `exp`, approximate reciprocals),
    which the GPU lowering turns into ex2.approx and div.approx. Flags
    already on an op are kept.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MGPUExpandCopyPredicates : Pass<"mgpu-expand-copy-predicates"> {
  let summary = "Make predicated copies conditional copies";
  let description = [{
    A copy with `predicate %p` (JAX's `predicate=` on `copy_gmem_to_smem`
    and `copy_smem_to_gmem`) becomes an `scf.if %p` around the copy without
    it. Where `%p` does not hold, a copy into shared memory still makes its
    one arrival on its barrier (`mgpu.barrier_arrive`, no bytes), and a copy
    out that closes its bulk group still closes one
    (`mgpu.commit_smem_to_gmem_group`), so waits behave as with the copy.
    Every backend runs this before it lowers copies.

    ```mlir
    mgpu.copy_gmem_to_smem %x[%i], %buf, %bar[%c0] predicate %p : ...
    // becomes
    scf.if %p {
      mgpu.copy_gmem_to_smem %x[%i], %buf, %bar[%c0] : ...
    } else {
      mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def MGPUProfileKernels : Pass<"mgpu-profile-kernels", "::mlir::ModuleOp"> {
  let summary = "Named scopes to profiler events (JAX's in-kernel profiler)";
  let description = [{
    A bufferized `pallas_call` or `mpmd_map` whose compiler params set
    `profile_space` and `profile_dir` gets a hidden output: a zeroed `i64`
    buffer in global memory with one trace of `1 + 4 * profile_space` words
    per Pallas thread (a pallas_call's parallel grid point and thread; each
    point of an mpmd_map region's mesh, the regions one after another). Its
    bodies record the implicit scope named after the enclosing function
    around the whole body and an event (`mgpu.profile_event`) at the entry
    and exit of each `mgpu.trace_scope`, whose region is inlined. After the
    kernel the host writes the traces (`mgpuWriteProfile`:
    `<profile_dir>/<function>-<n>.json`, Chrome's trace event format) and
    frees the buffer. Kernels that are not profiled just lose their scopes.
    Profiling a dynamic grid is refused.

    ```mlir
    mgpu.trace_scope "compute" { ... }
    // becomes, in a profiled kernel:
    mgpu.profile_event begin 1 in %prof[%base] capacity 8 : memref<68xi64>
    ...
    mgpu.profile_event end 1 in %prof[%base] capacity 8 : memref<68xi64>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MGPULowerRunScoped : Pass<"mgpu-lower-run-scoped"> {
  let summary = "Give run_scoped allocations scratch entries and inline them";
  let description = [{
    Each `mgpu.run_scoped` becomes its region, inlined where it stood: a
    shared-memory buffer or barrier array it allocates becomes a scratch
    entry of the enclosing `pallas_call` or `mpmd_map` (counted in
    `mgpu.internal_scratch`, so rule S5 does not see it), an accumulator
    (a vector argument) a zero constant, and its results the values it
    yields. Scopes do not share memory with each other (JAX reuses a
    finished scope's shared memory); a scope inside a loop reuses its
    entries at every iteration, barriers with their phases carried on.

    ```mlir
    %r = mgpu.run_scoped -> vector<4xf32> {
    ^bb0(%buf: memref<4xf32, #gpu.address_space<workgroup>>):
      ...
      mgpu.yield %v : vector<4xf32>
    }
    // becomes, with %buf a new scratch argument of the kernel region:
    ...
    // and %r replaced by %v
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MGPUExpandPipelines : Pass<"mgpu-expand-pipelines"> {
  let summary = "pallas_call and emit_pipeline to explicit step loops over "
                "kernel-level ops";
  let description = [{
    First makes every persistent loop an `scf.for` over the program's
    local steps (`mgpu.nd_loop`) or an `scf.while` taking steps from a
    global counter (`mgpu.dynamic_scheduling_loop`), and every
    `mgpu.planar_snake` index arithmetic. Then rewrites every memref-form `mgpu.pallas_call` into the kernel form that
    the backends lower (`expanded`: blocks are whole arrays in global
    memory, the body runs once per point of the parallel axes) and every
    `mgpu.emit_pipeline` into its loop. The step loop stages blocks through
    shared-memory slots with kernel-level ops: `max_concurrent_steps` slots
    per block (at most the number of steps), inputs fetched up to
    `max_concurrent_steps - 1` steps ahead with `mgpu.copy_gmem_to_smem` on
    one barrier per slot, a block revisited on consecutive steps fetched or
    written back once, outputs written back with `mgpu.copy_smem_to_gmem`
    when their block index changes and at the end, from rotating slots
    (`mgpu.wait_smem_to_gmem` before a slot is reused). Output blocks are not
    read from memory unless their array is also an input. The arena of
    slots and the barriers become scratch operands of the kernel.

    ```mlir
    // A pallas_call over a sequential grid of 4 steps, 2 buffers:
    //   scf.for %s = 0 to 4 {
    //     mgpu.copy_gmem_to_smem %x[...], %slot_next, %bar[...]  (step s + 1)
    //     mgpu.barrier_wait %bar[%cur] parity %p                 (step s)
    //     <body on the views of the current slots>
    //     mgpu.commit_smem; mgpu.copy_smem_to_gmem %out_slot, %o[...]
    //   }
    ```

    An input block whose spec has the transforms `[#mgpu.tile<[R, C]>,
    #mgpu.swizzle<128>]` and whose body reads it only as shared operands of
    `mgpu.wgmma` ops on the tensor cores (`mgpu.tensor_cores`, from
    --mgpu-select-tensor-cores; tile-aligned views) is stored in that
    layout: its copies get `transforms` and those wgmma ops `a_transforms` /
    `b_transforms`, so that TMA writes the layout and the tensor cores read
    it in place. Other blocks stay row-major, which gives the same numbers.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
}

def MGPUTrackBarrierPhases : Pass<"mgpu-track-barrier-phases"> {
  let summary = "Give every mgpu.barrier_wait and mgpu.barrier_test the "
                "parity of the phase it is for";
  let description = [{
    A `mgpu.barrier_wait` without `parity` waits for the next phase of its
    barrier that its Pallas thread has not waited for yet. This pass makes
    that explicit: per barrier array of a kernel region it keeps an i64 of
    phase bits, starting at 0, threaded through the body as an SSA value
    (scf.for and scf.while carry it, scf.if yields it); each wait takes the
    parity from its barrier's bit and flips it. A `mgpu.barrier_test` takes
    its parity the same way and flips the bit only where it returns true
    (an `arith.select`). Waits and tests inside other region ops, or on
    arrays of more than 64 barriers, need an explicit parity (a diagnostic
    says so). The backends lower only waits and tests with a parity.

    ```mlir
    mgpu.barrier_wait %bar[%i] : !mgpu.barrier<count = 2>
    // becomes
    %bit = ... (%bits >> %i) & 1 ...
    mgpu.barrier_wait %bar[%i] parity %p : !mgpu.barrier<count = 2>
    %bits2 = arith.xori %bits, (1 << %i)
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MGPUPropagateTransforms : Pass<"mgpu-propagate-transforms"> {
  let summary = "Give every access of a shared buffer the buffer's layout";
  let description = [{
    A shared-memory buffer holds the layout its `transforms` name (a tiling
    whose 128-byte rows are swizzled), or row-major where nothing names
    one. Transforms are named per op: by the copies in and out
    (`mgpu.copy_gmem_to_smem`, `mgpu.copy_smem_to_gmem`: JAX's transforms
    of the SMEM ref) and by the tensor cores' operands (`a_transforms`,
    `b_transforms`). For each buffer (a kernel's scratch, a `run_scoped`
    buffer, a `memref.view` of a byte buffer; views of it through
    `memref.subview`, `memref.transpose`, casts, `arith.select` and
    `mgpu.cluster_ref` are the same buffer) this pass makes every access
    agree:

    - the ops that name transforms on it name the same ones, or the second
      is an error with a note at the first;
    - a copy in or out of it that names none gets its transforms, so a
      copy out reads the buffer as the copy in wrote it;
    - where ops that read or write elements (vector and memref loads and
      stores, a wgmma off the tensor cores, ...) also access it, the buffer
      is kept row-major: its copies' transforms are dropped, unless an MMA
      on the tensor cores reads it in the tiled layout, which is an error
      at the element access (not supported yet).

    Runs after `--mgpu-expand-pipelines` in every pipeline, so that the
    backends see one layout per buffer. A buffer that reaches an op this
    pass cannot see through (a call, a region's iter_args) keeps its
    transforms as written.
  }];
}

def MGPUSplitMpmd : Pass<"mgpu-split-mpmd"> {
  let summary = "Split an mpmd_map with N mesh/function pairs into N launches";
  let description = [{
    Rewrites every `mgpu.mpmd_map` with several mesh/function pairs into one
    single-pair `mgpu.mpmd_map` per pair, run one after the other in pair
    order: the workaround JAX users apply by hand for "Lowering multiple
    mesh/function pairs is not supported by the Mosaic GPU backend".

    Every launch sees the same refs. Global-memory scratch is shared by the
    regions, so it becomes a zero-initialized host buffer passed to each
    launch as an extra output; shared-memory scratch stays per launch. Other
    meshes whose axes a region's `mgpu.axis_size` names become external
    meshes of that region's launch, so the super-mesh is kept.

    Regions that synchronize with each other (semaphore ops in more than one
    region) must run concurrently and cannot be split: the pass reports an
    error at the semaphore op.
  }];
  let options = [
    Option<"differentClustersOnly", "different-clusters-only", "bool",
           /*default=*/"false",
           "Split only the mpmd_maps whose meshes have different clusters, "
           "which one GPU launch cannot hold (the GPU pipelines run this)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MGPUDeviceMemory : Pass<"mgpu-device-memory", "::mlir::ModuleOp"> {
  let summary = "Device-resident memory: memrefs in #gpu.address_space<global>";
  let description = [{
    Host code keeps data on the device across kernel calls with memrefs in
    `#gpu.address_space<global>`: `memref.alloc` / `memref.dealloc` make and
    free device memory, `memref.copy` moves data between host and device, and
    pallas_call / mpmd_map take such memrefs as operands. `--mgpu-lower-to-gpu`
    passes them to the launch as they are (no device copy, no copy back, no
    host wait when every operand is on the device), so chained calls queue on
    the device one after the other.

    This pass gives such programs to a backend. With `target=gpu` (after
    `--mgpu-lower-to-gpu`) the allocations, frees and copies of device memory
    become `gpu.alloc`, `gpu.dealloc` and `gpu.memcpy`, a copy to the host
    waiting for the device; with `target=host` (interpret mode) they stay host
    memory operations. Either way the memory space is then dropped from every
    type outside `gpu.module`s. Host code that reads or writes device memory
    itself (anything but allocation, copies, views and calls) is an error.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"gpu\"",
           "Where device memory lives: `gpu` (gpu.alloc and gpu.memcpy) or "
           "`host` (interpret mode: host memory)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUPromoteAccumulators : Pass<"mgpu-promote-accumulators"> {
  let summary = "Carry accumulators revisited in a loop in vectors (GPU)";
  let description = [{
    In the body of a `pallas_call` in kernel form with one thread per
    program, and in the compute threads' step loop of a warp-specialized
    pipeline (an `scf.for` marked `mgpu.compute_steps`, whose body does not
    synchronize with other threads), a `vector.transfer_read` of a
    shared-memory block and the
    `vector.transfer_write` of the updated value back to the same indices,
    both in the body of an `scf.for` with loop-invariant operands, become a
    vector carried by the loop: the read moves before the loop and the write
    after it. This is how an accumulator revisited at every step of an
    `emit_pipeline` stays in registers (and, with tensor cores, in the WGMMA
    fragment layout) instead of going through shared memory at every step.
    A pair is left alone when another op in the loop may access the block:
    a memref of the same buffer (except a transfer at provably disjoint
    indices), a choice (`arith.select`) that may be of it, or a
    shared-memory memref of unknown origin. The GPU and
    emulator pipelines run it before `--mgpu-lower-to-gpu`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def MGPUAssignLayouts : Pass<"mgpu-assign-layouts"> {
  let summary = "Give every vector value of a kernel body a lane layout";
  let description = [{
    Records in `mgpu.out_layouts` how the lanes of a warpgroup hold each
    vector value of the bodies of `pallas_call` and `mpmd_map` ops
    (`#mgpu.layout`, SPEC section 7). The warpgroup distribution of
    `--mgpu-lower-to-gpu` emits each op for those layouts and converts a
    value (through the warpgroup scratch) only where two layouts meet.

    - `mgpu.layout_cast` has its layout; ops that already have
      `mgpu.out_layouts` keep theirs.
    - A wgmma on the tensor cores (`mgpu.tensor_cores`) leaves its result in
      the `wgmma` fragment layout.
    - A splat constant or a broadcast of a scalar is `splat`.
    - An elementwise op is `wgmma` when its vector operands are all `wgmma`
      or `splat` and at least one is `wgmma`; `splat` when all are `splat`.
    - A loop-carried vector is `wgmma` when the value the loop yields for it
      is (found by iterating to a fixed point from `strided`), and so is an
      `scf.if` result both of whose branches yield `wgmma`.
    - Everything else is `strided`.

    So an accumulator updated by the tensor cores stays in the fragment
    layout across a K loop, and elementwise epilogues on it need no
    exchange. The GPU and emulator pipelines run it just before
    `--mgpu-lower-to-gpu`, which assigns the same way any layout still
    missing.
  }];
}

def MGPUFormLaunches : Pass<"mgpu-form-launches"> {
  let summary = "Kernels in kernel form to mgpu.launch (the launch form)";
  let description = [{
    Writes each expanded `mgpu.pallas_call` and each `mgpu.mpmd_map` as one
    `mgpu.launch`, the form every backend lowers: the program model and the
    scratch plan are decided here once.

    - pallas_call: the parallel grid axes are the launch's grid; with a
      mesh, its cluster axes are the launch's cluster and its thread axis
      its warpgroups. Sequential axes are loops in the body already
      (--mgpu-expand-pipelines): their program ids are 0.
    - mpmd_map: one launch for all pairs, warp-specialized (one range of
      warpgroups per region in every CTA) when all meshes have the same
      grid and cluster and their threads fit in one CTA, CTA-partitioned
      (one range of a 1-D grid of CTAs per region) otherwise; `mpmd-form`
      forces one. A region that does not cover the launch runs under an
      `scf.if` of its range.
    - The body's `mgpu.program_id`, `num_programs`, `axis_index` and
      `axis_size` become the launch's arguments, arithmetic on them
      (`affine.delinearize_index` for a region's CTAs) or constants.
    - Scratch: global buffers are one per launch (an mpmd_map's regions
      share them); shared buffers and barrier arrays are planned in the
      CTA's shared memory, one copy per region, at 128-byte boundaries (1024
      for buffers of a KiB or more, which 128-byte swizzled tiles need).
    - An arrival on a cluster barrier and a multicast copy get
      `cluster_dims`: the launch's cluster dimensions of their axes, which
      name the mesh's cluster axes.

    ```mlir
    mgpu.pallas_call grid [4, 8] ... params #mgpu.compiler_params<
        dimension_semantics = [parallel, sequential]> expanded { ... }
    // becomes
    mgpu.launch grid [4] warpgroups 1 ins(...) outs(...) shared [...] at [...] {
    ^bb0(%i: index, %wg: index, ...):
      ...  // mgpu.program_id 0 is %i, mgpu.program_id 1 is 0
    }
    ```
  }];
  let options = [
    Option<"mpmdForm", "mpmd-form", "std::string", /*default=*/"\"auto\"",
           "How the pairs of an mpmd_map share a launch: auto, "
           "warp-specialized or cta-partitioned">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // MGPU_KERNELFORM_PASSES_TD
