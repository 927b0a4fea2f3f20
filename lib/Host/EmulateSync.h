//===- EmulateSync.h - The emulator's barrier helper ------------*- C++ -*-===//
//
// The functions the GPU emulator adds to a module for barriers among the
// threads of a CTA (EmulateSync.cpp); internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_EMULATESYNC_H
#define MGPU_LIB_HOST_EMULATESYNC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {

/// `@__mgpu_emu_barrier(%sync, %slot, %count)`, added to `module` (renamed
/// if the name is taken); it calls `yield` while it waits.
func::FuncOp createEmuBarrier(ModuleOp module, func::FuncOp yield);

/// The OR of i1 `pred` over the 128 lanes of the warpgroup of lane `lane`
/// (in its warpgroup), which is thread `t` of the host `exchange` words (one
/// per thread): each lane stores its word, `barrier()` (the warpgroup's
/// barrier) lets every lane read all of them, and a second `barrier()`
/// keeps the words until the last lane has read them.
Value emitWarpgroupOr(OpBuilder &b, Location loc, Value pred, Value exchange,
                      Value t, Value lane, function_ref<void()> barrier);

/// The host runtime's `mgpuEmuYield`, declared in `module`; fails with a
/// diagnostic where a user symbol of that name has another type.
FailureOr<func::FuncOp> getOrCreateEmuYield(ModuleOp module);

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_EMULATESYNC_H
