//===- CopyWindows.h - The global side of kernel-level copies ---*- C++ -*-===//
//
// The GPU backends see a copy's global side as a window of an array: the
// array a chain of unit-stride memref.subviews starts from (a kernel operand,
// defined outside the launch, which is what a TMA tensor map describes) and
// the window's element offsets in it. This header finds that form and plans
// how TMA moves a window: which box each cp.async.bulk.tensor copies.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_COPYWINDOWS_H
#define MGPU_KERNELFORM_COPYWINDOWS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::mgpu {

/// A window of `base` at element `offsets` (index values).
struct GlobalWindow {
  Value base;
  SmallVector<Value> offsets;
};

/// The window of `array` at `offsets` (empty: its origin), with the unit
/// stride subviews `array` comes from folded into the offsets.
GlobalWindow resolveGlobalWindow(OpBuilder &b, Location loc, Value array,
                                 ArrayRef<OpFoldResult> offsets);

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
