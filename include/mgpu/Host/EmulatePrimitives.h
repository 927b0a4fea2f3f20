//===- EmulatePrimitives.h - The emulator's kernel-level ops ----*- C++ -*-===//
//
// What the GPU emulator (EmulateGPU.cpp) emits for one thread's kernel-level
// ops and the small helpers it shares with them; see EmulatePrimitives.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_EMULATEPRIMITIVES_H
#define MGPU_HOST_EMULATEPRIMITIVES_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu::emulation {

/// One thread's cp.async, synchronously: element k of the chunk comes from
/// the source when k < srcElements, else it is zero.
void emulateAsyncCopy(OpBuilder &b, Location loc,
                      nvgpu::DeviceAsyncCopyOp copy);

/// A scalar as i64 bits and back (for the shuffle exchange array).
Value toBits(OpBuilder &b, Location loc, Value v);
Value fromBits(OpBuilder &b, Location loc, Value v, Type type);

/// The host storage of a barrier array bound by --mgpu-lower-to-gpu (a cast
/// of its shared-memory words), or null.
Value barrierStorage(Value barrier);

/// Runs `body` where `lane` (the lane in the warpgroup) is 0.
void onLaneZero(OpBuilder &b, Location loc, Value lane,
                function_ref<void(OpBuilder &)> body);

/// The host code of kernel-level op `op` (a barrier init, arrival or wait, a
/// copy in or out, a group commit or wait, a semaphore wait, the profiler's
/// clock) for thread `lane` of its warpgroup, emitted at `b`; fails with a
/// diagnostic at the op where it cannot be emulated.
LogicalResult emulatePrimitive(OpBuilder &b, Operation *op, Value lane);

/// barrier_test `test` on CUDA thread `tid` of its CTA (thread `t` of the
/// host `exchange` words, one per thread): the i1 answer, the same on every
/// lane of the warpgroup (the OR of theirs); `namedBarrier(id, count)`
/// emits the named barrier the lanes meet on. Fails with a diagnostic where
/// the test cannot be emulated.
FailureOr<Value>
emulateBarrierTest(OpBuilder &b, BarrierTestOp test, Value tid, Value t,
                   Value exchange,
                   function_ref<void(Value id, Value count)> namedBarrier);

/// An arrival on a cluster barrier: lane 0 (of thread `tid`) arrives on the
/// barrier of every CTA of its group. `stride` is the bytes between CTA
/// slots; `block`, `sizes` and `group` are the CTA's index, the cluster's
/// sizes and the group's sizes in each dimension.
LogicalResult emulateClusterArrive(OpBuilder &b, BarrierArriveOp arrive,
                                   Value tid, Value stride,
                                   ArrayRef<Value> block, ArrayRef<Value> sizes,
                                   ArrayRef<Value> group);

/// The checks of a multicast copy_gmem_to_smem issued by lane 0 (of thread
/// `tid`), arguments as emulateClusterArrive's: its share overwrites the
/// buffer of every other CTA of its group now (mgpuEmuCheckMulticastShare);
/// the copy itself is emulated by emulatePrimitive.
LogicalResult emulateMulticastChecks(OpBuilder &b, CopyGmemToSmemOp copy,
                                     Value tid, Value stride,
                                     ArrayRef<Value> block,
                                     ArrayRef<Value> sizes,
                                     ArrayRef<Value> group);

/// A partitioned copy (copy_gmem_to_smem ... partitioned D) of thread
/// `lane`: lane 0 of each CTA of the pair queues its own part into its own
/// buffer on the barrier of the pair's first CTA (`leader`; the peer's is
/// `peerBytes` further in the host shared memory). The peer's part does
/// not arrive; the first CTA's arrives once both parts have landed, as
/// the GPU's byte count has it.
LogicalResult emulatePartitionedCopy(OpBuilder &b, CopyGmemToSmemOp copy,
                                     Value lane, Value leader, Value peerBytes);

/// The bytes from this CTA's slice of the host shared memory to that of
/// the CTA `ref` names (slots as in emulateClusterArrive).
Value emulatePeerBytes(OpBuilder &b, ClusterRefOp ref, Value stride,
                       ArrayRef<Value> block, ArrayRef<Value> sizes,
                       ArrayRef<Value> group);

} // namespace mlir::mgpu::emulation

#endif // MGPU_HOST_EMULATEPRIMITIVES_H
