//===- Tcgen05ToCPU.cpp - Tensor memory and tcgen05 MMAs on the host ------===//
//
// Interpret mode of the Blackwell ops: a TMEM buffer is a row-major host
// buffer of the CTA's arena (LowerToCPU.cpp), so `mgpu.tcgen05_mma` is
// loops over its elements that sum the products of the operands (read
// through their tiled, swizzled layout where interpret mode stores buffers
// in it, HostSmemLayouts.cpp) in k order, as every backend does
// (WgmmaSemantics.h); the MMA is
// done when issued, so `mgpu.tcgen05_commit_arrive` is a plain arrival and
// the TMEM moves are vector transfers.
//
//===----------------------------------------------------------------------===//

#include "HostMmaLoops.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
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
  Tcgen05MmaToCPU(const TypeConverter &converter, MLIRContext *ctx,
                  bool smemLayouts)
      : OpConversionPattern(converter, ctx), smemLayouts(smemLayouts) {}
  LogicalResult
  matchAndRewrite(Tcgen05MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TmemType accType = op.getAcc().getType();
    Value acc = adaptor.getAcc(), a = adaptor.getA(), b = adaptor.getB();
    // Operands in shared memory, read through their layout.
    SmallVector<Value> copies;
    auto read = [&](Value &operand, ArrayAttr transforms) {
      if (smemLayouts && transforms) {
        operand = readThroughLayout(rewriter, op, operand, transforms);
        copies.push_back(operand);
      }
    };
    read(a, op.getATransformsAttr());
    read(b, op.getBTransformsAttr());
    Value accumulate =
        adaptor.getAccumulate()
            ? adaptor.getAccumulate()
            : Value(arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    int64_t k = cast<MemRefType>(b.getType()).getDimSize(0);
    buildHostMmaLoops(
        rewriter, loc, accumulate, acc, /*column=*/0, accType.getRows(),
        accType.getColumns(), k,
        [&](OpBuilder &nb, Location l, Value row, Value col) {
          return memref::LoadOp::create(nb, l, a, ValueRange{row, col})
              .getResult();
        },
        [&](OpBuilder &nb, Location l, Value row, Value col) {
          return memref::LoadOp::create(nb, l, b, ValueRange{row, col})
              .getResult();
        });
    for (Value copy : copies)
      memref::DeallocOp::create(rewriter, loc, copy);
    rewriter.eraseOp(op);
    return success();
  }
  bool smemLayouts;
};

/// tcgen05_commit_arrive -> one arrival (the MMAs completed when issued).
struct Tcgen05CommitArriveToCPU
    : public OpConversionPattern<Tcgen05CommitArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Tcgen05CommitArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BarrierLikeType type = op.getBarrier().getType();
    arriveOnCheckedBarrier(rewriter, op, adaptor.getBarrier(),
                           adaptor.getIndex(), type.getCount(),
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

/// tmem_slice -> a subview of the host buffer's columns (host TMEM types
/// have a run-time row stride and offset, so the slice has the type of a
/// whole buffer).
struct TmemSliceToCPU : public OpConversionPattern<TmemSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getResult().getType().getShape();
    rewriter.replaceOpWithNewOp<memref::SubViewOp>(
        op, adaptor.getSrc(),
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0), adaptor.getColumn()},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(shape[0]),
                               rewriter.getIndexAttr(shape[1])},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                               rewriter.getIndexAttr(1)});
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
                                              RewritePatternSet &patterns,
                                              bool smemLayouts) {
  patterns.add<Tcgen05MmaToCPU>(converter, patterns.getContext(), smemLayouts);
  patterns.add<Tcgen05CommitArriveToCPU, AsyncLoadTmemToCPU,
               AsyncStoreTmemToCPU, TmemSliceToCPU, WaitLoadTmemToCPU>(
      converter, patterns.getContext());
}
