//===- MGPUBlackwellOps.td - Tensor memory and tcgen05 MMAs -*- tablegen -*-===//
//
// Blackwell's (sm_100a) tensor cores, as Pallas Mosaic GPU exposes them
// (SPEC section 8): an accumulator in tensor memory (`!mgpu.tmem` scratch),
// the asynchronous MMA that one thread issues (`mgpu.tcgen05_mma`), the
// arrival on a barrier once the issued MMAs complete
// (`mgpu.tcgen05_commit_arrive`), and the moves between tensor memory and
// registers (`mgpu.async_load_tmem`, `mgpu.wait_load_tmem`,
// `mgpu.async_store_tmem`). Below them, the ops that the GPU lowering emits
// to allocate tensor memory and to move one TMEM row per lane.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUBLACKWELLOPS_TD
#define MGPU_DIALECT_MGPU_MGPUBLACKWELLOPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_Tcgen05MmaOp : MGPU_Op<"tcgen05_mma",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Blackwell MMA into a tensor-memory accumulator";
  let description = [{
    `%acc = %a x %b` or, with `accumulate`, `%acc += %a x %b`
    (plgpu.tcgen05_mma), issued once per Pallas thread: `%acc` is an
    M x N f32 buffer in tensor memory (`!mgpu.tmem`), `%a` an M x K and `%b`
    a K x N matrix in shared memory, both f16, both bf16, or both 8-bit
    floats (f8E4M3FN and f8E5M2, which may be mixed: `.kind::f8f6f4`).
    Products are exact and summed in f32. M is 128, N a multiple of 16 up
    to 256, K a multiple of 16 (of 32 for 8-bit inputs). `accumulate` is an i1 (JAX's `accumulate=`; absent:
    true), so a K loop can start a fresh accumulator at its first step.

    The MMA is asynchronous: it completes, in issue order with this
    thread's other MMAs, some time before the arrival of a later
    `mgpu.tcgen05_commit_arrive`; until a wait on that barrier, `%a` and
    `%b` must not be overwritten and `%acc` must not be read. (The CPU
    backend and the emulator compute it when it is issued: the same numbers.)

    With `collective_axis "x"` (JAX's `collective_axis=`) the MMA is one
    of a pair of CTAs, the two CTAs along cluster axis "x" (the mesh's
    first cluster axis, of size 2, in a cluster of 2 CTAs): only the first
    CTA of the pair issues it (in any other CTA the op does nothing), and
    it computes `[acc0; acc1] (+)= [a0; a1] x [b0 | b1]`, where acc_r, a_r
    and b_r are the op's operands in CTA r: M = 256 rows split between the
    CTAs' accumulators, each CTA's `%acc` of 2N columns (N being `%b`'s),
    each CTA's `%b` N of them. `%acc` must be `collective` TMEM, N a
    multiple of 16 up to 128 (`tcgen05.mma.cta_group::2`).

    `%a` may instead be an f16 or bf16 TMEM buffer (JAX's TMEM lhs, such
    as attention's probabilities stored from registers with
    `mgpu.async_store_tmem`): row i of a in TMEM lane i, two elements to a
    column; it then takes no `a_transforms` (and no `collective_axis`).

    `a_transforms` / `b_transforms` are required and give the tiled,
    swizzled layout of the buffers (`[#mgpu.tile<[R, C]>,
    #mgpu.swizzle<S>]`, S = 32, 64 or 128, as `mgpu.copy_gmem_to_smem`
    writes them), which
    the tensor cores read in place; a K-major `%a`, and `%b` N-major or the
    transpose of a K-major buffer, as for `mgpu.wgmma`, views at a
    run-time offset (a ring's slot, `a_smem.at[slot]`) included.

    ```mlir
    mgpu.tcgen05_mma %acc, %a, %b accumulate(%not_first)
        a_transforms [#mgpu.tile<[128, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : !mgpu.tmem<128x128xf32>,
          memref<128x64xbf16, #gpu.address_space<workgroup>>,
          memref<64x128xbf16, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins MGPU_TmemType:$acc,
                       AnyTypeOf<[MemRefRankOf<[F16, BF16, F8E4M3FN, F8E5M2],
                                               [2]>,
                                  MGPU_TmemType]>:$a,
                       MemRefRankOf<[F16, BF16, F8E4M3FN, F8E5M2], [2]>:$b,
                       Optional<I1>:$accumulate,
                       OptionalAttr<ArrayAttr>:$a_transforms,
                       OptionalAttr<ArrayAttr>:$b_transforms,
                       OptionalAttr<StrAttr>:$collective_axis);
  let assemblyFormat = [{
    $acc `,` $a `,` $b (`accumulate` `(` $accumulate^ `)`)?
    (`a_transforms` $a_transforms^)? (`b_transforms` $b_transforms^)?
    (`collective_axis` $collective_axis^)?
    attr-dict `:` qualified(type($acc)) `,` qualified(type($a)) `,` type($b)
  }];
  let hasVerifier = 1;
}

def MGPU_Tcgen05CommitArriveOp : MGPU_Op<"tcgen05_commit_arrive",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrive on a barrier when the issued MMAs complete";
  let description = [{
    One arrival on barrier `%barrier[%i]`, made once every
    `mgpu.tcgen05_mma` this Pallas thread issued before it has completed
    (plgpu.tcgen05_commit_arrive; `tcgen05.commit` on the GPU). A wait on
    that phase of the barrier then sees the MMAs' accumulators and may
    overwrite their operands. The barrier counts it as one of its
    `arrivals`.

    With `collective_axis "x"` (after collective MMAs along "x") only the
    first CTA of the pair commits, and its MMAs' completion is one arrival
    on barrier `%barrier[%i]` of both CTAs of the pair
    (`tcgen05.commit.cta_group::2` multicast to the pair).

    ```mlir
    mgpu.tcgen05_commit_arrive %mma_done[%c0] : !mgpu.barrier<count = 1>
    mgpu.tcgen05_commit_arrive %consumed[%slot] collective_axis "x"
        : !mgpu.barrier<count = 4>
    ```
  }];
  let arguments = (ins MGPU_BarrierType:$barrier, Index:$index,
                       OptionalAttr<StrAttr>:$collective_axis);
  let assemblyFormat = [{
    $barrier `[` $index `]` (`collective_axis` $collective_axis^)? attr-dict
    `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def MGPU_AsyncLoadTmemOp : MGPU_Op<"async_load_tmem",
    [MemoryEffects<[MemRead]>]> {
  let summary = "read a tensor-memory buffer into registers";
  let description = [{
    The whole of `%src` as a vector of the same shape (plgpu.async_load_tmem,
    JAX's `acc_tmem[...]`), read by the Pallas thread's 128 lanes: on the
    GPU lane l of the warpgroup reads TMEM row l (`tcgen05.ld`, shape
    32x32b). The value may be used after a `mgpu.wait_load_tmem` (the
    lowering waits at the load itself, so that wait is then free).

    ```mlir
    %v = mgpu.async_load_tmem %acc : !mgpu.tmem<128x128xf32>
        -> vector<128x128xf32>
    mgpu.wait_load_tmem
    ```
  }];
  let arguments = (ins MGPU_TmemType:$src);
  let results = (outs VectorOfRankAndType<[2], [F32, F16, BF16]>:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MGPU_TmemSliceOp : MGPU_Op<"tmem_slice", [Pure]> {
  let summary = "columns of a tensor-memory buffer";
  let description = [{
    The buffer of `%src`'s columns from element `%column` on, as wide as
    the result type (JAX's `tmem_ref.at[:, pl.ds(start, size)]`): the same
    tensor memory, not a copy, so MMAs and moves through the slice read and
    write `%src`. `%column` may be dynamic, as in JAX's double-buffered
    accumulators (`acc_tmem.at[:, pl.ds(slot * tile_n, tile_n)]`); the
    slice must lie inside `%src`, and for 16-bit elements (two to a column)
    start at an even element. The result has `%src`'s rows, element type
    and `collective` flag.

    ```mlir
    %half = mgpu.tmem_slice %acc[%col]
        : !mgpu.tmem<128x512xf32> -> !mgpu.tmem<128x256xf32>
    ```
  }];
  let arguments = (ins MGPU_TmemType:$src, Index:$column);
  let results = (outs MGPU_TmemType:$result);
  let assemblyFormat = [{
    $src `[` $column `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MGPU_WaitLoadTmemOp : MGPU_Op<"wait_load_tmem",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for this thread's tensor-memory loads";
  let description = [{
    Waits until the values of this Pallas thread's earlier
    `mgpu.async_load_tmem` may be used (plgpu.wait_load_tmem).

    ```mlir
    mgpu.wait_load_tmem
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def MGPU_AsyncStoreTmemOp : MGPU_Op<"async_store_tmem",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "write registers into a tensor-memory buffer";
  let description = [{
    Writes `%value` over the whole of `%dst`, of the same shape
    (plgpu.async_store_tmem): on the GPU lane l of the warpgroup writes TMEM
    row l (`tcgen05.st`, shape 32x32b). An MMA that reads `%dst` as its
    accumulator must be issued after every lane's store: a barrier among the
    lanes, as the lowering adds after the store.

    ```mlir
    mgpu.async_store_tmem %zero, %acc : vector<128x128xf32>,
        !mgpu.tmem<128x128xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[2], [F32, F16, BF16]>:$value,
                       MGPU_TmemType:$dst);
  let assemblyFormat = [{
    $value `,` $dst attr-dict `:` type($value) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def MGPU_CommitTmemOp : MGPU_Op<"commit_tmem",
    [MGPU_PallasThreadPrimitive, MGPU_NoEffectOnHost,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "make this thread's tensor-memory stores visible to MMAs";
  let description = [{
    plgpu.commit_tmem: every `mgpu.async_store_tmem` this Pallas thread
    issued before completes and becomes visible to the tensor cores, so an
    MMA issued after it (by any thread, once ordered by a barrier) reads the
    stored values (`tcgen05.wait::st`, then `tcgen05.fence::before_thread_sync`).
    mgpu's lowering of `mgpu.async_store_tmem` already waits after each
    store, so the op costs nothing more; it is there for kernels written as
    JAX writes them. On the host, where stores complete when issued, it does
    nothing. Blackwell only (sm_100a).

    ```mlir
    mgpu.async_store_tmem %p, %p_tmem : vector<128x128xbf16>,
        !mgpu.tmem<128x128xbf16>
    mgpu.commit_tmem
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Emitted by the lowering
//===----------------------------------------------------------------------===//

def MGPU_TmemAllocOp : MGPU_Op<"tmem_alloc",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "allocate a CTA's tensor memory (emitted by the GPU lowering)";
  let description = [{
    Run by the first warp of the CTA when the kernel starts (the GPU
    lowering places it): allocates `columns` TMEM columns (a power of two,
    32 to 512), writes their address to the 32-bit shared-memory `%slot`
    and gives up the right to allocate more (`tcgen05.alloc`,
    `tcgen05.relinquish_alloc_permit`). With `collective` both CTAs of a
    pair allocate together, for collective MMAs (`.cta_group::2`). Kernel
    bodies declare `!mgpu.tmem` scratch instead.

    ```mlir
    mgpu.tmem_alloc %slot columns 128 : memref<1xi32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins MemRefRankOf<[I32], [1]>:$slot, I64Attr:$columns,
                       UnitAttr:$collective);
  let assemblyFormat = [{
    $slot `columns` $columns (`collective` $collective^)? attr-dict `:`
    type($slot)
  }];
  let hasVerifier = 1;
}

def MGPU_TmemDeallocOp : MGPU_Op<"tmem_dealloc",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "free a CTA's tensor memory (emitted by the GPU lowering)";
  let description = [{
    Run by the first warp of the CTA once every thread is done with the
    tensor memory that `mgpu.tmem_alloc` put at `%slot`
    (`tcgen05.dealloc`).

    ```mlir
    mgpu.tmem_dealloc %slot columns 128 : memref<1xi32, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins MemRefRankOf<[I32], [1]>:$slot, I64Attr:$columns,
                       UnitAttr:$collective);
  let assemblyFormat = [{
    $slot `columns` $columns (`collective` $collective^)? attr-dict `:`
    type($slot)
  }];
  let hasVerifier = 1;
}

def MGPU_TmemRefOp : MGPU_Op<"tmem_ref", [MemoryEffects<[MemRead]>]> {
  let summary = "a TMEM scratch buffer of the CTA's allocation (emitted by "
                "the GPU lowering)";
  let description = [{
    The buffer that starts `column_offset` columns into the tensor memory
    whose address `mgpu.tmem_alloc` wrote to `%slot`.

    ```mlir
    %acc = mgpu.tmem_ref %slot [0] : memref<1xi32, #gpu.address_space<workgroup>>
        -> !mgpu.tmem<128x128xf32>
    ```
  }];
  let arguments = (ins MemRefRankOf<[I32], [1]>:$slot, I64Attr:$column_offset);
  let results = (outs MGPU_TmemType:$result);
  let assemblyFormat = [{
    $slot `[` $column_offset `]` attr-dict `:` type($slot) `->`
    qualified(type($result))
  }];
}

def MGPU_TmemLaneLoadOp : MGPU_Op<"tmem_lane_load",
    [MemoryEffects<[MemRead]>]> {
  let summary = "one lane's row of a TMEM buffer (emitted by the "
                "distribution)";
  let description = [{
    Row `%row` of `%src`, read by one lane: `%row` must be the lane's index
    in its warpgroup, as warp w of a warpgroup reaches TMEM rows 32w to
    32w + 31 only (`tcgen05.ld.32x32b` then `tcgen05.wait::ld` on the GPU).
    The result's columns start at `column` (absent: 0), so that a wide
    accumulator can be read a chunk of columns at a time.

    ```mlir
    %r = mgpu.tmem_lane_load %acc[%lane] : !mgpu.tmem<128x128xf32> -> vector<128xf32>
    %c = mgpu.tmem_lane_load %acc[%lane] column 64
        : !mgpu.tmem<128x256xf32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins MGPU_TmemType:$src, Index:$row,
                       DefaultValuedAttr<I64Attr, "0">:$column);
  let results = (outs VectorOfRankAndType<[1], [F32, F16, BF16]>:$result);
  let assemblyFormat = [{
    $src `[` $row `]` (`column` $column^)? attr-dict `:` qualified(type($src))
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def MGPU_TmemLaneStoreOp : MGPU_Op<"tmem_lane_store",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "write one lane's row of a TMEM buffer (emitted by the "
                "distribution)";
  let description = [{
    Writes `%value` to row `%row` of `%dst`, from one lane, with the rule
    of `mgpu.tmem_lane_load` (`tcgen05.st.32x32b` then `tcgen05.wait::st`).

    ```mlir
    mgpu.tmem_lane_store %r, %acc[%lane] : vector<128xf32>, !mgpu.tmem<128x128xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32, F16, BF16]>:$value,
                       MGPU_TmemType:$dst, Index:$row);
  let assemblyFormat = [{
    $value `,` $dst `[` $row `]` attr-dict `:` type($value) `,`
    qualified(type($dst))
  }];
}

#endif // MGPU_DIALECT_MGPU_MGPUBLACKWELLOPS_TD
