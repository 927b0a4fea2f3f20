//===- Passes.td - mgpu passes -----------------------------*- tablegen -*-===//
//
// Every mgpu pass, by layer: the kernel form that all backends share, then
// the GPU backend, then the host backends (interpret mode and the GPU
// emulator), then the pipelines' own. Each pass lives in one file of its
// layer's folder under lib/; the pipelines that compose them are in
// mgpu/Pipelines.h.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_PASSES_TD
#define MGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Kernel form (lib/KernelForm): shared by every backend
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// GPU backend (lib/GPU)
//===----------------------------------------------------------------------===//

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
    - `wgmma` and `wgmma_row`: the tensor cores' accumulator fragments and
      their rows; `splat`: one scalar.

    Elementwise ops stay in registers; ops that move data between lanes
    exchange it through a new shared scratch entry (one area per warpgroup,
    sized once the body is distributed) and warp shuffles, with named
    barriers (bar.sync 1 + warpgroup, 128) placed where one lane may touch
    what another touched. Scalars are uniform and a scalar side effect
    happens once per warpgroup (lane 0). linalg ops on memrefs become
    parallel loops first.

    An mgpu.wgmma marked `mgpu.tensor_cores` (--mgpu-select-tensor-cores)
    runs on the tensor cores (wgmma.mma_async); another is computed lane by
    lane. An mgpu.mma runs on mma.sync, each warp a slab of rows, unless
    `mma-sync=0` (the pipelines' `tensor-cores=0`): then it is computed lane
    by lane.
  }];
  let options = [
    Option<"mmaSync", "mma-sync", "bool", /*default=*/"true",
           "mgpu.mma on the tensor cores with mma.sync (else lane by lane)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
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
      every lane (a CTA-wide barrier before sm_90).

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

//===----------------------------------------------------------------------===//
// Host backends (lib/Host): interpret mode and the GPU emulator
//===----------------------------------------------------------------------===//

def MGPULowerToCPU : Pass<"mgpu-lower-to-cpu"> {
  let summary = "Lower mgpu.launch ops to host code (interpret mode)";
  let description = [{
    Runs the launches of --mgpu-form-launches on the host: a loop nest over
    the CTAs in grid order (last axis innermost, cluster axes after the
    grid's), each running its Pallas threads, the body inlined once with its
    arguments bound to loop indices. Global scratch is zeroed once; a CTA's
    shared scratch (buffers and barriers, at the planned offsets of one host
    arena) is poisoned when it starts (0xff bytes: shared memory starts
    undefined), its barrier words zeroed (phase 0).

    Kernel-level ops become host code: copies are synchronous (clipped to
    the array, zero-filled past it) and arrive on their barrier at once,
    barriers and semaphore waits go through libmgpu_host_runtime.so (a wait
    that cannot complete reports the op and its location after
    MGPU_WAIT_TIMEOUT seconds instead of hanging). The Pallas threads of a
    CTA that waits on a barrier run on host threads of their own; a launch
    that waits on a semaphore runs every Pallas thread of every CTA on its
    own host thread (at most 1024).

    With `smem-layouts` (the default) a shared buffer whose copies name
    transforms holds the tiled, swizzled bytes the GPU's copies leave in
    it, and the ops that name the transforms (copies in and out, the
    tensor cores' operands) move elements through that layout: an op that
    reads the buffer as row-major then reads the scrambled numbers it
    would on the GPU. `smem-layouts=0` keeps every buffer row-major.
  }];
  let options = [
    Option<"smemLayouts", "smem-layouts", "bool", /*default=*/"true",
           "Store shared buffers with transforms in the GPU's layout">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::omp::OpenMPDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUEmulateGPU : Pass<"mgpu-emulate-gpu", "::mlir::ModuleOp"> {
  let summary = "Run the gpu.launch kernels of --mgpu-lower-to-gpu on host "
                "threads (a test vehicle)";
  let description = [{
    Replaces every `gpu.launch` by a call of the host runtime's
    `mgpuEmuRunGrid` with a lane function outlined from the kernel body
    (its captures passed through a stack struct): the runtime runs groups of
    CTAs that must run together (a cluster; every CTA of a kernel that waits
    on semaphores) on a pool of one host thread per core
    (`MGPU_EMULATE_THREADS` overrides), each CUDA thread of a group a fiber
    that yields where it waits. Thread, block and cluster ids come from the
    lane function's arguments, workgroup memory is a host buffer with one
    slice per CTA slot of the pool, `gpu.barrier` and named `nvvm.barrier`s
    are counters spun on with `mgpuEmuYield`, and xor shuffles exchange
    values through a host array between two warp-wide barriers. Host-side
    gpu ops become memref ops. This checks the GPU lowering itself (staging,
    lane distribution, barriers, shuffles, semaphores) with numbers on
    machines without a GPU (`mgpu-run --backend=emulate`).

    With `checks` (`all`, or a comma-separated list of `races`, `async`,
    `barriers`, `init`, `bounds`; `none` by default here, `all` in
    `mgpu-run --backend=emulate`) the lane functions also call the host
    runtime's checker (lib/Runtime/EmuChecks.cpp) at every shared-memory
    load and store, proxy fence, CTA barrier and wgmma, and the first hazard
    is reported as `file:line:col: error: ...` at its op (exit status 1):
    shared-memory data races between warps, async-proxy hazards (a
    generic write read by TMA or wgmma without `commit_smem`, memory read
    or overwritten while an async copy or wgmma still uses it), mbarrier
    misuse (more arrivals than a phase takes, a wait that can never
    complete), reads of never-written shared memory and accesses outside
    the CTA's shared memory.
  }];
  let options = [
    Option<"checks", "checks", "std::string", /*default=*/"\"none\"",
           "The emulator's hazard checks: all, none, or a comma-separated "
           "list of races, async, barriers, init, bounds">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MGPUVectorsToLoops : Pass<"mgpu-vectors-to-loops"> {
  let summary = "Whole-block vector ops as loops over small chunks (host)";
  let description = [{
    Kernel bodies compute on whole blocks (`vector<4x4096xf32>`). LLVM keeps
    such a value in registers and the host lowering unrolls every op on it
    (a libm call per element for `math.exp`): compile time grows with the
    block and the value spills to the stack. For the host backends this
    pass gives each vector with more than `max-elements` elements a heap
    buffer and turns the ops on it into loops over chunks of the innermost
    dimension (up to 16 elements): elementwise ops, splat constants,
    broadcasts, in-bounds unmasked transfers and vector loads/stores,
    `vector.reduction` and `vector.multi_reduction`. A `vector.contract`
    with a big operand or result (any projected-permutation indexing maps,
    narrower operands widened to the accumulator's type) becomes loops over
    its parallel dimensions around a scalar loop over the reduced ones. Any
    other user gets the whole vector back, so unsupported ops still work,
    unrolled as before.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "64",
           "vectors with more elements than this get buffers and loops">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUHoistAllocas : Pass<"mgpu-hoist-allocas"> {
  let summary = "Statically shaped memref.alloca out of loops (host)";
  let description = [{
    --convert-vector-to-scf puts the stack buffers of N-D transfers at the
    top of the loop body that holds them, and LLVM takes an alloca outside
    the entry block again on every iteration: a long pipelined grid ran
    out of stack on the host. This pass moves every statically shaped
    `memref.alloca` out of the sequential control flow around it (scf.for,
    while, if, index_switch, execute_region) to the start of the enclosing
    region, never out of a parallel region, whose threads need their own
    buffers.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MGPUByteBoolVectors : Pass<"mgpu-byte-bool-vectors"> {
  let summary = "i1 vector loads and stores one byte per element (host)";
  let description = [{
    A memref of i1 holds one byte per element, but LLVM loads and stores
    `<N x i1>` as N packed bits. On the host backends this pass rewrites
    the vector accesses of i1 vectors in memrefs (`vector.load`, `store`,
    `maskedload`, `maskedstore`, and the 1-D transfers that lower to them)
    as `vector.gather` / `vector.scatter` over consecutive indices, which
    LLVM performs element by element. Vectors of 4-bit elements in the
    host's own buffers (after --mgpu-pack-sub-byte, only those hold 4-bit
    elements) get the same treatment. Other accesses are left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUWidenContractions : Pass<"mgpu-widen-contractions"> {
  let summary = "Mixed-precision vector.contract with widened operands (host)";
  let description = [{
    Rewrites a `vector.contract` whose operands are narrower than its
    accumulator (f16 or bf16 into f32, i8 into i32) to extend the operands
    to the accumulator's element type first (`arith.extf` / `arith.extsi`),
    the contraction's meaning, which LLVM's lowering of the contraction
    does not handle. Used by the host backends.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MGPUExpandF8 : Pass<"mgpu-expand-f8"> {
  let summary = "f8E4M3FN / f8E5M2 / f8E8M0FNU / f6 conversions as integer "
                "code";
  let description = [{
    LLVM has no f8 or f6 type: their values live in i8 and i6 and the
    backends compute on them in f32. This pass writes `arith.extf` from
    and `arith.truncf` to f8E4M3FN, f8E5M2, f6E2M3FN and f6E3M2FN (with f32
    on the other side) as integer code on the bits: exact widening, and
    narrowing with round-to-nearest-even that saturates to the largest
    finite value as the GPU's `cvt.rn.satfinite` does (NaN stays NaN in
    f8; the f6 formats have no NaN or infinity, and NaN saturates too). f8E8M0FNU (a byte of
    biased exponent, the MX scale type) widens exactly (bits 0 is 2^-127,
    0xFF NaN) and narrows as JAX narrows it by default
    (`cvt.rp.satfinite.ue8m0x2.f32`): the magnitude rounded up to a power
    of two, saturated at 2^127. `1 / x` on f8E8M0FNU becomes the integer
    `254 - x`, as in JAX. Both backends run it (the GPU has f8 conversions
    only on some chips; integer code serves every one).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

def MGPUCheckVectorAccesses : Pass<"mgpu-check-vector-accesses"> {
  let summary = "Runtime bounds checks of vector loads, stores and transfers";
  let description = [{
    Upstream's `--generate-runtime-verification` checks memref loads and
    stores but not vector accesses. For the host backends this pass adds a
    `cf.assert` before each `vector.load`, `vector.store` and each
    `vector.transfer_read` / `vector.transfer_write` dimension marked in
    bounds: the vector must lie inside the memref. Out of bounds it would
    read or write other memory (an in-bounds transfer is not masked). It
    also asserts that each `memref.view` (a RefUnion's ref) lies inside
    its byte buffer, which upstream's checks leave out.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def MGPUCheckDivisions : Pass<"mgpu-check-divisions"> {
  let summary = "Runtime checks that integer divisors are not zero (host)";
  let description = [{
    For the host backends: a `cf.assert` that the divisor is not zero before
    each scalar integer division or remainder of the arith dialect (divui,
    divsi, remui, remsi, ceildivsi, ceildivui, floordivsi), which would
    otherwise trap or yield garbage.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def MGPUReportFailedChecks
    : Pass<"mgpu-report-failed-checks", "::mlir::ModuleOp"> {
  let summary = "Failed runtime checks as located errors (host backends)";
  let description = [{
    Interpret mode and the GPU emulator check memory accesses at run time
    (upstream `--generate-runtime-verification`, which emits `cf.assert`):
    an index out of bounds in a kernel body or in host code would otherwise
    read or write other memory, corrupt the heap or hang. This pass turns
    each `cf.assert` into a call of the host runtime that, when the check
    fails, prints `file:line:col: error: <what failed>` at the checked op's
    location and ends the program with exit code 1 (a `cf.assert` would
    abort with a signal).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MGPUHostPrintf : Pass<"mgpu-host-printf", "::mlir::ModuleOp"> {
  let summary = "debug_print (gpu.printf) as C printf on the host backends";
  let description = [{
    Interpret mode and the GPU emulator run kernel bodies as host code: this
    pass turns each `gpu.printf` outside a `gpu.module` into a call of the C
    library's `printf` with the same format, its arguments promoted as C
    varargs are (index and small integers widened, floats to double). A
    vector argument is refused with a diagnostic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Pipelines (lib/Pipelines)
//===----------------------------------------------------------------------===//

def MGPUPipelineError : Pass<"mgpu-pipeline-error"> {
  let summary = "Reports a pipeline that cannot run, and fails";
  let description = [{
    What the mgpu pipelines add instead of their passes when they cannot
    run as asked (nested under an op other than `builtin.module`, an
    unknown option value): it emits `message` as an error at the op it runs
    on and fails, so the tool exits with status 1 instead of aborting.
  }];
  let options = [
    Option<"message", "message", "std::string", "\"\"",
           "the error to report">
  ];
}

def MGPUSetTarget : Pass<"mgpu-set-target", "::mlir::ModuleOp"> {
  let summary = "Write the chip a pipeline compiles for into mgpu.target";
  let description = [{
    With `chip=`, sets the chip of the module's `mgpu.target` (keeping its
    profile; adding one where the module has none): the GPU pipeline's
    `chip=` runs this pass first, so that every later pass reads the same
    chip from the module (the one entrance of the chip). An unknown chip is
    an error that lists the known ones. Without `chip=` it does nothing.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip (sm_80, sm_90, sm_90a, sm_100, sm_100a)">
  ];
}

def MGPUCheckModuleLevel : Pass<"mgpu-check-module-level", "::mlir::ModuleOp"> {
  let summary = "Refuses code at module level, outside any function";
  let description = [{
    The first pass of the mgpu pipelines. An op directly in a
    `builtin.module` that is not a symbol (a function, a global, a
    `gpu.module`), not isolated from above (a nested module) and not one of
    the LLVM dialect's module-level declarations (`llvm.mlir.global_ctors`,
    `llvm.module_flags`, ...: no operands, no results) is code that no
    function runs, e.g. a `vector.print`. The lowering would carry it into
    LLVM IR as an instruction with no function, which LLVM's verifier
    rejects with a dump and no location; this pass reports it at the op.
  }];
}

#endif // MGPU_PASSES_TD
