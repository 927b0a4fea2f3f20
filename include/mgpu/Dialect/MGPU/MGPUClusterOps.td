//===- MGPUClusterOps.td - Ops across the CTAs of a cluster -*- tablegen -*-===//
//
// What the CTAs of one cluster (#mgpu.mesh<..., cluster = [..]>) do
// together on Hopper: meet at a cluster-wide barrier (SPEC section 8). A
// cluster's CTAs run at the same time on every backend: on the GPU the
// hardware co-schedules them, the emulator runs a cluster as one group of
// fibers and interpret mode runs the Pallas threads of a cluster's CTAs on
// host threads of their own (lib/Host/LowerToCPU.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUCLUSTEROPS_TD
#define MGPU_DIALECT_MGPU_MGPUCLUSTEROPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_ClusterSyncOp : MGPU_Op<"cluster_sync",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "barrier over every thread of every CTA of the cluster";
  let description = [{
    Waits until every Pallas thread of every CTA of this CTA's cluster has
    reached a `mgpu.cluster_sync`; what any of them wrote before, to global
    memory or to the shared memory of any CTA of the cluster, is visible to
    all of them after it. Every Pallas thread of every CTA of the cluster
    must run it the same number of times, like a CTA-wide barrier. Without
    a cluster (`cluster = []`) it is a barrier over the CTA's Pallas
    threads.

    On the GPU every thread runs `barrier.cluster.arrive` (release) then
    `barrier.cluster.wait` (acquire).

    ```mlir
    mgpu.cluster_sync
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def MGPU_ClusterRefOp : MGPU_Op<"cluster_ref", [Pure]> {
  let summary = "the same shared-memory buffer in another CTA of the cluster";
  let description = [{
    A view of `%smem` (a buffer in this CTA's shared memory, or a view of
    one) in the CTA of the cluster whose coordinates along the cluster axes
    `axes` are `%ctas` (one index per axis) and along the other cluster axes
    this CTA's own: JAX's `plgpu.cluster_ref(ref, {"c": idx})`, distributed
    shared memory (DSMEM). Loads and stores through it reach the peer's
    buffer; the result is a memref of the same shape, element type and
    layout without a memory space (a generic address, as JAX's
    `get_cluster_ref`). Reading what a peer wrote, or writing what it then
    reads, needs a `mgpu.cluster_sync` or a cluster barrier between the two;
    a CTA must not exit while a peer still accesses its buffer (end with a
    `mgpu.cluster_sync`).

    `cluster_dims` (set by --mgpu-form-launches) are the launch's cluster
    dimensions of the axes.

    On the GPU each lane maps the buffer's address with
    `mapa.shared::cluster` to the peer's rank and casts it to a generic
    address. The emulator and interpret mode view the peer CTA's slice of
    the shared memory of the cluster.

    ```mlir
    %peer = mgpu.cluster_ref %buf[%other] along ["c"]
        : memref<8x64xf32, #gpu.address_space<workgroup>> -> memref<8x64xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$smem, Variadic<Index>:$ctas,
                       StrArrayAttr:$axes,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster_dims);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $smem `[` $ctas `]` `along` $axes (`cluster_dims` $cluster_dims^)?
    attr-dict `:` type($smem) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MGPU_AsyncStoreSmemOp : MGPU_Op<"async_store_smem",
    [MGPU_PallasThreadPrimitive, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a shared-memory buffer into a peer CTA's";
  let description = [{
    An asynchronous copy of the whole of `%src` (this CTA's shared memory)
    into `%dst`, a `mgpu.cluster_ref` of a buffer of the same shape and
    element type in a peer CTA of the cluster, counted on barrier
    `%barrier[%i]` *of that peer* (the barrier array `%barrier` names in
    every CTA): one arrival there that also expects the copy's bytes, so
    the peer's phase completes when the data has landed, and a
    `mgpu.barrier_wait` on the peer's own barrier waits for it (a barrier
    with `arrivals = 1` per sender). The Pallas thread issues it once, like
    `mgpu.copy_smem_to_gmem`; writes of `%src` by the lanes need a
    `mgpu.commit_smem` before it. `%src` and the peer's buffer are
    contiguous, their bytes a multiple of 16 at 16-byte aligned addresses.
    The peer's barriers must be initialized before it (the lowering makes
    the cluster meet after barrier initialization when a kernel has these
    copies).

    JAX's `plgpu.async_store_smem` stores a register array; this op is its
    shared-memory form (SPEC section 8). On the GPU lane 0 runs
    `mbarrier.arrive.expect_tx.shared::cluster` on the peer's barrier
    (`mapa`) and `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes`.
    The emulator and interpret mode copy the bytes when the op runs, then
    arrive once on the peer's barrier.

    ```mlir
    mgpu.async_store_smem %mine, %peer, %bar[%c0]
        : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32>,
          !mgpu.barrier<count = 1>
    ```
  }];
  let arguments = (ins AnyMemRef:$src, AnyMemRef:$dst, MGPU_BarrierType:$barrier,
                       Index:$index);
  let assemblyFormat = [{
    $src `,` $dst `,` $barrier `[` $index `]` attr-dict `:` type($src) `,`
    type($dst) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

#endif // MGPU_DIALECT_MGPU_MGPUCLUSTEROPS_TD
