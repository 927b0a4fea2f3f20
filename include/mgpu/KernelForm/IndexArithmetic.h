//===- IndexArithmetic.h - Index constants and delinearization --*- C++ -*-===//
//
// The index arithmetic that the kernel form and every lowering after it
// emit: index constants, row-major multi-indices of a linear index, and
// where a tiled operand's view starts in its swizzled buffer.
// Delinearization divides unsigned (arith.divui, arith.remui) rather than
// through affine.delinearize_index: these indices are never negative, and
// unsigned division needs neither the sign fix-ups of the affine expansion
// nor a pass to run it.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_INDEXARITHMETIC_H
#define MGPU_KERNELFORM_INDEXARITHMETIC_H

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::mgpu {

inline Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The row-major indices of `linear` in a shape of `sizes` (index values).
/// The first size bounds nothing: the outermost index is what is left.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ValueRange sizes);

/// The same with static sizes, each made a constant where it is needed.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape);

/// Unsigned index arithmetic in IR, for the formulas written once over any
/// integer arithmetic (mgpu/Target/SwizzleFormula.h).
struct IndexArith {
  using Value = ::mlir::Value;
  OpBuilder &b;
  Location loc;
  Value constant(int64_t v) const { return indexConstant(b, loc, v); }
  Value add(Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return arith::MulIOp::create(b, loc, x, y);
  }
  Value div(Value x, Value y) const {
    return arith::DivUIOp::create(b, loc, x, y);
  }
  Value rem(Value x, Value y) const {
    return arith::RemUIOp::create(b, loc, x, y);
  }
  Value bitXor(Value x, Value y) const {
    return arith::XOrIOp::create(b, loc, x, y);
  }
};

/// Where the view `view` of a tiled operand starts in its buffer (row and
/// column, index values): constants, or at a run-time offset, from the
/// view's strided metadata.
std::pair<Value, Value> buildTiledOperandStart(OpBuilder &b, Location loc,
                                               Value view,
                                               const TiledOperand &tiled);

/// The byte offset in its buffer of the first element of the view `view` of
/// a tiled operand (an index value; the swizzle changes nothing at a tile's
/// start).
Value buildTiledOperandOrigin(OpBuilder &b, Location loc, Value view,
                              const TiledOperand &tiled);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_INDEXARITHMETIC_H
