//===- HostRuntimeCalls.h - Calls into libmgpu_host_runtime -----*- C++ -*-===//
//
// What the host backends (interpret mode, the GPU emulator) need to call the
// host runtime (lib/Runtime/HostRuntime.cpp) from IR: the runtime's
// functions declared in the module, raw pointers to memref elements, and
// the source location of an op as a C string for deadlock diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_HOSTRUNTIMECALLS_H
#define MGPU_HOST_HOSTRUNTIMECALLS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {

/// Calls runtime function `name` (declared in `op`'s module with the types
/// of `args` and `results` if it is not yet) at `b`'s insertion point.
Operation *callHostRuntime(OpBuilder &b, Operation *op, StringRef name,
                           ValueRange args, TypeRange results = {});

/// An `!llvm.ptr` to the element of `memref` at `indices` (none: its
/// first element).
Value getElementPointer(OpBuilder &b, Location loc, Value memref,
                        ValueRange indices = {});

/// getElementPointer for a pointer the runtime dereferences, after a
/// cf.assert (made a located error by --mgpu-report-failed-checks) that
/// every index lies inside `memref`: a wild index would otherwise reach
/// memory the host runtime then reads or writes.
Value getCheckedElementPointer(OpBuilder &b, Location loc, Value memref,
                               ValueRange indices);

/// `ok` and one dimension of a bounds check (an i1): 0 <= `index` (`zero`
/// is the index 0) and `index` <`upper`> `bound` (slt or sle), signed, so
/// that a negative index fails.
Value andIndexInBounds(OpBuilder &b, Location loc, Value ok, Value zero,
                       Value index, arith::CmpIPredicate upper, Value bound);

/// An `!llvm.ptr` to a NUL-terminated "file:line:col" of `op`'s location,
/// a constant global of `op`'s module.
Value getLocationString(OpBuilder &b, Operation *op);

/// Reports (at `op`'s location) and stops the program when `index` is not a
/// barrier of an array of `count`: out of range, it would address other
/// memory (on the GPU, undefined behaviour).
void checkBarrierIndex(OpBuilder &b, Operation *op, Value index, int64_t count);

/// The host word of barrier `index` of `barriers` (the host memref of an
/// array of `count` barriers), once checkBarrierIndex has checked `index`.
Value getCheckedBarrier(OpBuilder &b, Operation *op, Value barriers,
                        Value index, int64_t count);

/// One arrival (mgpuHostBarrierArrive) on the host word `barrier` of a
/// barrier that completes a phase after `arrivals` of them.
void arriveOnHostBarrier(OpBuilder &b, Operation *op, Value barrier,
                         int64_t arrivals);

/// One arrival on barrier `index` of `barriers` (an array of `count`
/// barriers of `arrivals` each), the index checked first.
void arriveOnCheckedBarrier(OpBuilder &b, Operation *op, Value barriers,
                            Value index, int64_t count, int64_t arrivals);

/// An `!llvm.ptr` to NUL-terminated `text`, a constant global of `op`'s
/// module (one per distinct text).
Value getStringConstant(OpBuilder &b, Operation *op, StringRef text);

/// An i64 constant.
Value getI64(OpBuilder &b, Location loc, int64_t value);

/// Replaces `gpu.printf` (Pallas' debug_print) in host code by a call of
/// the C library's printf with the same format, its arguments promoted as C
/// varargs are (index and small integers widened, floats to double). Fails
/// with a diagnostic on an argument printf cannot take (a vector).
LogicalResult lowerPrintfToHost(Operation *printfOp);

} // namespace mlir::mgpu

#endif // MGPU_HOST_HOSTRUNTIMECALLS_H
