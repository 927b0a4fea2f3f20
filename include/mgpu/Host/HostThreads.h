//===- HostThreads.h - Running kernel threads on host threads ---*- C++ -*-===//
//
// What the two host backends (interpret mode and the GPU emulator) share to
// run the threads of a kernel that may wait for each other: an OpenMP team
// with one host thread per kernel thread, so that every waiting thread makes
// progress.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_HOSTTHREADS_H
#define MGPU_HOST_HOSTTHREADS_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Emits at `b`'s insertion point `body(b, i)` once per i in [0, count),
/// each on its own host thread: an OpenMP team of `count` threads, each
/// taking one iteration of a statically scheduled loop (chunk 1).
void forEachOnOwnThread(OpBuilder &b, Location loc, Value count,
                        function_ref<void(OpBuilder &, Value)> body);

} // namespace mlir::mgpu

#endif // MGPU_HOST_HOSTTHREADS_H
