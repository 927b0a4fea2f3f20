//===- SyncToNVVM.cpp - Semaphores and dependent launch on the GPU -------===//
//
// The synchronization ops among programs and kernels, as conversion
// patterns of --mgpu-primitives-to-nvvm (see PrimitivesToNVVM.h):
// semaphore_signal, semaphore_wait and semaphore_read, which the warpgroup
// distribution puts on lane 0, become atomics on the semaphore's word in global
// memory (a spin with nanosleep for a wait) and a GPU-scope fence that acquires
// what the signals released; griddepcontrol_wait and
// griddepcontrol_launch_dependents become PTX griddepcontrol on sm_90 and
// nothing before it, where kernels on a stream run one after another.
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/GPU/PrimitivesToNVVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// An atomic read of `sem[indices]`: an or of zero, which PTX performs as
/// atom.or at the semaphore's L2 home, so no stale cached copy is read.
Value readSemaphore(OpBuilder &b, Location loc, Value sem, ValueRange indices) {
  return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori,
                                     i32(b, loc, 0), sem, indices);
}

/// semaphore_signal (once per lane that runs it: lane 0 of a warpgroup, or
/// each lane of a per-lane launch) -> a GPU-scope fence that releases what
/// was written before it, then an atomic add.
struct SemaphoreSignalToNVVM : public OpConversionPattern<SemaphoreSignalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreSignalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::GPU);
    memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addi,
                                adaptor.getValue(), adaptor.getSem(),
                                adaptor.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
};

/// semaphore_wait (on lane 0, where the distribution puts it) -> a spin on
/// "subtract if at least value" (one atomic read-modify-write; with
/// decrement = false an atomic read), sleeping between attempts, then a
/// fence that acquires what the signal released.
struct SemaphoreWaitToNVVM : public OpConversionPattern<SemaphoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange(), ValueRange());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&loop.getBefore());
      Value seen;
      if (op.getDecrement()) {
        auto rmw = memref::GenericAtomicRMWOp::create(
            rewriter, loc, adaptor.getSem(), adaptor.getIndices());
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(rmw.getBody());
        Value current = rmw.getCurrentValue();
        Value ready = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::sge, current, value);
        Value taken = arith::SubIOp::create(rewriter, loc, current, value);
        memref::AtomicYieldOp::create(
            rewriter, loc,
            arith::SelectOp::create(rewriter, loc, ready, taken, current));
        seen = rmw.getResult();
      } else {
        seen = readSemaphore(rewriter, loc, adaptor.getSem(),
                             adaptor.getIndices());
      }
      Value notReady = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, seen, value);
      auto ifWait = scf::IfOp::create(rewriter, loc, notReady, false);
      rewriter.setInsertionPointToStart(ifWait.thenBlock());
      NVVM::NanosleepOp::create(rewriter, loc, i32(rewriter, loc, 64));
      rewriter.setInsertionPointAfter(ifWait);
      scf::ConditionOp::create(rewriter, loc, notReady, ValueRange());
      rewriter.createBlock(&loop.getAfter());
      scf::YieldOp::create(rewriter, loc);
    }
    NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::GPU);
    rewriter.eraseOp(op);
    return success();
  }
};

/// semaphore_read (on lane 0, where the distribution puts it) -> an atomic
/// read, then a fence: what was released before the value it reads is
/// visible after it.
struct SemaphoreReadToNVVM : public OpConversionPattern<SemaphoreReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value value = readSemaphore(rewriter, op.getLoc(), adaptor.getSem(),
                                adaptor.getIndices());
    NVVM::MembarOp::create(rewriter, op.getLoc(), NVVM::MemScopeKind::GPU);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// griddepcontrol_wait / griddepcontrol_launch_dependents -> PTX
/// griddepcontrol on every lane on sm_90; nothing before, where kernels on
/// a stream run one after another.
template <typename OpTy, NVVM::GridDepActionKind kAction>
struct GriddepcontrolToNVVM : public OpConversionPattern<OpTy> {
  GriddepcontrolToNVVM(const TypeConverter &converter, MLIRContext *ctx,
                       const TargetInfo &target)
      : OpConversionPattern<OpTy>(converter, ctx), target(target) {}
  const TargetInfo &target;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (target.hasTma)
      NVVM::GriddepcontrolOp::create(rewriter, op.getLoc(), kAction);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::populateSyncToNVVMPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SemaphoreSignalToNVVM, SemaphoreWaitToNVVM, SemaphoreReadToNVVM>(
      converter, ctx);
  patterns.add<
      GriddepcontrolToNVVM<GriddepcontrolWaitOp, NVVM::GridDepActionKind::wait>,
      GriddepcontrolToNVVM<GriddepcontrolLaunchDependentsOp,
                           NVVM::GridDepActionKind::launch_dependents>>(
      converter, ctx, target);
}
