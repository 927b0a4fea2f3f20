//===- MGPUTraits.h - Op families of the mgpu dialect -----------*- C++ -*-===//
//
// The op traits ODS attaches to mgpu ops by family (MGPUOps.td): passes ask
// an op for its family instead of listing op classes, so that an op declared
// with the right traits is distributed, lowered and emulated without an edit
// to the passes. Beyond what they mark, a trait verifies what its whole
// family must satisfy (a Pallas-thread primitive is inside a kernel).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUTRAITS_H
#define MGPU_DIALECT_MGPU_MGPUTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::mgpu {

/// Fails, at `op`, unless `op` is in a kernel region (MGPURules.cpp).
LogicalResult verifyInsideKernel(Operation *op);

/// Issued once per Pallas thread: the warpgroup distribution keeps the op
/// whole, for each backend to lower. Only kernels hold one.
template <typename ConcreteType>
class PallasThreadPrimitive
    : public OpTrait::TraitBase<ConcreteType, PallasThreadPrimitive> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyInsideKernel(op);
  }
};

/// No effect on the values a kernel computes when its programs run one after
/// another on the host: interpret mode and the emulator drop the op.
template <typename ConcreteType>
class NoEffectOnHost : public OpTrait::TraitBase<ConcreteType, NoEffectOnHost> {
};

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_MGPUTRAITS_H
