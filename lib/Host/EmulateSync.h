//===- EmulateSync.h - The emulator's barrier helper ------------*- C++ -*-===//
//
// The functions the GPU emulator adds to a module for barriers among the
// threads of a CTA (EmulateSync.cpp); internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_EMULATESYNC_H
#define MGPU_LIB_HOST_EMULATESYNC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {

/// `@__mgpu_emu_barrier(%sync, %slot, %count)`, added to `module` (renamed
/// if the name is taken); it calls `yield` while it waits.
func::FuncOp createEmuBarrier(ModuleOp module, func::FuncOp yield);

/// The host runtime's `mgpuEmuYield`, declared in `module`; fails with a
/// diagnostic where a user symbol of that name has another type.
FailureOr<func::FuncOp> getOrCreateEmuYield(ModuleOp module);

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_EMULATESYNC_H
