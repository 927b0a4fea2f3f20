//===- LayoutOps.cpp - #mgpu.layout, layout_cast, mgpu.out_layouts --------===//
//
// The rules of lane layouts (SPEC section 7, plgpu.Layout): which vectors
// the wgmma fragment layout can hold, which values may claim the splat
// layout, the verifier of mgpu.layout_cast, and the accessors and verifier
// of the `mgpu.out_layouts` attribute through which the layout-assignment
// pass tells the warpgroup distribution how each vector value is held.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult
mlir::mgpu::verifyLayoutFits(LayoutKind kind, VectorType type,
                             function_ref<InFlightDiagnostic()> emitError) {
  if (kind == LayoutKind::wgmma_row) {
    // One row value per register: 32-bit floats and integers (the row
    // sums and maxima of f32 or s32 fragments; xor shuffles move them),
    // and the row positions of an iota (vector.step's index).
    Type element = type.getElementType();
    bool fits =
        (element.isF32() || element.isInteger(32) || element.isIndex()) &&
        !type.isScalable() &&
        (type.getRank() == 1 ||
         (type.getRank() == 2 && type.getDimSize(1) == 1)) &&
        type.getDimSize(0) % 64 == 0 &&
        type.getNumElements() * 4 <= kMaxWgmmaLayoutBytes;
    if (!fits && emitError)
      emitError() << "the wgmma_row layout holds an f32, i32 or index vector "
                     "of M or M x 1 elements, M a multiple of 64; got "
                  << type;
    return success(fits);
  }
  if (kind == LayoutKind::wgmma_col) {
    // Two adjacent columns per lane and 8-column group, read and written
    // as one 4- or 8-byte access; or the column positions of an iota.
    Type element = type.getElementType();
    unsigned width =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    bool fits = (width == 16 || width == 32 || element.isIndex()) &&
                !type.isScalable() &&
                (type.getRank() == 1 ||
                 (type.getRank() == 2 && type.getDimSize(0) == 1)) &&
                type.getDimSize(type.getRank() - 1) % 8 == 0 &&
                type.getNumElements() * 4 <= kMaxWgmmaLayoutBytes;
    if (!fits && emitError)
      emitError() << "the wgmma_col layout holds a 16- or 32-bit or index "
                     "vector of N or 1 x N elements, N a multiple of 8; got "
                  << type;
    return success(fits);
  }
  if (kind == LayoutKind::strided || kind == LayoutKind::splat)
    return success();
  Type element = type.getElementType();
  if (kind != LayoutKind::wgmma) {
    FragmentTiling tiling = getFragmentTiling(kind);
    unsigned width =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    bool fits = type.getRank() == 2 && !type.isScalable() && width >= 8 &&
                width <= 32 && type.getDimSize(0) % 64 == 0 &&
                type.getDimSize(1) % tiling.columns == 0 &&
                type.getNumElements() * width / 8 <= kMaxWgmmaLayoutBytes;
    if (!fits && emitError)
      emitError() << "the " << stringifyLayoutKind(kind)
                  << " layout holds a 2-D vector of 8- to 32-bit elements "
                     "with a multiple of 64 rows and of "
                  << tiling.columns << " columns, at most "
                  << kMaxWgmmaLayoutBytes / 1024 << " KiB; got " << type;
    return success(fits);
  }
  // JAX's Layout.WGMMA holds any type of 8 to 32 bits (accumulators in
  // f32, f16 or s32, and whatever an epilogue makes of them), and the i1
  // masks that comparisons of them give (jnp.where's): two adjacent
  // elements of a row per lane and register pair.
  unsigned width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  bool fits =
      type.getRank() == 2 && (width == 1 || width >= 8) && width <= 32 &&
      !type.isScalable() && type.getDimSize(0) % 64 == 0 &&
      type.getDimSize(1) % 8 == 0 &&
      type.getNumElements() * std::max(width, 8u) / 8 <= kMaxWgmmaLayoutBytes;
  if (fits)
    return success();
  if (emitError)
    emitError()
        << "the wgmma layout holds a 2-D vector of 8- to 32-bit "
           "integers or floats, or of i1, with a multiple of 64 rows and of 8 "
           "columns, at most "
        << kMaxWgmmaLayoutBytes / 1024 << " KiB; got " << type;
  return failure();
}

FragmentTiling mlir::mgpu::getFragmentTiling(LayoutKind kind) {
  switch (kind) {
  case LayoutKind::wgmma_8bit:
  case LayoutKind::wgmma_upcast_2x:
    return {16, 4};
  case LayoutKind::wgmma_upcast_4x:
    return {32, 8};
  default:
    return {8, 2};
  }
}

static bool isSplatValue(Value value, int depth) {
  if (!isa<VectorType>(value.getType()) || depth > 8)
    return false;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  DenseElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant.isSplat();
  // Undefined everywhere (a warp-specialized pipeline's carry on its memory
  // thread): any layout holds it.
  if (isa<ub::PoisonOp>(def))
    return true;
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(def))
    return !isa<VectorType>(broadcast.getSourceType()) ||
           isSplatValue(broadcast.getSource(), depth + 1);
  if (auto cast = dyn_cast<LayoutCastOp>(def))
    return isSplatValue(cast.getSource(), depth + 1);
  if (!OpTrait::hasElementwiseMappableTraits(def) || def->getNumRegions())
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<VectorType>(operand.getType()) ||
           isSplatValue(operand, depth + 1);
  });
}

bool mlir::mgpu::isSplatValue(Value value) { return ::isSplatValue(value, 0); }

bool mlir::mgpu::isWgmmaFragmentSlice(vector::ExtractStridedSliceOp op) {
  if (op.getSourceVectorType().getRank() != 2 || op.getType().getRank() != 2 ||
      failed(verifyLayoutFits(LayoutKind::wgmma, op.getType())))
    return false;
  auto at = [](ArrayAttr values, size_t d) {
    return cast<IntegerAttr>(values[d]).getInt();
  };
  return at(op.getStrides(), 0) == 1 && at(op.getStrides(), 1) == 1 &&
         at(op.getOffsets(), 0) % 64 == 0 && at(op.getOffsets(), 1) % 8 == 0;
}

SmallVector<Value> mlir::mgpu::getLayoutValues(Operation *op) {
  SmallVector<Value> values;
  for (Value result : op->getResults())
    if (isa<VectorType>(result.getType()))
      values.push_back(result);
  return values;
}

static std::optional<LayoutKind> getLayoutAt(Operation *op, Value value) {
  auto layouts = op->getAttrOfType<ArrayAttr>(kOutLayoutsAttrName);
  if (!layouts)
    return std::nullopt;
  for (auto [candidate, layout] : llvm::zip(getLayoutValues(op), layouts))
    if (candidate == value)
      if (auto kind = dyn_cast<LayoutAttr>(layout))
        return kind.getKind();
  return std::nullopt;
}

std::optional<LayoutKind> mlir::mgpu::getAssignedLayout(Value value) {
  if (auto result = dyn_cast<OpResult>(value))
    return getLayoutAt(result.getOwner(), value);
  // An iteration argument has the layout of the loop's result.
  auto arg = cast<BlockArgument>(value);
  if (auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp()))
    if (OpResult tied = loop.getTiedLoopResult(arg))
      return getLayoutAt(loop, tied);
  return std::nullopt;
}

void mlir::mgpu::setAssignedLayouts(Operation *op, ArrayRef<LayoutKind> kinds) {
  MLIRContext *context = op->getContext();
  op->setAttr(
      kOutLayoutsAttrName,
      ArrayAttr::get(context, llvm::map_to_vector(kinds, [&](LayoutKind kind) {
                       return Attribute(LayoutAttr::get(context, kind));
                     })));
}

Value mlir::mgpu::getBroadcastRows(Operation *op) {
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (source && source.getRank() == 2 && source.getDimSize(1) == 1 &&
        broadcast.getResultVectorType().getRank() == 2)
      return broadcast.getSource();
    return Value();
  }
  auto transpose = dyn_cast<vector::TransposeOp>(op);
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return Value();
  auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
  if (!broadcast)
    return Value();
  auto source = dyn_cast<VectorType>(broadcast.getSourceType());
  if (!source || source.getRank() != 1)
    return Value();
  return broadcast.getSource();
}

Value mlir::mgpu::getBroadcastColumns(Operation *op) {
  auto broadcast = dyn_cast<vector::BroadcastOp>(op);
  if (!broadcast)
    return Value();
  auto source = dyn_cast<VectorType>(broadcast.getSourceType());
  VectorType result = broadcast.getResultVectorType();
  if (!source || result.getRank() != 2 ||
      source.getDimSize(source.getRank() - 1) != result.getDimSize(1) ||
      !(source.getRank() == 1 ||
        (source.getRank() == 2 && source.getDimSize(0) == 1)))
    return Value();
  return broadcast.getSource();
}

LogicalResult mlir::mgpu::verifyOutLayouts(Operation *op, Attribute attr) {
  SmallVector<Value> values = getLayoutValues(op);
  auto layouts = dyn_cast<ArrayAttr>(attr);
  if (!layouts || layouts.size() != values.size() ||
      !llvm::all_of(layouts, [](Attribute a) { return isa<LayoutAttr>(a); }))
    return op->emitError() << "'" << kOutLayoutsAttrName
                           << "' must list one #mgpu.layout per vector result ("
                           << values.size() << ")";
  for (auto [value, layout] : llvm::zip(values, layouts)) {
    LayoutKind kind = cast<LayoutAttr>(layout).getKind();
    if (failed(verifyLayoutFits(kind, cast<VectorType>(value.getType()),
                                [&] { return op->emitError(); })))
      return failure();
    // Iteration arguments are not splats by construction.
    if (kind == LayoutKind::splat &&
        (isa<scf::ForOp>(op) || !isSplatValue(value)))
      return op->emitError()
             << "only a splat value (a splat constant or a broadcast of a "
                "scalar) can have the splat layout";
  }
  return success();
}

LogicalResult LayoutCastOp::verify() {
  // Only the layout changes, never the value or its type.
  if (failed(verifyResultTypeOf(*this, getSource(), "source")))
    return failure();
  if (failed(verifyInsideKernel(*this)))
    return failure();
  LayoutKind kind = getLayout().getKind();
  if (failed(verifyLayoutFits(kind, getSource().getType(),
                              [&] { return emitOpError(); })))
    return failure();
  if (kind == LayoutKind::splat && !isSplatValue(getSource()))
    return emitOpError() << "only a splat value (a splat constant or a "
                            "broadcast of a scalar) can be cast to the splat "
                            "layout";
  return success();
}

bool mlir::mgpu::isWholeViewTransfer(Operation *op) {
  if (!isa<vector::TransferReadOp, vector::TransferWriteOp>(op))
    return false;
  auto transfer = cast<VectorTransferOpInterface>(op);
  auto view = dyn_cast<MemRefType>(transfer.getBase().getType());
  int64_t offset;
  SmallVector<int64_t> strides;
  return view && !transfer.getMask() && view.getRank() == 2 &&
         transfer.getVectorType().getShape() == view.getShape() &&
         transfer.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(transfer.getInBoundsValues(), [](bool b) { return b; }) &&
         llvm::all_of(transfer.getIndices(),
                      [](Value i) { return matchPattern(i, m_Zero()); }) &&
         succeeded(view.getStridesAndOffset(strides, offset)) &&
         strides[1] == 1 && strides[0] == view.getDimSize(1);
}
