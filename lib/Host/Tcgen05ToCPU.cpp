//===- Tcgen05ToCPU.cpp - Tensor memory and tcgen05 MMAs on the host ------===//
//
// Interpret mode of the Blackwell ops: a TMEM buffer is a row-major host
// buffer of the CTA's arena (LowerToCPU.cpp), so `mgpu.tcgen05_mma` is
// loops over its elements that sum the products of the row-major operands
// (the copies that fill tiled, swizzled buffers keep them row-major on the
// host) in k order, as every backend does (WgmmaSemantics.h); the MMA is
// done when issued, so `mgpu.tcgen05_commit_arrive` is a plain arrival and
// the TMEM moves are vector transfers.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// tcgen05_mma -> acc[i, j] = (accumulate ? acc[i, j] : 0) + sum_k a[i, k] *
/// b[k, j], loops over the TMEM buffer.
struct Tcgen05MmaToCPU : public OpConversionPattern<Tcgen05MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Tcgen05MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TmemType accType = op.getAcc().getType();
    Value acc = adaptor.getAcc(), a = adaptor.getA(), b = adaptor.getB();
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value accumulate =
        adaptor.getAccumulate()
            ? adaptor.getAccumulate()
            : Value(arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    int64_t k = cast<MemRefType>(b.getType()).getDimSize(0);
    scf::buildLoopNest(
        rewriter, loc, ValueRange{zero, zero},
        ValueRange{indexConstant(rewriter, loc, accType.getRows()),
                   indexConstant(rewriter, loc, accType.getColumns())},
        ValueRange{one, one}, [&](OpBuilder &nb, Location l, ValueRange ivs) {
          Value i = ivs[0], j = ivs[1];
          Value old = memref::LoadOp::create(nb, l, acc, ivs);
          Value start = arith::SelectOp::create(
              nb, l, accumulate, old,
              arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0)));
          auto steps =
              scf::ForOp::create(nb, l, zero, indexConstant(nb, l, k), one,
                                 ValueRange{buildWgmmaStart(nb, l, start)});
          OpBuilder::InsertionGuard guard(nb);
          nb.setInsertionPointToStart(steps.getBody());
          Value kk = steps.getInductionVar();
          scf::YieldOp::create(
              nb, l,
              buildWgmmaAccumulate(
                  nb, l, steps.getRegionIterArgs()[0],
                  memref::LoadOp::create(nb, l, a, ValueRange{i, kk}),
                  memref::LoadOp::create(nb, l, b, ValueRange{kk, j})));
          nb.setInsertionPointAfter(steps);
          memref::StoreOp::create(
              nb, l,
              buildWgmmaFinish(nb, l, steps.getResult(0), nb.getF32Type()), acc,
              ivs);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcgen05_commit_arrive -> one arrival (the MMAs completed when issued).
struct Tcgen05CommitArriveToCPU
    : public OpConversionPattern<Tcgen05CommitArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Tcgen05CommitArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BarrierLikeType type = op.getBarrier().getType();
    arriveOnHostBarrier(rewriter, op,
                        getCheckedBarrier(rewriter, op, adaptor.getBarrier(),
                                          adaptor.getIndex(), type.getCount()),
                        type.getArrivals());
    rewriter.eraseOp(op);
    return success();
  }
};

/// async_load_tmem -> vector.transfer_read of the host buffer.
struct AsyncLoadTmemToCPU : public OpConversionPattern<AsyncLoadTmemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncLoadTmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = indexConstant(rewriter, loc, 0);
    Value padding =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        op, op.getType(), adaptor.getSrc(), ValueRange{zero, zero}, padding,
        ArrayRef<bool>{true, true});
    return success();
  }
};

/// async_store_tmem -> vector.transfer_write into the host buffer.
struct AsyncStoreTmemToCPU : public OpConversionPattern<AsyncStoreTmemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncStoreTmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value zero = indexConstant(rewriter, op.getLoc(), 0);
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        op, adaptor.getValue(), adaptor.getDst(), ValueRange{zero, zero},
        ArrayRef<bool>{true, true});
    return success();
  }
};

/// wait_load_tmem -> nothing: the loads were done when issued.
struct WaitLoadTmemToCPU : public OpConversionPattern<WaitLoadTmemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitLoadTmemOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::populateTcgen05ToCPUPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<Tcgen05MmaToCPU, Tcgen05CommitArriveToCPU, AsyncLoadTmemToCPU,
               AsyncStoreTmemToCPU, WaitLoadTmemToCPU>(converter,
                                                       patterns.getContext());
}
