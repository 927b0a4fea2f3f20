//===- HostThreads.h - Running kernel threads on host threads ---*- C++ -*-===//
//
// How interpret mode runs the threads of a kernel that may wait for each
// other: an OpenMP team with one host thread per kernel thread, so that
// every waiting thread makes progress. (The GPU emulator, with 128 CUDA
// threads per warpgroup, runs them as fibers of the host runtime instead:
// lib/Runtime/EmuScheduler.cpp.)
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_HOSTTHREADS_H
#define MGPU_HOST_HOSTTHREADS_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Opens at `b`'s insertion point an OpenMP team of `count` host threads,
/// each taking one iteration i of a statically scheduled loop (chunk 1) over
/// [0, count), and moves `b` into the loop's body; returns i.
Value beginThreadTeam(OpBuilder &b, Location loc, Value count);

/// Emits at `b`'s insertion point `body(b, i)` once per i in [0, count),
/// each on its own host thread (beginThreadTeam); `b` stays where it was.
void forEachOnOwnThread(OpBuilder &b, Location loc, Value count,
                        function_ref<void(OpBuilder &, Value)> body);

} // namespace mlir::mgpu

#endif // MGPU_HOST_HOSTTHREADS_H
