//===- CapturedCall.h - Functions the runtime calls back --------*- C++ -*-===//
//
// The GPU emulator hands each kernel to the host runtime as a function the
// runtime calls once per CUDA thread (lib/Runtime/EmuScheduler.cpp). Such a
// function cannot take the kernel's captured values (memrefs, scalars) as
// arguments, because the runtime is C and knows no kernel's types; instead
// the caller packs them into a stack struct in their LLVM form and the
// function unpacks them, unrealized casts joining the two forms until the
// LLVM conversion makes them one.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_CAPTUREDCALL_H
#define MGPU_HOST_CAPTUREDCALL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mgpu {

/// A function that receives `captures` through a pointer.
struct CapturedFunction {
  /// `func.func private @name(%captures: !llvm.ptr, <extra>)`; its entry
  /// block maps every captured value (IRMapping) and ends without a
  /// terminator.
  func::FuncOp func;
  /// In the caller, at the builder's insertion point: the `!llvm.ptr` to
  /// the packed captures, valid until the stack is restored to `stack`.
  Value pointer;
  Value stack;
};

/// Creates the function (its name made unique in `module`) and packs the
/// captures at `b`'s insertion point. A constant capture is cloned into the
/// function instead, so that it folds there. Fails, with a diagnostic at
/// `anchor`, on a capture whose type has no LLVM form.
FailureOr<CapturedFunction>
createCapturedFunction(OpBuilder &b, Operation *anchor, ModuleOp module,
                       StringRef name, ArrayRef<Value> captures,
                       TypeRange extra, IRMapping &mapping);

} // namespace mlir::mgpu

#endif // MGPU_HOST_CAPTUREDCALL_H
