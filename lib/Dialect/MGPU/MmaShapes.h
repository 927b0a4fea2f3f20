//===- MmaShapes.h - The operand shapes every MMA op checks -----*- C++ -*-===//
//
// What the verifiers of the tensor-core ops (TensorCoreOps.cpp: wgmma;
// BlackwellOps.cpp: tcgen05_mma) share: a contraction's a is M x K, its b
// K x N, its accumulator M x N, reported in one message. Internal to
// lib/Dialect/MGPU.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_DIALECT_MGPU_MMASHAPES_H
#define MGPU_LIB_DIALECT_MGPU_MMASHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::mgpu {

/// Checks that `a` is M x K and `b` K x N for an accumulator of M x N
/// (`m`, `n`) whose shape is `accShape` as the op states it; an error at
/// `op` otherwise.
LogicalResult verifyMmaShapes(Operation *op, ShapedType a, ShapedType b,
                              int64_t m, int64_t n, ArrayRef<int64_t> accShape);

} // namespace mlir::mgpu

#endif // MGPU_LIB_DIALECT_MGPU_MMASHAPES_H
