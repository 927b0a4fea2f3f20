//===- IndexArithmetic.cpp - Index constants and delinearization ----------===//
//
// Row-major delinearization (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mgpu/Target/SwizzleFormula.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mgpu;

static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      size_t rank,
                                      function_ref<Value(size_t)> size) {
  SmallVector<Value> result(rank);
  for (size_t d = rank; d-- > 1;) {
    Value s = size(d);
    result[d] = arith::RemUIOp::create(b, loc, linear, s);
    linear = arith::DivUIOp::create(b, loc, linear, s);
  }
  if (rank)
    result[0] = linear;
  return result;
}

SmallVector<Value> mlir::mgpu::delinearize(OpBuilder &b, Location loc,
                                           Value linear, ValueRange sizes) {
  return ::delinearize(b, loc, linear, sizes.size(),
                       [&](size_t d) { return sizes[d]; });
}

SmallVector<Value> mlir::mgpu::delinearize(OpBuilder &b, Location loc,
                                           Value linear,
                                           ArrayRef<int64_t> shape) {
  return ::delinearize(b, loc, linear, shape.size(), [&](size_t d) {
    return indexConstant(b, loc, shape[d]);
  });
}

std::pair<Value, Value>
mlir::mgpu::buildTiledOperandStart(OpBuilder &b, Location loc, Value view,
                                   const TiledOperand &tiled) {
  if (!tiled.dynamicOffset)
    return {arith::ConstantIndexOp::create(b, loc, tiled.row),
            arith::ConstantIndexOp::create(b, loc, tiled.col)};
  Value offset =
      memref::ExtractStridedMetadataOp::create(b, loc, view).getOffset();
  Value width = arith::ConstantIndexOp::create(b, loc, tiled.width);
  return {arith::DivUIOp::create(b, loc, offset, width),
          arith::RemUIOp::create(b, loc, offset, width)};
}

Value mlir::mgpu::buildTiledOperandOrigin(OpBuilder &b, Location loc,
                                          Value view,
                                          const TiledOperand &tiled) {
  const SwizzledTiling &tiling = tiled.tiling;
  if (!tiled.dynamicOffset)
    return arith::ConstantIndexOp::create(
        b, loc,
        getSwizzledByteOffset(tiling, tiled.width, tiled.row, tiled.col));
  auto [row, col] = buildTiledOperandStart(b, loc, view, tiled);
  return ::mgpu::swizzledByteOffset(IndexArith{b, loc}, tiling.rows,
                                    tiling.cols, tiling.elementBytes,
                                    tiled.width, row, col);
}
