//===- WarpgroupDistribution.h - Warpgroup-level ops to lanes ---*- C++ -*-===//
//
// The body of a Pallas thread is written at array level: a vector value is a
// whole block, and vector/linalg ops on it are collective over the 128 lanes
// of a warpgroup. This utility turns such a body into per-lane code, so that
// other MLIR compilers can reuse it under their own kernel skeletons.
//
// Layout: a vector of N elements (row-major) is cut into chunks of V
// consecutive elements, V the largest of 4, 2, 1 that divides its innermost
// dimension; chunk c lives on lane c mod 128, in register slot c / 128. Each
// lane therefore holds a vector<S*V> with S = ceil(N / (128 V)), so a block
// in memory is read and written with V-wide (128-bit for f32) coalesced
// accesses. Elementwise ops apply to the per-lane vectors unchanged; ops that
// move data between lanes (transpose, broadcast, extract, contract,
// reductions) exchange it through the warpgroup's shared-memory scratch, with
// warp shuffles for reductions. Scalars are uniform; a scalar side effect
// happens once per warpgroup (lane 0), and named barriers (bar.sync id, 128)
// order memory accesses of different lanes.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_GPU_WARPGROUPDISTRIBUTION_H
#define MGPU_GPU_WARPGROUPDISTRIBUTION_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Target/TargetInfo.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mgpu {

/// Shared memory through which the lanes of one warpgroup exchange data. The
/// area starts at byte `offset` of the i8 workgroup memref `base`; it is
/// reused by each collective op in turn (ops are separated by barriers), so
/// its size is the largest need of any op.
class WarpgroupScratch {
public:
  WarpgroupScratch(Value base, Value offset) : base(base), offset(offset) {}

  /// Starts a new collective op: its buffers start at the area's beginning.
  void reset() { used = 0; }
  /// A buffer of `type` (static shape, identity layout, workgroup space).
  Value allocate(OpBuilder &b, Location loc, Type elementType, int64_t count);
  /// Bytes the area must have.
  int64_t getRequiredBytes() const { return required; }

private:
  Value base, offset;
  int64_t used = 0, required = 0;
};

/// What the per-lane code of one Pallas thread needs.
struct WarpgroupContext {
  Value lane; // index in [0, 128)
  WarpgroupScratch *scratch;
  /// mgpu.mma on mma.sync (the GPU), else lane by lane (the emulator).
  bool mmaSync = true;
};

/// Emits at `b`'s insertion point the per-lane code of the ops of `body`
/// (without its terminator), each vector value in the layout recorded for
/// it (`mgpu.out_layouts`, --mgpu-assign-layouts). `mapping` gives the
/// values of the block arguments and of any op result already materialized
/// (ops whose results are all mapped are skipped). Reports a diagnostic
/// naming the op and fails when an op cannot be distributed.
LogicalResult distributeWarpgroupBody(OpBuilder &b, Block &body,
                                      IRMapping &mapping,
                                      const WarpgroupContext &context);

/// A power-of-two factor (at most 16) that `value` is known to be a multiple
/// of, from constants, products and sums.
int64_t getKnownMultiple(Value value);

/// Byte alignment (up to 16) that an access of `memref` at `indices` is known
/// to have, given that the memref's base address is 16-byte aligned.
int64_t getKnownAlignment(Value memref, ValueRange indices);

} // namespace mlir::mgpu

#endif // MGPU_GPU_WARPGROUPDISTRIBUTION_H
