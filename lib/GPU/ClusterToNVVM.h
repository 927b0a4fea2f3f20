//===- ClusterToNVVM.h - Cluster ops on the GPU -----------------*- C++ -*-===//
//
// What the TMA copy patterns need for the CTAs of a cluster
// (ClusterToNVVM.cpp): arrivals on the barriers of a CTA's group, the place
// and mask of a multicast copy's group, and a pair's partitioned copies.
// Internal to lib/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_CLUSTERTONVVM_H
#define MGPU_LIB_GPU_CLUSTERTONVVM_H

#include "mgpu/Target/TargetInfo.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// One arrival (a release at cluster scope) on the mbarrier at `local`
/// (`!llvm.ptr<3>`) in every CTA of this CTA's cluster that differs from it
/// only along the cluster dimensions `dims`, itself included: `mapa` gives
/// its shared::cluster address in each.
void arriveOnClusterPeers(OpBuilder &b, Location loc, Value local,
                          ArrayRef<int64_t> dims);

/// This CTA's place (index) in its group along the cluster dimensions
/// `dims` of a cluster of `sizes` CTAs (the first dimension innermost), and
/// the group's cluster ranks as the bits of an i16 multicast mask.
struct MulticastGroup {
  Value place, mask;
};
MulticastGroup getMulticastGroup(OpBuilder &b, Location loc,
                                 ArrayRef<int64_t> dims,
                                 const int64_t (&sizes)[3]);

/// Where a CTA of a pair (Blackwell's 2-CTA MMAs) stands for a partitioned
/// copy: whether it is the pair's first CTA (cluster x index 0), and the
/// first CTA's `barrier` (a shared::cluster address in a shared pointer, as
/// PTX's mbar operand takes it), on which both CTAs' boxes complete.
struct PairShare {
  Value leader;
  Value leaderBarrier;
};
PairShare getPairShare(OpBuilder &b, Location loc, Value barrier);

/// The pair's first CTA expects both CTAs' bytes of a partitioned copy
/// into `shared` (this CTA's part) on `barrier`.
void arriveExpectingPair(OpBuilder &b, Location loc, const PairShare &pair,
                         Value barrier, MemRefType shared);

} // namespace mlir::mgpu

#endif // MGPU_LIB_GPU_CLUSTERTONVVM_H
