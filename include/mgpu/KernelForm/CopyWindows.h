//===- CopyWindows.h - The global side of kernel-level copies ---*- C++ -*-===//
//
// The GPU backends see a copy's global side as a window of an array: the
// array a chain of unit-stride memref.subviews starts from (a kernel operand,
// defined outside the launch, which is what a TMA tensor map describes) and
// the window's element offsets in it. A rank-reducing view (JAX's
// `q_ref.at[batch, pl.ds(..), head]`) makes a window of fewer dimensions
// than its array: the dropped ones are windows of one element. This header
// finds that form and plans how TMA moves a window: which box each
// cp.async.bulk.tensor copies.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_COPYWINDOWS_H
#define MGPU_KERNELFORM_COPYWINDOWS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::mgpu {

/// A window of `base` at element `offsets` (index values, one per dimension
/// of `base`); the window's own dimensions are `base`'s dimensions
/// `windowDims`, in order, and the others have one element.
struct GlobalWindow {
  Value base;
  SmallVector<Value> offsets;
  SmallVector<int64_t> windowDims;

  /// `shape` (one size per dimension of the window) with the dimensions
  /// the window drops put back as 1: a shape of `base`'s rank.
  SmallVector<int64_t> baseShape(ArrayRef<int64_t> shape) const;
  /// The indices in `base` of the window's element at `local`.
  SmallVector<Value> baseIndices(OpBuilder &b, Location loc,
                                 ValueRange local) const;
};

/// The window of `array` at `offsets` (empty: its origin), with the unit
/// stride subviews `array` comes from folded into the offsets; rank-reducing
/// ones too with `throughRankReducing`.
GlobalWindow resolveGlobalWindow(OpBuilder &b, Location loc, Value array,
                                 ArrayRef<OpFoldResult> offsets,
                                 bool throughRankReducing = false);

/// How TMA copies a window of `shape` (row-major in shared memory): boxes of
/// `box` (at most 256 per dimension), contiguous in the window, so that dims
/// before `splitDim` have box 1 and dims after it are whole. `issues` copies
/// in all.
struct TmaPlan {
  SmallVector<int64_t> box;
  int64_t splitDim = 0;
  int64_t issues = 1;
};

/// A plan when TMA can move windows of `window` out of arrays of type
/// `array`: elements of 1 to 8 bytes, an identity layout whose rows are
/// whole 16-byte chunks, window rows of whole 16-byte chunks.
std::optional<TmaPlan> planTma(MemRefType array, ArrayRef<int64_t> window);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_COPYWINDOWS_H
