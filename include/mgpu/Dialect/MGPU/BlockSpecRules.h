//===- BlockSpecRules.h - S19, S20 and S35 for one block spec --*- C++ -*-===//
//
// The rules between a block spec and its operand (BlockSpecRules.cpp),
// shared by the ops that take block specs (pallas_call, emit_pipeline).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_BLOCKSPECRULES_H
#define MGPU_DIALECT_MGPU_BLOCKSPECRULES_H

#include "mlir/IR/Operation.h"

namespace mlir::mgpu {

/// S19, S20 and S35 for operand `origin` (`ins[0]`, JAX's `args[0]`) of
/// type `operandType` and its block spec `spec`, in a grid of `gridRank`
/// axes; errors at `op`.
LogicalResult verifyBlockSpec(Operation *op, size_t gridRank, StringRef origin,
                              Type operandType, Attribute spec);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_BLOCKSPECRULES_H
