//===- IfThen.h - Code that runs only where a condition holds ---*- C++ -*-===//
//
// Kernel code does much of its work on one lane, one thread or one step:
// lane 0 issues a copy, the leader thread fetches, a partial window is
// zero-filled first. Each is an scf.if with no else and no results around
// ops in its then-block. One builder keeps that shape in one place and
// always restores the insertion point: a builder left in the then-block
// would silently put the ops that follow under the condition.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_IFTHEN_H
#define MGPU_KERNELFORM_IFTHEN_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::mgpu {

/// Builds `scf.if cond` and runs `body` with `b` at the start of its
/// then-block; `b` is back where it was when this returns.
inline void buildIfThen(OpBuilder &b, Location loc, Value cond,
                        function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_IFTHEN_H
