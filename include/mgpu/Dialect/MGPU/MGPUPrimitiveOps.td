//===- MGPUPrimitiveOps.td - Kernel-level ops --------------*- tablegen -*-===//
//
// The primitives Pallas Mosaic GPU users write inside kernels (`plgpu.*`):
// async copies between global and shared memory counted on barriers, copies
// out joined into bulk groups, barrier arrivals and waits, atomic stores;
// the tensor cores' ops (MGPUTensorCoreOps.td) and run_scoped and
// emit_pipeline (MGPUPipelineOps.td) are included from here, in the op
// list's order. --mgpu-expand-pipelines lowers pallas_call and
// emit_pipeline into these ops, so every backend runs the same step loops;
// each backend gives them its own implementation (TMA and mbarriers on the
// GPU, synchronous copies and host barriers on the CPU, the real async
// semantics in the emulator).
//
// Like every body op, a kernel-level op runs once per Pallas thread (one
// warpgroup): a copy is issued once per Pallas thread that executes it, an
// arrival is one arrival of that Pallas thread, and a wait makes the whole
// warpgroup wait.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUPRIMITIVEOPS_TD
#define MGPU_DIALECT_MGPU_MGPUPRIMITIVEOPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

def MGPU_CopyGmemToSmemOp : MGPU_Op<"copy_gmem_to_smem",
    [MGPU_PallasThreadPrimitive, AttrSizedOperandSegments]> {
  let summary = "async copy of a global-memory window into shared memory";
  let description = [{
    Starts copying a window of `src` (global memory) into `dst` (a statically
    shaped, contiguous buffer in shared memory). Without offsets the window
    is `src` itself (a whole ref or a `memref.subview` of one) and must have
    `dst`'s shape; with offsets `src[%i, ...]` the window has `dst`'s shape
    at those element offsets, and its elements outside `src` read as zero.

    The copy is one arrival on barrier `%barrier[%i]`, and the phase it
    arrives in completes only once all of its bytes have landed: wait for it
    with `mgpu.barrier_wait` before reading `dst`. Issued once per Pallas
    thread that executes it (plgpu.copy_gmem_to_smem).

    With `transforms [#mgpu.tile<[R, C]>, #mgpu.swizzle<S>]` (S = 32, 64
    or 128) the buffer holds the window in that layout instead of
    row-major: R x C tiles in row-major order, each tile's rows of S bytes
    with their 16-byte chunks swizzled (byte b at b xor (((b / 128) mod
    (S / 16)) x 16)), as TMA's and the tensor cores' S-byte swizzle modes
    read and write it. Copies out and tensor-core ops that name the same
    transforms read such a buffer; interpret mode and the emulator lay it
    out as the GPU does.
    `--mgpu-expand-pipelines="apply-transforms=1"` makes these copies from
    block specs.

    With `collective_axes ["c", ..]` (cluster axes of the mesh) the copy is
    a multicast, as JAX's `copy_gmem_to_smem(..., collective_axes=)`: every
    CTA of this CTA's group along those axes runs the same copy (the same
    window, into the same buffer and barrier of its own shared memory); the
    window is split along its leading dimension into one share per CTA of
    the group, each CTA loads its share into the buffer of every CTA of the
    group, and each CTA's barrier counts the whole window (one arrival,
    completing once all of its bytes have landed). The leading dimension is
    a multiple of the group's size; into a buffer with `transforms`, each
    share is whole rows of tiles. Write the buffer again only once every
    CTA of the group is done reading it (a cluster barrier or
    `mgpu.cluster_sync`). `cluster_dims` (set by --mgpu-form-launches) are
    the launch's cluster dimensions of the axes.

    With `collective_axes ["x"] partitioned D` (JAX's
    `leader_tracked=plgpu.CopyPartition.PARTITIONED(D)`, for collective
    MMAs) the copy is split between the two CTAs of a cluster of 2 along
    "x" instead: the window has `dst`'s shape with dimension D doubled, CTA
    r of the pair loads part r of it along D into its own `dst`, and only
    the first CTA's barrier counts the copy: there it is one arrival that
    completes once both CTAs' bytes have landed (in the other CTA the
    barrier is not touched). So the first CTA's wait covers what a
    collective `mgpu.tcgen05_mma` reads from both.

    With `predicate %p` (an i1, JAX's `predicate=`) the copy is made only
    where `%p` holds; where it does not, the copy still is its one arrival
    on the barrier, with no bytes, so a wait for the barrier's phase
    completes either way (`--mgpu-expand-copy-predicates`).

    Without a barrier (pre-Hopper chips only, such as `sm_80`: JAX's
    `copy_gmem_to_smem` without `barrier=`, its `cp.async` implementation)
    the copy is one copy group of this Pallas thread, and
    `mgpu.wait_gmem_to_smem N` waits until at most N of its groups are in
    flight: read `dst` only after a wait that covers its group. On the GPU
    every lane of the warpgroup copies 16-byte pieces (8 or 4 where the
    window's rows are not whole 16-byte pieces) with `cp.async` and the
    group is closed with `cp.async.commit_group`. The window must lie inside
    `src` (JAX's `OOBFillMode.PROMISE_IN_BOUNDS`: `cp.async` does not
    check bounds), and a barrier-less copy takes no predicate, transforms or
    collective_axes.

    ```mlir
    mgpu.copy_gmem_to_smem %a[%row, 0], %a_smem, %bar[%slot]
        : memref<1024x64xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>,
          !mgpu.barrier<count = 2>
    // sm_80: a cp.async copy group, waited for with mgpu.wait_gmem_to_smem.
    mgpu.copy_gmem_to_smem %a[%row, 0], %a_smem
        : memref<1024x64xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "", [MemRead]>:$src,
    Variadic<Index>:$offsets,
    DenseI64ArrayAttr:$static_offsets,
    Arg<AnyMemRef, "", [MemWrite]>:$dst,
    Arg<Optional<MGPU_BarrierType>, "", [MemWrite]>:$barrier,
    Optional<Index>:$barrier_index,
    OptionalAttr<ArrayAttr>:$transforms,
    OptionalAttr<StrArrayAttr>:$collective_axes,
    OptionalAttr<DenseI64ArrayAttr>:$cluster_dims,
    Optional<I1>:$predicate,
    OptionalAttr<I64Attr>:$partitioned
  );
  let assemblyFormat = [{
    $src `` custom<WindowOffsets>($offsets, $static_offsets) `,` $dst
    (`,` $barrier^ `[` $barrier_index `]`)? (`predicate` $predicate^)?
    (`transforms` $transforms^)?
    (`collective_axes` $collective_axes^)? (`partitioned` $partitioned^)?
    (`cluster_dims` $cluster_dims^)?
    attr-dict `:` type($src) `,` type($dst) (`,` qualified(type($barrier))^)?
  }];
  let builders = [
    // An unpredicated copy.
    OpBuilder<(ins "::mlir::Value":$src, "::mlir::ValueRange":$offsets,
                   "::llvm::ArrayRef<int64_t>":$static_offsets,
                   "::mlir::Value":$dst, "::mlir::Value":$barrier,
                   "::mlir::Value":$barrier_index,
                   "::mlir::ArrayAttr":$transforms,
                   "::mlir::ArrayAttr":$collective_axes,
                   "::mlir::DenseI64ArrayAttr":$cluster_dims), [{
      build($_builder, $_state, src, offsets, static_offsets, dst, barrier,
            barrier_index, transforms, collective_axes, cluster_dims,
            /*predicate=*/::mlir::Value(), /*partitioned=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The window's element offsets into `src` (empty: the whole `src`).
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedOffsets();
  }];
}

def MGPU_CopySmemToGmemOp : MGPU_Op<"copy_smem_to_gmem",
    [MGPU_PallasThreadPrimitive, AttrSizedOperandSegments]> {
  let summary = "async copy of a shared-memory buffer into global memory";
  let description = [{
    Starts copying `src` (shared memory) into a window of `dst` (global
    memory): `dst` itself, or with offsets the window of `src`'s shape at
    those element offsets, whose elements outside `dst` are not written.
    Write `src` and run `mgpu.commit_smem` first. The copy joins this Pallas
    thread's current bulk group; with `commit_group` (the default) the group
    is then closed, so `mgpu.wait_smem_to_gmem` can wait for it.
    (plgpu.copy_smem_to_gmem)

    With `reduction K` the copy combines each element of `src` into the
    element of `dst` it lands on instead of overwriting it, atomically per
    element (JAX's `reduction_op=`; PTX `cp.reduce.async.bulk.tensor`):
    `add`; `min` and `max` (f16 and bf16 only; a NaN operand is ignored);
    `inc`, giving `old >= src ? 0 : old + 1`, and `dec`, giving
    `old == 0 || old > src ? src : old - 1` (i32, compared unsigned); `and`,
    `or`, `xor` (i32 and i64); the integer minimum and maximum `smin`,
    `smax` (compared signed) and `umin`, `umax` (unsigned), i32 and i64
    (JAX's names: mgpu integers are signless, so the kind says how they
    compare). `add` takes f16, bf16, f32, i32 and i64.
    Elements outside `dst` are not touched.

    With `collective_axes ["x"] partitioned D` (JAX's
    `leader_tracked=plgpu.CopyPartition.PARTITIONED(D)`, for collective
    MMAs) the copy is split between the two CTAs of a cluster of 2 along
    "x" instead: the window has `dst`'s shape with dimension D doubled, CTA
    r of the pair loads part r of it along D into its own `dst`, and only
    the first CTA's barrier counts the copy: there it is one arrival that
    completes once both CTAs' bytes have landed (in the other CTA the
    barrier is not touched). So the first CTA's wait covers what a
    collective `mgpu.tcgen05_mma` reads from both.

    With `predicate %p` (an i1, JAX's `predicate=`) the copy is made only
    where `%p` holds; with `commit_group` a group is closed either way (an
    empty one where it does not hold), so the groups a later
    `mgpu.wait_smem_to_gmem` counts are the same.

    With `transforms [#mgpu.tile<[R, C]>, #mgpu.swizzle<S>]` `src` holds
    the window in that layout (as a `copy_gmem_to_smem` with the same
    transforms left it: JAX's transforms of the SMEM ref) and the copy reads
    it so: on the GPU a TMA store per tile through a map with the same
    swizzle. `--mgpu-propagate-smem-layouts` gives a copy out the transforms
    of the buffer it reads where it names none.

    ```mlir
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %o_smem, %o[%row, 0]
        : memref<128x64xf32, #gpu.address_space<workgroup>>, memref<1024x64xf32>
    mgpu.copy_smem_to_gmem %o_smem, %sum[0, 0] reduction add
        : memref<128x64xf32, #gpu.address_space<workgroup>>, memref<128x64xf32>
    mgpu.wait_smem_to_gmem 0
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "", [MemRead]>:$src,
    Arg<AnyMemRef, "", [MemRead, MemWrite]>:$dst,
    Variadic<Index>:$offsets,
    DenseI64ArrayAttr:$static_offsets,
    DefaultValuedAttr<BoolAttr, "true">:$commit_group,
    OptionalAttr<MGPU_TmaReduction>:$reduction,
    Optional<I1>:$predicate,
    OptionalAttr<ArrayAttr>:$transforms
  );
  let assemblyFormat = [{
    $src `,` $dst `` custom<WindowOffsets>($offsets, $static_offsets)
    (`reduction` $reduction^)? (`predicate` $predicate^)?
    (`transforms` $transforms^)? attr-dict `:`
    type($src) `,` type($dst)
  }];
  let builders = [
    // An unpredicated copy.
    OpBuilder<(ins "::mlir::Value":$src, "::mlir::Value":$dst,
                   "::mlir::ValueRange":$offsets,
                   "::llvm::ArrayRef<int64_t>":$static_offsets,
                   "bool":$commit_group,
                   "::mlir::mgpu::TmaReductionAttr":$reduction), [{
      build($_builder, $_state, src, dst, offsets, static_offsets,
            commit_group, reduction, /*predicate=*/::mlir::Value(),
            /*transforms=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedOffsets();
  }];
}

def MGPU_AsyncPrefetchOp : MGPU_Op<"async_prefetch",
    [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost]> {
  let summary = "prefetch a global-memory window into the L2 cache";
  let description = [{
    Starts bringing `ref` (a global-memory array, or a `memref.subview` of
    one: JAX's `ref.at[...]`) into the L2 cache, so that a later
    copy_gmem_to_smem of the same window finds it there
    (plgpu.async_prefetch). A hint: it changes no values and nothing waits
    for it. On sm_90 lane 0 issues one `cp.async.bulk.prefetch.tensor` per
    TMA box, through the tensor map that a copy of the same window uses;
    elsewhere (no TMA, the host backends) it does nothing.

    ```mlir
    %w = memref.subview %x[0] [128] [1] : memref<256xf32> to memref<128xf32>
    mgpu.async_prefetch %w : memref<128xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$ref);
  let assemblyFormat = "$ref attr-dict `:` type($ref)";
  let hasVerifier = 1;
}

def MGPU_CommitSmemOp : MGPU_Op<"commit_smem",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "make shared-memory writes visible to async copies";
  let description = [{
    Orders this Pallas thread's earlier writes to shared memory before its
    later async copies (copy_smem_to_gmem) read them (plgpu.commit_smem).
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_CommitSmemToGmemGroupOp : MGPU_Op<"commit_smem_to_gmem_group",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "close the current bulk group of copies out";
  let description = [{
    Closes this Pallas thread's open bulk group: the `copy_smem_to_gmem`s
    issued with `commit_group = false` since the last group was closed
    become one group, which `mgpu.wait_smem_to_gmem` counts as one
    (plgpu.commit_smem_to_gmem_group). With nothing open it closes an empty
    group, as `cp.async.bulk.commit_group` does.

    ```mlir
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %lo, %o[0, 0] {commit_group = false} : ...
    mgpu.copy_smem_to_gmem %hi, %o[64, 0] {commit_group = false} : ...
    mgpu.commit_smem_to_gmem_group
    mgpu.wait_smem_to_gmem 0
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_WaitGmemToSmemOp : MGPU_Op<"wait_gmem_to_smem",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for cp.async copies into shared memory";
  let description = [{
    Waits until at most `pending` of this Pallas thread's barrier-less
    `mgpu.copy_gmem_to_smem` copies (one copy group each) are still in
    flight; the bytes of the others are then in shared memory, visible to
    every lane of the warpgroup. Pre-Hopper chips only (`sm_80`), which copy
    with `cp.async` (plgpu.wait_gmem_to_smem; PTX `cp.async.wait_group`).

    ```mlir
    mgpu.wait_gmem_to_smem 0
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def MGPU_WaitSmemToGmemOp : MGPU_Op<"wait_smem_to_gmem",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for copies out of shared memory";
  let description = [{
    Waits until at most `pending` of this Pallas thread's bulk groups of
    copy_smem_to_gmem are still in flight. With `read_only` it waits only
    until their shared-memory sources have been read (the buffers may be
    written again), not until global memory is written
    (plgpu.wait_smem_to_gmem).

    ```mlir
    mgpu.wait_smem_to_gmem 1 read_only
    ```
  }];
  let arguments = (ins I64Attr:$pending, UnitAttr:$read_only);
  let assemblyFormat = "$pending (`read_only` $read_only^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Programmatic dependent launch
//===----------------------------------------------------------------------===//

def MGPU_GriddepcontrolWaitOp : MGPU_Op<"griddepcontrol_wait",
    [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for the grids this kernel depends on";
  let description = [{
    Waits until the kernels launched before this one on the stream have
    completed and their memory writes are visible
    (plgpu.griddepcontrol_wait). Every lane of the warpgroup waits, so each
    may read what those kernels wrote. On sm_90 it is PTX
    `griddepcontrol.wait`; mgpu launches kernels without programmatic
    stream serialization, so a kernel starts after the previous one has
    finished and the wait returns at once. Before sm_90, on the CPU and in
    the emulator, where launches run one after another, it is nothing. It
    orders memory accesses like a fence: none is moved across it.

    ```mlir
    mgpu.griddepcontrol_wait
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_GriddepcontrolLaunchDependentsOp
    : MGPU_Op<"griddepcontrol_launch_dependents",
              [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "let the next kernel start before this one ends";
  let description = [{
    Says that the kernel launched after this one may be scheduled once every
    CTA of this grid has said so or finished
    (plgpu.griddepcontrol_launch_dependents); what this kernel writes later
    is visible to that kernel only after its `griddepcontrol_wait`. On sm_90
    it is PTX `griddepcontrol.launch_dependents`, on every lane; elsewhere
    nothing (the next kernel starts after this one ends).

    ```mlir
    mgpu.griddepcontrol_launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def MGPU_DebugPrintOp : MGPU_Op<"debug_print",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "print every element of a vector, with its indices";
  let description = [{
    Prints one line per element of `value`: `format` with its one `{}`
    replaced by the element's indices and value, `[i, j]: v`, as
    `pl.debug_print(format, x)` of an array does on Mosaic GPU. The format
    is JAX's: `{{` and `}}` print braces, and `{}` takes no field name, spec
    or conversion. Each Pallas thread prints every element once; the order
    of the lines is not defined (on the GPU each lane prints the elements it
    holds). Integers print signed (JAX prints them as unsigned 64-bit
    numbers), floats with `%f`. Scalars print with `gpu.printf`.

    ```mlir
    mgpu.debug_print "x: {}" %x : vector<2x4xf32>
    // x: [0, 0]: 1.000000
    // x: [0, 1]: 2.000000 ...
    ```
  }];
  let arguments = (ins StrAttr:$format, AnyVectorOfNonZeroRank:$value);
  let assemblyFormat = "$format $value attr-dict `:` type($value)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The printf format of one element: the format around its placeholder,
    /// with `rank` index conversions and the element's conversion, and a
    /// newline (after verification).
    std::string getElementFormat();
  }];
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

def MGPU_BarrierInitOp : MGPU_Op<"barrier_init",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "initialize a barrier array (emitted by the GPU lowering)";
  let description = [{
    Puts every barrier of the array in phase 0 with no arrivals. The GPU
    lowering runs it on one thread of the CTA when the kernel starts, before
    a CTA-wide barrier; kernel bodies never need it (scratch barriers start
    initialized).
  }];
  let arguments = (ins MGPU_AnyBarrierType:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

def MGPU_BarrierArriveOp : MGPU_Op<"barrier_arrive",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrive on a barrier";
  let description = [{
    One arrival of this Pallas thread on barrier `%barrier[%i]`, after all of
    its earlier memory accesses (plgpu.barrier_arrive). On a
    `!mgpu.cluster_barrier` the arrival is made on barrier `%i` of every CTA
    of this CTA's group along the barrier's cluster axes, after this Pallas
    thread's earlier accesses to any memory of the cluster.

    `cluster_dims` (set by --mgpu-form-launches on arrivals on cluster
    barriers) are the launch's cluster dimensions of the barrier's axes.

    ```mlir
    mgpu.barrier_arrive %consumed[%slot] : !mgpu.barrier<count = 2, arrivals = 2>
    mgpu.barrier_arrive %ready[%c0]
        : !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>
    ```
  }];
  let arguments = (ins MGPU_AnyBarrierType:$barrier, Index:$index,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster_dims);
  let assemblyFormat = [{
    $barrier `[` $index `]` (`cluster_dims` $cluster_dims^)? attr-dict `:`
    qualified(type($barrier))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$barrier, "::mlir::Value":$index), [{
      build($_builder, $_state, barrier, index,
            ::mlir::DenseI64ArrayAttr());
    }]>
  ];
  let hasVerifier = 1;
}

def MGPU_BarrierWaitOp : MGPU_Op<"barrier_wait",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for the next phase of a barrier";
  let description = [{
    Waits until barrier `%barrier[%i]` completes the next phase this Pallas
    thread has not waited for yet; the op tracks the phase, as
    plgpu.barrier_wait does (--mgpu-track-barrier-phases makes it explicit).
    With `parity %p` it waits for the phase of parity `%p` (i1) instead.
    Memory written before the phase completed (copies counted on it, writes
    before arrivals) is visible after the wait. On a `!mgpu.cluster_barrier`
    it waits on this CTA's barrier, whose arrivals come from the CTAs of
    its group.

    ```mlir
    mgpu.barrier_wait %bar[%slot] : !mgpu.barrier<count = 2>
    mgpu.barrier_wait %bar[%slot] parity %p : !mgpu.barrier<count = 2>
    ```
  }];
  let arguments = (ins MGPU_AnyBarrierType:$barrier, Index:$index,
                       Optional<I1>:$parity);
  let assemblyFormat = [{
    $barrier `[` $index `]` (`parity` $parity^)? attr-dict `:`
    qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def MGPU_BarrierTestOp : MGPU_Op<"barrier_test",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "test, without blocking, whether a barrier's phase completed";
  let description = [{
    The non-blocking `mgpu.barrier_wait` (plgpu.barrier_test): `%done` is
    true when barrier `%barrier[%i]` has completed the next phase this
    Pallas thread has not waited for yet, and then the test consumes that
    phase as a wait would (a later wait or test is for the phase after it,
    and memory written before the phase completed is visible); when false
    nothing changes, and the same phase is tested again next time. With
    `parity %p` it tests the phase of parity `%p` (i1) and tracks nothing
    (--mgpu-track-barrier-phases gives every test its parity and flips the
    barrier's phase bit only where `%done` is true). The answer is the same
    on every lane of the warpgroup, so that the Pallas thread takes one
    branch: on the GPU the lanes' answers are or-ed by the warpgroup's named
    barrier (`bar.red.or.pred`), as JAX does. Only CTA barriers
    (`!mgpu.barrier`) are tested.

    ```mlir
    %done = mgpu.barrier_test %bar[%slot] : !mgpu.barrier<count = 2>
    %done2 = mgpu.barrier_test %bar[%slot] parity %p : !mgpu.barrier<count = 2>
    ```
  }];
  let arguments = (ins MGPU_BarrierType:$barrier, Index:$index,
                       Optional<I1>:$parity);
  let results = (outs I1:$done);
  let assemblyFormat = [{
    $barrier `[` $index `]` (`parity` $parity^)? attr-dict `:`
    qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

include "mgpu/Dialect/MGPU/MGPUTensorCoreOps.td"

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

def MGPU_SetMaxRegistersOp : MGPU_Op<"set_max_registers",
    [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "rebalance registers between warpgroups";
  let description = [{
    Sets the register budget of every lane of this warpgroup to `count`
    (setmaxnreg.inc / .dec, plgpu.set_max_registers): a producer
    warpgroup that only issues copies gives registers up (`decrease`) so
    that consumer warpgroups running wgmma can take them (`increase`).
    `count` is a multiple of 8 in [24, 256]. A hint for the other backends.

    ```mlir
    mgpu.set_max_registers 232 increase
    ```
  }];
  let arguments = (ins I64Attr:$count, MGPU_RegisterChange:$change);
  let assemblyFormat = "$count $change attr-dict";
  let hasVerifier = 1;
}

def MGPU_WarpgroupBarrierOp : MGPU_Op<"warpgroup_barrier",
    [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the lanes of a warpgroup meet (emitted by "
                "--mgpu-place-barriers)";
  let description = [{
    Every lane of this Pallas thread's warpgroup waits here until all 128
    have arrived, and each lane's earlier accesses to shared and global
    memory are visible to the others' later ones (`bar.sync 1 + warpgroup,
    128` on the GPU: --mgpu-distribute-warpgroups keeps the op in the
    lanes' code, and writes it for its own exchanges between lanes too;
    --mgpu-primitives-to-nvvm lowers it; the emulator meets the lanes on
    the same barrier). A body is written
    at array level, where an op is collective over the lanes; between two
    ops, one lane may read what another wrote. --mgpu-place-barriers puts
    this op where that can happen (JAX's lowering places its
    `warpgroup_barrier`s itself, before an arrival for one, unless
    `unsafe_no_auto_barriers`). A program run one lane after another (the
    host backends before distribution) needs none.

    ```mlir
    vector.store %v, %smem[%c0] : memref<128xf32, 3>, vector<128xf32>
    mgpu.warpgroup_barrier
    %w = vector.load %smem[%c0] : memref<128xf32, 3>, vector<128xf32>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def MGPU_AtomicStoreOp : MGPU_Op<"atomic_store"> {
  let summary = "atomic read-modify-write of a ref's elements (plgpu.atomic_*)";
  let description = [{
    Combines `value` into `ref` at `indices`, element by element, each
    element atomically: `ref[i] = kind(ref[i], value[i])`. A vector value
    covers the elements a `vector.store` of it at `indices` would write
    (its dimensions are the ref's innermost ones); a scalar value is one
    element. Like JAX's `plgpu.atomic_add` / `atomic_max` / `atomic_min` /
    `atomic_and` / `atomic_or` / `atomic_xor`, nothing is returned, and
    only each element is atomic, not the whole store: programs and Pallas
    threads that store into the same elements concurrently all land, in
    some order (float addition in that order may round differently).

    The ref is in global memory or shared memory. The element types follow
    JAX's Mosaic GPU: i32 for every kind (`max` and `min` compare signed,
    as for JAX's int32; `umax` and `umin` compare unsigned, JAX's uint32),
    f32 for `add` only, f16 and bf16 for `add`, `max` and `min` in global
    memory and for `add` only in shared memory.

    Like every body op, a vector store is collective over the warpgroup
    (each lane combines the elements it holds) and a scalar store happens
    once per Pallas thread.

    ```mlir
    mgpu.atomic_store add %x, %acc[%c0, %c0]
        : vector<128x64xf32>, memref<128x64xf32, #gpu.address_space<workgroup>>
    mgpu.atomic_store max %m, %best[%i] : i32, memref<16xi32>
    ```
  }];
  let arguments = (ins
    MGPU_AtomicKind:$kind,
    AnyType:$value,
    Arg<AnyMemRef, "", [MemRead, MemWrite]>:$ref,
    Variadic<Index>:$indices
  );
  let assemblyFormat = [{
    $kind $value `,` $ref `[` $indices `]` attr-dict `:` type($value) `,`
    type($ref)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector layouts
//===----------------------------------------------------------------------===//

def MGPU_LayoutCastOp : MGPU_Op<"layout_cast", [Pure]> {
  let summary = "choose the lane layout of a vector value";
  let description = [{
    The same value as `%source`, held by the lanes in `layout`
    (plgpu.layout_cast). The numbers never change: on the GPU the value is
    converted where its producer left it in another layout, and the host
    backends ignore layouts. A `wgmma` layout needs a 2-D vector of 8- to
    32-bit integers or floats (JAX's Layout.WGMMA: f32, f16, bf16 or s32
    accumulators and what an epilogue makes of them) with a multiple of 64
    rows and of 8 columns, at most 64 KiB; a `wgmma_row` layout an f32 or
    i32 vector of M or M x 1, M a multiple of 64; only a splat constant or a
    broadcast of a scalar can be cast to `splat`.

    ```mlir
    %acc = mgpu.layout_cast %zero : vector<64x128xf32> to #mgpu.layout<wgmma>
    ```
  }];
  let arguments = (ins AnyVectorOfNonZeroRank:$source, MGPU_LayoutAttr:$layout);
  let results = (outs AnyVectorOfNonZeroRank:$result);
  // The layout comes last: a `:` after it would be read as its type.
  let assemblyFormat = [{
    $source attr-dict `:` type($source)
    custom<SameType>(type($result), ref(type($source))) `to` qualified($layout)
  }];
  let hasVerifier = 1;
}

include "mgpu/Dialect/MGPU/MGPUPipelineOps.td"

#endif // MGPU_DIALECT_MGPU_MGPUPRIMITIVEOPS_TD
