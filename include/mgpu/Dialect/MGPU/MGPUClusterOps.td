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
    [MemoryEffects<[MemRead, MemWrite]>]> {
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
  let hasVerifier = 1;
}

#endif // MGPU_DIALECT_MGPU_MGPUCLUSTEROPS_TD
