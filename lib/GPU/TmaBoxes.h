//===- TmaBoxes.h - Tensor maps and the boxes TMA copies move ---*- C++ -*-===//
//
// What the TMA copy patterns share: the tensor maps made in host code before
// a launch (one per array, box and swizzle), and the boxes a copy issues,
// for row-major buffers (a TmaPlan's boxes) and for buffers tiled with a
// swizzle (one box per run of whole tiles of one tile column), so
// that copies in and copies out of a tiled buffer walk its tiles alike.
// Internal to lib/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_TMABOXES_H
#define MGPU_LIB_GPU_TMABOXES_H

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/CopyWindows.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

#include <tuple>

namespace mlir::mgpu::nvvm_lowering {

/// Tensor maps made in host code before the launch, one per array and box.
class TensorMaps {
public:
  /// An `!llvm.ptr` (in the launch body) to the tensor map of `base` with
  /// boxes of `box`; `base` must be defined outside the launch. With
  /// `unsignedElements`, the map's integer elements are unsigned
  /// (CU_TENSOR_MAP_DATA_TYPE_UINT32/UINT64, where a signless integer gets
  /// INT32/INT64): TMA reductions take their signedness from the map.
  FailureOr<Value> get(OpBuilder &b, Location loc, gpu::LaunchOp launch,
                       Value base, ArrayRef<int64_t> box,
                       nvgpu::TensorMapSwizzleKind swizzle =
                           nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE,
                       bool unsignedElements = false);

private:
  using Key = std::tuple<Operation *, const void *, SmallVector<int64_t>>;
  SmallVector<std::pair<Key, Value>> maps;
};

/// Issues the TMA copies of `plan` for a window at `offsets` of the tensor
/// map `map`: `issue(coordinates innermost first, shared element offset)`
/// per box.
void forEachBox(OpBuilder &b, Location loc, const TmaPlan &plan,
                ArrayRef<int64_t> window, ArrayRef<Value> offsets,
                function_ref<void(ValueRange, Value)> issue);

/// TMA's swizzle mode for a tiling's swizzle.
nvgpu::TensorMapSwizzleKind swizzleKind(const SwizzledTiling &tiling);

/// The boxes that move `rows` rows of a 2-d buffer of `width` columns tiled
/// by `tiling` (swizzled tile rows): a box is `boxRows` rows of
/// one tile column, whole tiles stacked (up to 256 rows where the buffer is
/// one tile wide, else one tile).
struct SwizzledBoxes {
  SwizzledTiling tiling;
  int64_t boxRows = 0, tileRows = 0, tileCols = 0;
  SmallVector<int64_t> box() const { return {boxRows, tiling.cols}; }
};
SwizzledBoxes planSwizzledBoxes(const SwizzledTiling &tiling, int64_t rows,
                                int64_t width);

/// Calls `issue(coordinates innermost first, element)` for each box of
/// `boxes`, the first at tile row `firstTileRow` of the buffer; `window`
/// is where the buffer's rows and columns lie in the array, and `element`
/// the box's first element in the buffer (tiles in row-major order).
void forEachSwizzledBox(OpBuilder &b, Location loc, const SwizzledBoxes &boxes,
                        Value firstTileRow, const GlobalWindow &window,
                        function_ref<void(ValueRange, Value)> issue);

} // namespace mlir::mgpu::nvvm_lowering

#endif // MGPU_LIB_GPU_TMABOXES_H
