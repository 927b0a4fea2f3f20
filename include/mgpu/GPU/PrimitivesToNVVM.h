//===- PrimitivesToNVVM.h - Kernel-level ops on the GPU ---------*- C++ -*-===//
//
// The GPU implementation of the kernel-level ops left in gpu.launch bodies
// by --mgpu-lower-to-gpu, as conversion patterns: mbarriers in shared
// memory, TMA copies (tensor maps made in host code before the launch) or
// the warpgroup's own copies where TMA cannot move a window, bulk groups and
// proxy fences. See --mgpu-primitives-to-nvvm.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_GPU_PRIMITIVESTONVVM_H
#define MGPU_GPU_PRIMITIVESTONVVM_H

#include "mgpu/Target/TargetInfo.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// `!mgpu.barrier<count = K>` (and a cluster barrier) is `memref<K x i64>`
/// in shared memory.
void populateBarrierToSharedMemoryConversion(TypeConverter &converter);

/// Patterns lowering barrier_init, barrier_arrive, barrier_wait (with a
/// parity; on barriers and cluster barriers), copy_gmem_to_smem (multicast
/// too), copy_smem_to_gmem, async_prefetch, commit_smem,
/// commit_smem_to_gmem_group, wait_smem_to_gmem, cluster_sync and the sync
/// ops below inside gpu.launch bodies to NVVM, for chip `target`. With TMA
/// (sm_90 and later) copies use TMA and waits mbarrier.try_wait; without,
/// the warpgroup copies and waits spin on mbarrier.test_wait (sm_80).
void populatePrimitivesToNVVMPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const TargetInfo &target);

/// Makes the whole mgpu dialect illegal in a kernel: every op left there
/// needs one of those patterns, so an op without one is an error at the op
/// rather than a silent leftover.
void configurePrimitivesToNVVMLegality(ConversionTarget &target);

/// The `!llvm.ptr<3>` to barrier `index` of a converted barrier array.
Value barrierPointer(OpBuilder &b, Location loc, Value barriers, Value index);

} // namespace mlir::mgpu

#endif // MGPU_GPU_PRIMITIVESTONVVM_H
