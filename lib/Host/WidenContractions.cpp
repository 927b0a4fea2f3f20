//===- WidenContractions.cpp - Contractions in their accumulator's type ---===//
//
// `vector.contract` may multiply narrower operands than it accumulates
// (f16 x f16 into f32: the usual mixed-precision matmul), but LLVM's
// lowering of the contraction has no such form and the host backends failed
// to translate it. This pass widens the operands to the accumulator's
// element type first (extf for floats, extsi for integers), which is exactly
// what the contraction means and what the lane distribution computes on the
// GPU, so every backend gives the same numbers.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUWIDENCONTRACTIONS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct WidenOperands : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    Type accElement = getElementTypeOrSelf(op.getAccType());
    Type lhsElement = getElementTypeOrSelf(op.getLhsType());
    Type rhsElement = getElementTypeOrSelf(op.getRhsType());
    if (lhsElement == accElement && rhsElement == accElement)
      return failure();
    // Only widening: a wider type holds every narrower value exactly.
    if (!accElement.isIntOrFloat() || !lhsElement.isIntOrFloat() ||
        !rhsElement.isIntOrFloat() ||
        lhsElement.getIntOrFloatBitWidth() >
            accElement.getIntOrFloatBitWidth() ||
        rhsElement.getIntOrFloatBitWidth() >
            accElement.getIntOrFloatBitWidth() ||
        isa<FloatType>(lhsElement) != isa<FloatType>(accElement) ||
        isa<FloatType>(rhsElement) != isa<FloatType>(accElement))
      return failure();
    Location loc = op.getLoc();
    auto widen = [&](Value v) -> Value {
      auto type = cast<VectorType>(v.getType());
      if (type.getElementType() == accElement)
        return v;
      Type wide = type.clone(accElement);
      if (isa<FloatType>(accElement))
        return arith::ExtFOp::create(rewriter, loc, wide, v);
      return arith::ExtSIOp::create(rewriter, loc, wide, v);
    };
    Value lhs = widen(op.getLhs()), rhs = widen(op.getRhs());
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
    });
    return success();
  }
};

struct WidenContractions
    : mgpu::impl::MGPUWidenContractionsBase<WidenContractions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenOperands>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
