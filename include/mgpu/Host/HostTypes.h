//===- HostTypes.h - Kernel values in host memory ---------------*- C++ -*-===//
//
// Both host backends (interpret mode and the GPU emulator) move kernel
// bodies into host code, where GPU shared memory is ordinary memory and
// LLVM's host lowering knows no GPU address space: a memref in the
// workgroup (or private) address space becomes the same memref without one.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_HOSTTYPES_H
#define MGPU_HOST_HOSTTYPES_H

#include "mlir/IR/Operation.h"

namespace mlir::mgpu {

/// The host type of a kernel value of `type`.
Type toHostType(Type type);

/// Gives `op`'s results and the arguments of its regions' blocks their host
/// types (`op` only, not the ops nested in it).
void setHostTypes(Operation *op);

} // namespace mlir::mgpu

#endif // MGPU_HOST_HOSTTYPES_H
