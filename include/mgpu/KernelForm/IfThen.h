//===- IfThen.h - Code that runs only where a condition holds ---*- C++ -*-===//
//
// Kernel code is full of work that one lane, one thread or one step does:
// lane 0 issues a copy, the leader thread fetches, a partial window zero-fills
// first. They all build the same scf.if with no else and no results, and put
// their ops in its then-block; this is that builder, so that the insertion
// point is always restored after.
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
