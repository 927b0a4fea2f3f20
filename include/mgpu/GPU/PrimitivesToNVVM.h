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
/// needs one of those patterns (or the Tcgen05 ones), so an op without one
/// is an error at the op rather than a silent leftover.
void configurePrimitivesToNVVMLegality(ConversionTarget &target);

/// The synchronization part of those patterns (SyncToNVVM.cpp):
/// semaphore_wait and semaphore_read as atomics on lane 0, and the
/// programmatic dependent launch ops as PTX griddepcontrol on chips with
/// TMA (sm_90 and later), nothing before.
void populateSyncToNVVMPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                const TargetInfo &target);

/// The profiler's clock, mgpu.global_timer, as %globaltimer
/// (ProfileToNVVM.cpp); a profile_event left undistributed is illegal.
void populateProfileToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// barrier_test (with a parity) -> mbarrier.test_wait.parity on every lane
/// and bar.red.or.pred over the warpgroup (BarrierTestToNVVM.cpp).
void populateBarrierTestToNVVMPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// approx_math's tanh (`afn`, f32) -> tanh.approx.f32, as JAX lowers it
/// (ApproxMathToNVVM.cpp); exact tanh is left to libdevice.
void populateApproxMathToNVVMPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
void configureApproxMathToNVVMLegality(ConversionTarget &target);

/// The `!llvm.ptr<3>` to barrier `index` of a converted barrier array.
Value barrierPointer(OpBuilder &b, Location loc, Value barriers, Value index);

} // namespace mlir::mgpu

#endif // MGPU_GPU_PRIMITIVESTONVVM_H
