//===- NVVMLowering.h - Builders shared by the NVVM lowerings ---*- C++ -*-===//
//
// The small builders every lowering of kernel-level ops to NVVM uses (lane
// index, lane-0 regions, the warpgroup's named barrier, shared-memory
// pointers), the pattern base that knows whether the chip has TMA, and the
// TMA copy patterns' entry point (TmaCopiesToNVVM.cpp). Internal to lib/GPU.
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

/// A pattern that knows whether the chip has TMA and the async proxy.
template <typename OpTy> struct ChipPattern : public OpConversionPattern<OpTy> {
  ChipPattern(const TypeConverter &converter, MLIRContext *ctx,
              const TargetInfo &target)
      : OpConversionPattern<OpTy>(converter, ctx), target(target) {}
  const TargetInfo &target;
};

} // namespace mlir::mgpu::nvvm_lowering

namespace mlir::mgpu {
/// The lanes' wgmma steps (mgpu.wgmma_shared, wgmma_register_a,
/// wgmma_fence, wgmma_commit_group, wgmma_wait_group) and the kernel-level
/// wgmma_wait (WgmmaToNVVM.cpp).
void populateWgmmaToNVVMPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

/// copy_gmem_to_smem (with a barrier), copy_smem_to_gmem and async_prefetch:
/// TMA on lane 0 where the chip has it, else the lanes' own copies
/// (TmaCopiesToNVVM.cpp).
void populateTmaCopiesToNVVMPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const TargetInfo &target);
} // namespace mlir::mgpu

#endif // MGPU_LIB_GPU_NVVMLOWERING_H
