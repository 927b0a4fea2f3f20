//===- MoveBody.h - A kernel body moved into its new op ---------*- C++ -*-===//
//
// The kernel-form passes rebuild an op around its body (a pallas_call in
// its launch, a pipeline body in its step loop) by moving the body's ops,
// not cloning them: the body's values stay the same values and nothing is
// copied. The source block stays, empty, for its op to be erased with.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_MOVEBODY_H
#define MGPU_KERNELFORM_MOVEBODY_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Moves the ops of `from` (but its terminator) to `b`'s insertion point,
/// its arguments replaced by `args`.
inline void moveBody(OpBuilder &b, Block &from, ValueRange args) {
  for (auto [arg, value] : llvm::zip(from.getArguments(), args))
    arg.replaceAllUsesWith(value);
  from.getTerminator()->erase();
  b.getInsertionBlock()->getOperations().splice(b.getInsertionPoint(),
                                                from.getOperations());
}

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_MOVEBODY_H
