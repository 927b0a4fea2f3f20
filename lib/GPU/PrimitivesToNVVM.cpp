//===- PrimitivesToNVVM.cpp - Kernel-level ops on the GPU -----------------===//
//
// --mgpu-primitives-to-nvvm: the kernel-level ops in gpu.launch bodies (see the
// header). Every lane of a warpgroup runs these ops (WarpgroupDistribution
// keeps them whole); the patterns decide who works: lane 0 issues arrivals
// and bulk-group waits, every lane waits on a barrier and fences. This file
// holds the barrier and bulk-group patterns and the pass; the TMA copies are
// in TmaCopiesToNVVM.cpp, the other families in their own files. Each
// pattern opens with what it rewrites into what.
//
//===----------------------------------------------------------------------===//

#include "mgpu/GPU/PrimitivesToNVVM.h"
#include "ClusterToNVVM.h"
#include "CpAsyncToNVVM.h"
#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/CopyWindows.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/TmaReductions.h"
#include "mgpu/Passes.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPRIMITIVESTONVVM
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::populateBarrierToSharedMemoryConversion(
    TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](BarrierLikeType type) -> Type {
    MLIRContext *ctx = type.getContext();
    return MemRefType::get(
        {type.getCount()}, IntegerType::get(ctx, 64),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  });
  // A TMEM buffer is its tensor-memory address (Tcgen05ToNVVM.cpp).
  converter.addConversion([](TmemType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 6);
  });
}

namespace mlir::mgpu::nvvm_lowering {

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}
Value toI32(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
}

int64_t elementBytes(Type type) {
  return type.isIndex() ? 8 : std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

Value sharedPointer(OpBuilder &b, Location loc, Value memref, Value element,
                    unsigned space) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value offset = arith::AddIOp::create(b, loc, metadata.getOffset(), element);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, offset,
          indexConstant(b, loc, elementBytes(type.getElementType()))));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), space),
      Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), address)));
}

Value laneIndex(OpBuilder &b, Location loc) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  return arith::RemUIOp::create(b, loc, tid,
                                indexConstant(b, loc, kWarpgroupLanes));
}

void onLaneZero(OpBuilder &b, Location loc, function_ref<void()> body) {
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, laneIndex(b, loc),
                            indexConstant(b, loc, 0));
  buildIfThen(b, loc, first, body);
}

Type getRegisterStruct(MLIRContext *ctx, int64_t count) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(count, Float32Type::get(ctx)));
}

Value structToVector(OpBuilder &b, Location loc, Value fragment,
                     VectorType type) {
  SmallVector<Value> fields;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    fields.push_back(LLVM::ExtractValueOp::create(b, loc, fragment, i));
  return vector::FromElementsOp::create(b, loc, type, fields);
}

void warpgroupBarrier(OpBuilder &b, Location loc) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warpgroup = arith::DivUIOp::create(
      b, loc, tid, indexConstant(b, loc, kWarpgroupLanes));
  Value id =
      arith::AddIOp::create(b, loc, toI32(b, loc, warpgroup), i32(b, loc, 1));
  NVVM::BarrierOp::create(b, loc, Type(), id, i32(b, loc, kWarpgroupLanes),
                          NVVM::BarrierReductionAttr(), Value());
}

} // namespace mlir::mgpu::nvvm_lowering

using namespace mlir::mgpu::nvvm_lowering;

Value mlir::mgpu::barrierPointer(OpBuilder &b, Location loc, Value barriers,
                                 Value barrierIndex) {
  return sharedPointer(b, loc, barriers, barrierIndex);
}

namespace {

/// barrier_init -> mbarrier.init of every barrier with its arrival count,
/// then fence.mbarrier_init (sm_90; before, the CTA barrier that follows is
/// enough).
struct BarrierInitToNVVM : public ChipPattern<BarrierInitOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(BarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    BarrierLikeType type = op.getBarrier().getType();
    auto loop =
        scf::ForOp::create(rewriter, loc, indexConstant(rewriter, loc, 0),
                           indexConstant(rewriter, loc, type.getCount()),
                           indexConstant(rewriter, loc, 1));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      NVVM::MBarrierInitOp::create(
          rewriter, loc,
          barrierPointer(rewriter, loc, adaptor.getBarrier(),
                         loop.getInductionVar()),
          i32(rewriter, loc, type.getArrivals()), Value());
    }
    if (target.hasTma)
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier_arrive -> mbarrier.arrive on lane 0. On a cluster barrier, lane
/// 0 arrives on the barrier of every CTA of its group: `mapa` gives the
/// barrier's shared::cluster address in that CTA, and the arrival is a
/// release at cluster scope.
struct BarrierArriveToNVVM : public OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (isa<ClusterBarrierType>(op.getBarrier().getType())) {
      std::optional<ArrayRef<int64_t>> dims = op.getClusterDims();
      if (!dims)
        return op.emitOpError() << "on a cluster barrier needs its "
                                   "cluster_dims (run --mgpu-form-launches)";
      onLaneZero(rewriter, loc, [&] {
        arriveOnClusterPeers(rewriter, loc,
                             barrierPointer(rewriter, loc, adaptor.getBarrier(),
                                            adaptor.getIndex()),
                             *dims);
      });
      rewriter.eraseOp(op);
      return success();
    }
    onLaneZero(rewriter, loc, [&] {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(),
                                     barrierPointer(rewriter, loc,
                                                    adaptor.getBarrier(),
                                                    adaptor.getIndex()),
                                     Value());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier_wait with a parity -> a mbarrier.try_wait.parity loop on every
/// lane.
struct BarrierWaitToNVVM : public ChipPattern<BarrierWaitOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getParity())
      return rewriter.notifyMatchFailure(op, "the phase is implicit");
    Location loc = op.getLoc();
    Value pointer =
        barrierPointer(rewriter, loc, adaptor.getBarrier(), adaptor.getIndex());
    Value parity = arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getParity());
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange(), ValueRange());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&loop.getBefore());
      // try_wait suspends the thread a while (sm_90); test_wait only polls.
      // A cluster barrier's arrivals come from other CTAs: the wait
      // acquires at cluster scope.
      auto scope = isa<ClusterBarrierType>(op.getBarrier().getType())
                       ? NVVM::MemScopeKind::CLUSTER
                       : NVVM::MemScopeKind::CTA;
      Value done =
          target.hasTma
              ? Value(NVVM::MBarrierTryWaitOp::create(
                    rewriter, loc, rewriter.getI1Type(), pointer, parity,
                    i32(rewriter, loc, kWaitTicks), scope))
              : Value(NVVM::MBarrierTestWaitOp::create(
                    rewriter, loc, rewriter.getI1Type(), pointer, parity));
      Value again = arith::XOrIOp::create(
          rewriter, loc, done,
          arith::ConstantIntOp::create(rewriter, loc, 1, 1));
      scf::ConditionOp::create(rewriter, loc, again, ValueRange());
      rewriter.createBlock(&loop.getAfter());
      scf::YieldOp::create(rewriter, loc);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// commit_smem -> fence.proxy.async.shared::cta on every lane (the
/// distribution puts the warpgroup barrier after it); nothing before sm_90,
/// which has no async proxy.
struct CommitSmemToNVVM : public ChipPattern<CommitSmemOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(CommitSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (target.hasTma)
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(), NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    rewriter.eraseOp(op);
    return success();
  }
};

/// wait_smem_to_gmem -> cp.async.bulk.wait_group[.read] on lane 0, which
/// issued the copies (the distribution puts the warpgroup barrier after
/// it); nothing before sm_90, where copies out are done when they return.
struct WaitSmemToGmemToNVVM : public ChipPattern<WaitSmemToGmemOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(WaitSmemToGmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!target.hasTma) {
      rewriter.eraseOp(op);
      return success();
    }
    onLaneZero(rewriter, op.getLoc(), [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(
          rewriter, op.getLoc(), static_cast<uint32_t>(op.getPending()),
          op.getReadOnly() ? rewriter.getUnitAttr() : UnitAttr());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// commit_smem_to_gmem_group -> cp.async.bulk.commit_group on lane 0, which
/// issued the copies; nothing before sm_90, where copies out are done when
/// they return.
struct CommitSmemToGmemGroupToNVVM
    : public ChipPattern<CommitSmemToGmemGroupOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(CommitSmemToGmemGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (target.hasTma)
      onLaneZero(rewriter, op.getLoc(), [&] {
        NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, op.getLoc());
      });
    rewriter.eraseOp(op);
    return success();
  }
};

/// warpgroup_barrier -> the warpgroup's named barrier (bar.sync 1 + its
/// index, 128 threads; 0 is the CTA's).
struct WarpgroupBarrierToNVVM : public OpConversionPattern<WarpgroupBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpgroupBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    warpgroupBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// set_max_registers -> setmaxnreg.{inc,dec}.sync.aligned.u32 on sm_90 (every
/// lane of the warpgroup runs it); nothing before, where the register
/// budget is fixed at launch.
struct SetMaxRegistersToNVVM : public ChipPattern<SetMaxRegistersOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(SetMaxRegistersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (target.hasTma) {
      auto action = op.getChange() == RegisterChange::increase
                        ? NVVM::SetMaxRegisterAction::increase
                        : NVVM::SetMaxRegisterAction::decrease;
      NVVM::SetMaxRegisterOp::create(
          rewriter, op.getLoc(),
          rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getCount())),
          NVVM::SetMaxRegisterActionAttr::get(rewriter.getContext(), action));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::populatePrimitivesToNVVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BarrierArriveToNVVM, WarpgroupBarrierToNVVM>(converter, ctx);
  populateWgmmaToNVVMPatterns(converter, patterns);
  populateMmaSyncToNVVMPatterns(converter, patterns);
  populateSyncToNVVMPatterns(converter, patterns, target);
  populateProfileToNVVMPatterns(converter, patterns);
  populateBarrierTestToNVVMPatterns(converter, patterns);
  populateApproxMathToNVVMPatterns(converter, patterns);
  patterns.add<BarrierInitToNVVM, BarrierWaitToNVVM, CommitSmemToNVVM,
               WaitSmemToGmemToNVVM, CommitSmemToGmemGroupToNVVM,
               SetMaxRegistersToNVVM>(converter, ctx, target);
  populateClusterToNVVMPatterns(converter, patterns, target);
  populateCpAsyncToNVVMPatterns(converter, patterns);
  populateTmaCopiesToNVVMPatterns(converter, patterns, target);
}

void mlir::mgpu::configurePrimitivesToNVVMLegality(ConversionTarget &target) {
  // Every mgpu op left in a kernel is lowered here; one without a pattern
  // is an error at the op.
  target.addIllegalDialect<MGPUDialect>();
  configureApproxMathToNVVMLegality(target);
}

//===----------------------------------------------------------------------===//
// The pass: the patterns above on every gpu.launch
//===----------------------------------------------------------------------===//

namespace {
struct PrimitivesToNVVMPass
    : public mgpu::impl::MGPUPrimitivesToNVVMBase<PrimitivesToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    const TargetInfo *targetInfo = chip.empty() ? &getTargetInfo(getOperation())
                                                : TargetInfo::lookup(chip);
    if (!targetInfo) {
      getOperation().emitError()
          << "mgpu-primitives-to-nvvm: unknown chip '" << chip << "'";
      return signalPassFailure();
    }
    const TargetInfo &chipInfo = *targetInfo;
    // A partitioned copy (cta_group::2) exists for Blackwell's pairs only.
    WalkResult pairs = getOperation()->walk([&](CopyGmemToSmemOp copy) {
      if (chipInfo.hasTcgen05() || !copy.getPartitioned())
        return WalkResult::advance();
      copy.emitOpError() << "is partitioned between a pair of CTAs, for "
                            "Blackwell's collective MMAs: compile for "
                            "chip=sm_100a";
      return WalkResult::interrupt();
    });
    if (pairs.wasInterrupted())
      return signalPassFailure();
    TypeConverter converter;
    populateBarrierToSharedMemoryConversion(converter);
    RewritePatternSet patterns(&getContext());
    populatePrimitivesToNVVMPatterns(converter, patterns, chipInfo);
    populateTcgen05ToNVVMPatterns(converter, patterns, chipInfo);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configurePrimitivesToNVVMLegality(target);
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(applyPartialConversion(launch, target, frozen)))
        return signalPassFailure();
  }
};
} // namespace
