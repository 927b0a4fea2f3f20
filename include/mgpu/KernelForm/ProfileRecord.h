//===- ProfileRecord.h - One profiler event as memory accesses --*- C++ -*-===//
//
// What an mgpu.profile_event does, written out as a clock read and loads
// and stores of its trace. The GPU's distribution emits it on lane 0 of each
// warpgroup, the CPU backend once per Pallas thread; only the clock
// (mgpu.global_timer) is left to each backend.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_PROFILERECORD_H
#define MGPU_KERNELFORM_PROFILERECORD_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

namespace mlir::mgpu {

/// The words of one Pallas thread's trace: the event count, then a tag and
/// a time per event.
inline int64_t getTraceWords(int64_t capacity) { return 1 + 2 * capacity; }

/// Appends the event of `op` (with `buffer` and `base` its operands in the
/// code being built) to its trace unless the trace is full: reads the
/// clock, then the count `n` at `base`; if `n < capacity` stores the tag at
/// `base + 1 + 2n`, the time after it, and `n + 1` at `base`.
void emitProfileRecord(OpBuilder &b, ProfileEventOp op, Value buffer,
                       Value base);

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_PROFILERECORD_H
