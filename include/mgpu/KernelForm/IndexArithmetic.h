//===- IndexArithmetic.h - Index constants and delinearization --*- C++ -*-===//
//
// The index arithmetic that the kernel form and every lowering after it
// emit: index constants, and row-major multi-indices of a linear index.
// Delinearization divides unsigned (arith.divui, arith.remui) rather than
// through affine.delinearize_index: these indices are never negative, and
// unsigned division needs neither the sign fix-ups of the affine expansion
// nor a pass to run it.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_INDEXARITHMETIC_H
#define MGPU_KERNELFORM_INDEXARITHMETIC_H

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

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_INDEXARITHMETIC_H
