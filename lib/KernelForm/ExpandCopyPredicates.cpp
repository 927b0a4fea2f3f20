//===- ExpandCopyPredicates.cpp - --mgpu-expand-copy-predicates -----------===//
//
// JAX's copies take a `predicate=`: the copy is made only where it holds.
// Rather than teach every backend's copy lowering a guard, the predicate
// becomes control flow in the kernel form, with what the copy would have
// done for its waiters where it does not hold: a copy in still arrives on
// its barrier (with no bytes, as JAX's lowering expects zero transaction
// bytes then), and a copy out that closes a bulk group still closes one, so
// barrier phases and `wait_smem_to_gmem` counts do not depend on the
// predicate. The patterns run in one walk: a greedy rewrite would also
// delete ops that only read (async_prefetch, unused loads).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUEXPANDCOPYPREDICATES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Replaces predicated `op` by `scf.if %p { op without the predicate }
/// else { otherwise() }`, without an else where `otherwise` is null.
template <typename CopyOp>
LogicalResult guardByPredicate(CopyOp op, PatternRewriter &rewriter,
                               function_ref<void(OpBuilder &)> otherwise) {
  Value predicate = op.getPredicate();
  if (!predicate)
    return failure();
  Location loc = op.getLoc();
  auto guard = scf::IfOp::create(rewriter, loc, predicate,
                                 /*withElseRegion=*/bool(otherwise));
  rewriter.setInsertionPointToStart(guard.thenBlock());
  Operation *copy = rewriter.clone(*op);
  cast<CopyOp>(copy).getPredicateMutable().clear();
  if (otherwise) {
    rewriter.setInsertionPointToStart(guard.elseBlock());
    otherwise(rewriter);
  }
  rewriter.eraseOp(op);
  return success();
}

struct ExpandCopyIn : OpRewritePattern<CopyGmemToSmemOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CopyGmemToSmemOp op,
                                PatternRewriter &rewriter) const override {
    Value barrier = op.getBarrier(), index = op.getBarrierIndex();
    Location loc = op.getLoc();
    return guardByPredicate(op, rewriter, [&](OpBuilder &b) {
      BarrierArriveOp::create(b, loc, barrier, index);
    });
  }
};

struct ExpandCopyOut : OpRewritePattern<CopySmemToGmemOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CopySmemToGmemOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto closeGroup = [&](OpBuilder &b) {
      CommitSmemToGmemGroupOp::create(b, loc);
    };
    if (!op.getCommitGroup())
      return guardByPredicate(op, rewriter, nullptr);
    return guardByPredicate(op, rewriter, closeGroup);
  }
};

struct ExpandCopyPredicatesPass
    : public mgpu::impl::MGPUExpandCopyPredicatesBase<
          ExpandCopyPredicatesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandCopyIn, ExpandCopyOut>(&getContext());
    // One walk, no folding or dead-code elimination: the greedy driver
    // would erase ops whose only effect is a read (an async_prefetch, a
    // load whose value is unused but whose bounds the host backends check).
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
