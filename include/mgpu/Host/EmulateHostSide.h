//===- EmulateHostSide.h - The emulator's host side -------------*- C++ -*-===//
//
// What the GPU emulator does around the kernels it runs: outlined launches
// brought back inline (the emulator runs gpu.launch bodies), and host-side
// gpu ops (alloc, memcpy, memset, dealloc, wait) as host memory operations.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_EMULATEHOSTSIDE_H
#define MGPU_HOST_EMULATEHOSTSIDE_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {

/// Readies the launches under `module` for the emulator, which runs
/// gpu.launch bodies without attributions: every gpu.launch_func becomes a
/// gpu.launch with the same sizes and async dependencies whose body is the
/// kernel's (gpu.modules that nothing refers to any more are erased), and
/// attributions become dynamic shared memory and allocas. A launch the
/// emulator cannot run this way is a located error.
LogicalResult prepareLaunches(ModuleOp module);

/// Host-side gpu ops under `root` to memref ops; async tokens disappear.
LogicalResult emulateHostOps(Operation *root);

} // namespace mlir::mgpu

#endif // MGPU_HOST_EMULATEHOSTSIDE_H
