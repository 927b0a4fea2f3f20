//===- NVVMLowering.h - Builders shared by the NVVM lowerings ---*- C++ -*-===//
//
// The small builders every lowering of kernel-level ops to NVVM uses (lane
// index, lane-0 regions, the warpgroup's named barrier, shared-memory
// pointers), the pattern base that knows whether the chip has TMA, and the
// entry points of the op families' patterns, one *ToNVVM.cpp each.
// Internal to lib/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_NVVMLOWERING_H
#define MGPU_LIB_GPU_NVVMLOWERING_H

#include "mgpu/Target/TargetInfo.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu::nvvm_lowering {

/// mbarrier.try_wait suspends for up to this many nanoseconds per try.
constexpr int64_t kWaitTicks = 1000000;
/// Shared memory pointers (shared::cta) and TMA destinations
/// (shared::cluster).
constexpr unsigned kSharedSpace = 3, kClusterSharedSpace = 7;

Value i32(OpBuilder &b, Location loc, int64_t v);
Value toI32(OpBuilder &b, Location loc, Value v);
int64_t elementBytes(Type type);
/// A pointer in address space `space` to the element `element` (a linear
/// index from the first element) of shared memref `memref`.
Value sharedPointer(OpBuilder &b, Location loc, Value memref, Value element,
                    unsigned space = kSharedSpace);
/// This thread's lane in its warpgroup.
Value laneIndex(OpBuilder &b, Location loc);
/// Runs `body` on lane 0 of the warpgroup.
void onLaneZero(OpBuilder &b, Location loc, function_ref<void()> body);
/// The warpgroup's named barrier (bar.sync 1 + warpgroup, 128), as the
/// distributed body uses.
void warpgroupBarrier(OpBuilder &b, Location loc);
/// The LLVM struct of `count` f32 registers in which NVVM's MMAs take and
/// return an accumulator.
Type getRegisterStruct(MLIRContext *ctx, int64_t count);
/// The fields of `fragment` (an LLVM struct of registers, as NVVM's MMAs
/// return them) as a vector of `type`.
Value structToVector(OpBuilder &b, Location loc, Value fragment,
                     VectorType type);

/// A pattern that knows whether the chip has TMA and the async proxy.
template <typename OpTy> struct ChipPattern : public OpConversionPattern<OpTy> {
  ChipPattern(const TypeConverter &converter, MLIRContext *ctx,
              const TargetInfo &target)
      : OpConversionPattern<OpTy>(converter, ctx), target(target) {}
  const TargetInfo &target;
};

} // namespace mlir::mgpu::nvvm_lowering

namespace mlir::mgpu {
// The op families' patterns, one *ToNVVM.cpp each, which
// populatePrimitivesToNVVMPatterns (PrimitivesToNVVM.cpp: barriers, fences,
// bulk groups) adds with its own.

/// The lanes' wgmma steps (mgpu.wgmma_shared, wgmma_register_a,
/// wgmma_fence, wgmma_commit_group, wgmma_wait_group) and the kernel-level
/// wgmma_wait (WgmmaToNVVM.cpp).
void populateWgmmaToNVVMPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

/// The lanes' mma.sync (mgpu.mma_sync; MmaSyncToNVVM.cpp).
void populateMmaSyncToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// copy_gmem_to_smem (with a barrier), copy_smem_to_gmem and async_prefetch:
/// TMA on lane 0 where the chip has it, else the lanes' own copies
/// (TmaCopiesToNVVM.cpp).
void populateTmaCopiesToNVVMPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const TargetInfo &target);

/// wait_gmem_to_smem -> cp.async.wait_group (CpAsyncToNVVM.cpp).
void populateCpAsyncToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// cluster_sync -> barrier.cluster.arrive + barrier.cluster.wait (sm_90), a
/// CTA-wide barrier before (ClusterToNVVM.cpp).
void populateClusterToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);

/// The synchronization ops (SyncToNVVM.cpp): semaphore_wait and
/// semaphore_read as atomics on lane 0, and the programmatic dependent
/// launch ops as PTX griddepcontrol on chips with TMA (sm_90 and later),
/// nothing before.
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

/// Tensor memory and tcgen05 (Tcgen05ToNVVM.cpp): TMEM allocation, the
/// MMAs with their shared-memory and instruction descriptors, commits, and
/// the lane moves between TMEM and registers. Without tcgen05 (before
/// sm_100a) the ops are errors that say so.
void populateTcgen05ToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);
} // namespace mlir::mgpu

#endif // MGPU_LIB_GPU_NVVMLOWERING_H
