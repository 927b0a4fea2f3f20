//===- MGPULayouts.h - Lane layouts of vector values ------------*- C++ -*-===//
//
// The rules and accessors of `#mgpu.layout`: which vectors a layout can hold,
// which values are splats, and where a kernel body records the layout of
// each vector value (the discardable attribute `mgpu.out_layouts`, written by
// --mgpu-assign-layouts and read by the warpgroup distribution).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPULAYOUTS_H
#define MGPU_DIALECT_MGPU_MGPULAYOUTS_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include <optional>

namespace mlir::mgpu {

/// The name of the discardable attribute listing the layouts of an op's
/// vector results (for scf.for: of its iteration arguments and results).
constexpr StringLiteral kOutLayoutsAttrName = "mgpu.out_layouts";

/// The name of the discardable attribute with which
/// --mgpu-propagate-transforms marks a vector.transfer_read or
/// transfer_write of a whole 2-d view of a shared buffer that holds the
/// tiled, swizzled layout of these transforms: the lanes access each
/// element where the layout puts it.
constexpr StringLiteral kAccessTransformsAttrName = "mgpu.transforms";

/// The most bytes a value in the wgmma layout may have: it is converted
/// through the warpgroup scratch, which must leave room for the kernel's own
/// buffers.
constexpr int64_t kMaxWgmmaLayoutBytes = 64 * 1024;

/// Whether values in `kind` are held in registers laid out for the tensor
/// cores (every kind but `strided` and `splat`).
inline bool isFragmentLayout(LayoutKind kind) {
  return kind != LayoutKind::strided && kind != LayoutKind::splat;
}
/// Every fragment layout.
constexpr LayoutKind kFragmentLayouts[] = {
    LayoutKind::wgmma,           LayoutKind::wgmma_row,
    LayoutKind::wgmma_8bit,      LayoutKind::wgmma_upcast_2x,
    LayoutKind::wgmma_upcast_4x, LayoutKind::wgmma_transposed,
    LayoutKind::wgmma_col};
/// How a 2-D fragment layout (every fragment layout but `wgmma_row` and
/// `wgmma_col`) cuts a
/// 64-row tile: groups of `columns` columns, `vector` consecutive elements
/// per lane and row half (consecutive rows for `wgmma_transposed`).
struct FragmentTiling {
  int64_t columns;
  int64_t vector;
};
FragmentTiling getFragmentTiling(LayoutKind kind);
/// Whether `type` can be held in `kind`; if not and `emitError` is given,
/// says why.
LogicalResult
verifyLayoutFits(LayoutKind kind, VectorType type,
                 function_ref<InFlightDiagnostic()> emitError = nullptr);

/// Whether every element of `value` is the same scalar by construction: a
/// splat constant, a broadcast of a scalar, or an elementwise op (or layout
/// cast) of such values.
bool isSplatValue(Value value);

/// Whether `op` takes whole 64-row tiles and 8-column groups of a 2-D
/// vector with unit strides: in the WGMMA layout, a choice of the source's
/// registers (JAX's epilogues slice their accumulators so).
bool isWgmmaFragmentSlice(vector::ExtractStridedSliceOp op);

/// Whether `op` is a vector.transfer_read or transfer_write of the whole of
/// a 2-d view with contiguous rows, at [0, 0], in bounds and unmasked: an
/// access that can go through a shared buffer's tiled, swizzled layout
/// (each lane's pieces stay in the swizzle's 16-byte chunks).
bool isWholeViewTransfer(Operation *op);

/// The vector values whose layouts `op`'s `mgpu.out_layouts` lists, in order.
SmallVector<Value> getLayoutValues(Operation *op);

/// The layout recorded for `value`, if any.
std::optional<LayoutKind> getAssignedLayout(Value value);

/// Records `kinds` (one per value of getLayoutValues(op)) on `op`.
void setAssignedLayouts(Operation *op, ArrayRef<LayoutKind> kinds);

/// The rows `x` (a 1-D vector) if `op` broadcasts them over the columns:
/// `vector.broadcast x : vector<M> to vector<N x M>` transposed by [1, 0],
/// or `vector.broadcast` of an M x 1 vector; null otherwise.
Value getBroadcastRows(Operation *op);

/// The columns `x` (a vector of N or 1 x N) if `op` broadcasts them over the
/// rows: `vector.broadcast x : vector<N> to vector<M x N>` (JAX's
/// `broadcast_in_dim(x, (M, N), [1])`); null otherwise.
Value getBroadcastColumns(Operation *op);

/// Checks an `mgpu.out_layouts` attribute of `op`.
LogicalResult verifyOutLayouts(Operation *op, Attribute attr);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_MGPULAYOUTS_H
