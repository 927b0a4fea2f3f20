//===- PairOnHost.h - Blackwell's 2-CTA MMAs on the host --------*- C++ -*-===//
//
// What interpret mode and the emulator share to run a pair of CTAs'
// collective ops (partitioned copies, collective tcgen05 MMAs and their
// commits): the first CTA of the pair runs each of them over both CTAs'
// memory, the peer's being the same views a number of bytes further in the
// host buffer (ClusterMemory.h), and the other CTA does nothing. (The
// emulator's partitioned copies are each CTA's own, as on the GPU:
// EmulatePrimitives.h.) Internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_PAIRONHOST_H
#define MGPU_LIB_HOST_PAIRONHOST_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Element (`row`, `col`) of an operand of a pair's MMA, in this CTA's
/// buffer or (`peer`) in the peer's.
using PairOperandLoad =
    function_ref<Value(OpBuilder &, Location, bool peer, Value row, Value col)>;

/// The loops of a pair's MMA, `op`: for each CTA p of the pair (this one,
/// then the peer), acc_p (+)= a_p x [b_this | b_peer], summed in f32 in k
/// order as every backend does. `accSelf` and `accPeer` are the host
/// buffers of the accumulators (rows x 2n f32).
void buildPairMma(OpBuilder &b, Tcgen05MmaOp op, Value accSelf, Value accPeer,
                  PairOperandLoad loadA, PairOperandLoad loadB);

/// Interpret mode: the pair op `op` (a partitioned copy, a collective MMA
/// or commit) of a body copy, not yet in host types, becomes what the first
/// CTA of the pair (`leader`) runs, over this CTA's and the peer's arena
/// slices (`peerBytes` apart). Fails with a diagnostic at the op where its
/// buffers are not views of the arena.
/// With `smemLayouts`, shared buffers with transforms are in their tiled,
/// swizzled layout (HostSmemLayouts.cpp).
LogicalResult lowerPairOpOnCPU(Operation *op, Value leader, Value peerBytes,
                               bool smemLayouts);

/// The emulator's collective commit (already on lane 0 of the first CTA):
/// one arrival on the barrier of each CTA of the pair.
LogicalResult emulatePairCommit(OpBuilder &b, Tcgen05CommitArriveOp op,
                                Value peerBytes);

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_PAIRONHOST_H
