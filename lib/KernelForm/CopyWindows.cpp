//===- CopyWindows.cpp - The global side of kernel-level copies -----------===//
//
// Window resolution through subviews and TMA box planning (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/CopyWindows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::mgpu;

GlobalWindow mlir::mgpu::resolveGlobalWindow(OpBuilder &b, Location loc,
                                             Value array,
                                             ArrayRef<OpFoldResult> offsets,
                                             bool throughRankReducing) {
  GlobalWindow window;
  auto rank = cast<MemRefType>(array.getType()).getRank();
  for (int64_t d = 0; d < rank; ++d) {
    window.offsets.push_back(
        offsets.empty() ? Value(arith::ConstantIndexOp::create(b, loc, 0))
                        : getValueOrCreateConstantIndexOp(b, loc, offsets[d]));
    window.windowDims.push_back(d);
  }
  window.base = array;
  while (auto subview = window.base.getDefiningOp<memref::SubViewOp>()) {
    // Only unit-stride views fold into offsets.
    if ((!throughRankReducing &&
         subview.getSourceType().getRank() != subview.getType().getRank()) ||
        !llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      break;
    // The view's dimension i is the source's i-th kept one.
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<int64_t> kept;
    for (int64_t d = 0, e = subview.getSourceType().getRank(); d < e; ++d)
      if (!dropped.test(d))
        kept.push_back(d);
    SmallVector<Value> sourceOffsets;
    for (auto [d, extra] : llvm::enumerate(subview.getMixedOffsets()))
      sourceOffsets.push_back(getValueOrCreateConstantIndexOp(b, loc, extra));
    for (auto [i, offset] : llvm::enumerate(window.offsets))
      sourceOffsets[kept[i]] =
          arith::AddIOp::create(b, loc, sourceOffsets[kept[i]], offset);
    for (int64_t &d : window.windowDims)
      d = kept[d];
    window.offsets = std::move(sourceOffsets);
    window.base = subview.getSource();
  }
  return window;
}

SmallVector<int64_t> GlobalWindow::baseShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> result(offsets.size(), 1);
  for (auto [d, size] : llvm::zip_equal(windowDims, shape))
    result[d] = size;
  return result;
}

SmallVector<Value> GlobalWindow::baseIndices(OpBuilder &b, Location loc,
                                             ValueRange local) const {
  SmallVector<Value> result(offsets);
  for (auto [d, index] : llvm::zip_equal(windowDims, local))
    result[d] = arith::AddIOp::create(b, loc, result[d], index);
  return result;
}

/// The largest divisor of `size` that is at most `limit` and a multiple of
/// `multiple`, if any.
static std::optional<int64_t> largestDivisor(int64_t size, int64_t limit,
                                             int64_t multiple) {
  for (int64_t candidate = std::min(size, limit); candidate >= 1; --candidate)
    if (size % candidate == 0 && candidate % multiple == 0)
      return candidate;
  return std::nullopt;
}

std::optional<TmaPlan> mlir::mgpu::planTma(MemRefType array,
                                           ArrayRef<int64_t> window) {
  constexpr int64_t kMaxBox = 256, kMaxRank = 5, kChunk = 16;
  Type element = array.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (!llvm::is_contained({1, 2, 4, 8}, bytes) || array.getRank() < 1 ||
      array.getRank() > kMaxRank ||
      static_cast<int64_t>(window.size()) != array.getRank() ||
      !array.getLayout().isIdentity())
    return std::nullopt;
  // Every row of the array starts 16-byte aligned: a static innermost size
  // of whole chunks (outer sizes may be dynamic).
  int64_t rank = array.getRank();
  if (rank > 1 && (array.isDynamicDim(rank - 1) ||
                   (array.getDimSize(rank - 1) * bytes) % kChunk))
    return std::nullopt;
  for (int64_t d = 1; d + 1 < rank; ++d)
    if (array.isDynamicDim(d))
      return std::nullopt;
  if ((window.back() * bytes) % kChunk)
    return std::nullopt;

  TmaPlan plan;
  plan.box.assign(window.begin(), window.end());
  // The innermost dimension that does not fit a box splits; outer ones are
  // then copied one index at a time, inner ones whole.
  plan.splitDim = -1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (window[d] <= kMaxBox)
      continue;
    int64_t multiple = d == rank - 1 ? kChunk / bytes : 1;
    std::optional<int64_t> box = largestDivisor(window[d], kMaxBox, multiple);
    if (!box)
      return std::nullopt;
    plan.box[d] = *box;
    plan.splitDim = d;
    break;
  }
  if (plan.splitDim < 0) {
    plan.splitDim = 0;
    plan.issues = 1;
    return plan;
  }
  plan.issues = window[plan.splitDim] / plan.box[plan.splitDim];
  for (int64_t d = 0; d < plan.splitDim; ++d) {
    plan.box[d] = 1;
    plan.issues *= window[d];
  }
  return plan;
}
