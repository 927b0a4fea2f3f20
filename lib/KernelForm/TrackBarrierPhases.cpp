//===- TrackBarrierPhases.cpp - --mgpu-track-barrier-phases ---------------===//
//
// Makes the phase of every mgpu.barrier_wait and mgpu.barrier_test
// explicit. A wait without a parity waits for the next phase its Pallas
// thread has not waited for yet (plgpu.barrier_wait); this pass keeps, per
// barrier array of a kernel, an i64 of phase bits (bit i: the parity of the
// next phase of barrier i) threaded through the body as an SSA value: every
// wait reads its bit and flips it, a test (plgpu.barrier_test) flips it only
// when it says the phase completed, scf.for and scf.while carry it and
// scf.if yields it. Backends then only see waits and tests with a parity,
// and the phase bits live in registers.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUTRACKBARRIERPHASES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// A wait or a test on `barrier` whose phase is implicit.
bool isImplicitWaitOn(Operation *op, Value barrier) {
  if (auto wait = dyn_cast<BarrierWaitOp>(op))
    return !wait.getParity() && wait.getBarrier() == barrier;
  if (auto test = dyn_cast<BarrierTestOp>(op))
    return !test.getParity() && test.getBarrier() == barrier;
  return false;
}

bool hasImplicitWaitOn(Operation *op, Value barrier) {
  return op
      ->walk([&](Operation *inner) {
        return isImplicitWaitOn(inner, barrier) ? WalkResult::interrupt()
                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The parity bit of barrier `index` in `bits`, and the mask that flips it.
std::pair<Value, Value> phaseBit(IRRewriter &rewriter, Location loc, Value bits,
                                 Value barrierIndex) {
  Value index = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getI64Type(), barrierIndex);
  Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 64);
  Value mask = arith::ShLIOp::create(rewriter, loc, one, index);
  Value bit = arith::AndIOp::create(
      rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, index), one);
  Value parity =
      arith::TruncIOp::create(rewriter, loc, rewriter.getI1Type(), bit);
  return {parity, mask};
}

/// Threads the phase bits of `barrier` through `block`, starting from
/// `bits`; returns the bits at the end of the block.
FailureOr<Value> trackBlock(IRRewriter &rewriter, Block &block, Value barrier,
                            Value bits);

/// scf.while carries the bits in both regions: the before region gets them
/// as a new last argument and passes its end to the after region (and out,
/// as the loop's new last result) through scf.condition; the after region
/// yields its end to the next iteration.
FailureOr<Value> trackWhile(IRRewriter &rewriter, scf::WhileOp loop,
                            Value barrier, Value bits) {
  Location loc = loop.getLoc();
  Type i64 = rewriter.getI64Type();
  SmallVector<Value> inits(loop.getInits());
  inits.push_back(bits);
  SmallVector<Type> types(loop.getResultTypes());
  types.push_back(i64);
  rewriter.setInsertionPoint(loop);
  auto grown = scf::WhileOp::create(rewriter, loc, types, inits);
  rewriter.inlineRegionBefore(loop.getBefore(), grown.getBefore(),
                              grown.getBefore().end());
  rewriter.inlineRegionBefore(loop.getAfter(), grown.getAfter(),
                              grown.getAfter().end());
  Block &before = grown.getBefore().front();
  Block &after = grown.getAfter().front();
  FailureOr<Value> beforeEnd =
      trackBlock(rewriter, before, barrier, before.addArgument(i64, loc));
  if (failed(beforeEnd))
    return failure();
  scf::ConditionOp condition = grown.getConditionOp();
  rewriter.modifyOpInPlace(condition, [&] {
    condition.getArgsMutable().append(ValueRange{*beforeEnd});
  });
  FailureOr<Value> afterEnd =
      trackBlock(rewriter, after, barrier, after.addArgument(i64, loc));
  if (failed(afterEnd))
    return failure();
  scf::YieldOp yield = grown.getYieldOp();
  rewriter.modifyOpInPlace(
      yield, [&] { yield.getResultsMutable().append(ValueRange{*afterEnd}); });
  rewriter.replaceOp(loop, grown.getResults().drop_back());
  return grown.getResults().back();
}

FailureOr<Value> trackOp(IRRewriter &rewriter, Operation *op, Value barrier,
                         Value bits) {
  Location loc = op->getLoc();
  if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
    if (!isImplicitWaitOn(op, barrier))
      return bits;
    rewriter.setInsertionPoint(op);
    auto [parity, mask] = phaseBit(rewriter, loc, bits, wait.getIndex());
    rewriter.modifyOpInPlace(wait,
                             [&] { wait.getParityMutable().assign(parity); });
    return Value(arith::XOrIOp::create(rewriter, loc, bits, mask));
  }
  if (auto test = dyn_cast<BarrierTestOp>(op)) {
    if (!isImplicitWaitOn(op, barrier))
      return bits;
    rewriter.setInsertionPoint(op);
    auto [parity, mask] = phaseBit(rewriter, loc, bits, test.getIndex());
    rewriter.modifyOpInPlace(test,
                             [&] { test.getParityMutable().assign(parity); });
    // A test that fails leaves the phase to the next wait or test.
    rewriter.setInsertionPointAfter(test);
    Value flipped = arith::XOrIOp::create(rewriter, loc, bits, mask);
    return Value(
        arith::SelectOp::create(rewriter, loc, test.getDone(), flipped, bits));
  }
  if (!hasImplicitWaitOn(op, barrier))
    return bits;
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return trackWhile(rewriter, loop, barrier, bits);
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    rewriter.setInsertionPoint(loop);
    FailureOr<LoopLikeOpInterface> grown =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, ValueRange{bits},
                /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument> args)
                    -> SmallVector<Value> { return {args.front()}; });
    if (failed(grown))
      return failure();
    auto newLoop = cast<scf::ForOp>(grown->getOperation());
    Block *body = newLoop.getBody();
    Value carried = body->getArguments().back();
    FailureOr<Value> end = trackBlock(rewriter, *body, barrier, carried);
    if (failed(end))
      return failure();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    rewriter.modifyOpInPlace(
        yield, [&] { yield->setOperand(yield->getNumOperands() - 1, *end); });
    return newLoop->getResults().back();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    rewriter.setInsertionPoint(ifOp);
    SmallVector<Type> types(ifOp.getResultTypes());
    types.push_back(rewriter.getI64Type());
    auto newIf = scf::IfOp::create(rewriter, loc, types, ifOp.getCondition(),
                                   /*withElseRegion=*/true);
    for (auto [from, to] : llvm::zip(ifOp->getRegions(), newIf->getRegions())) {
      to.front().erase();
      if (from.empty()) {
        Block *block = rewriter.createBlock(&to);
        rewriter.setInsertionPointToEnd(block);
        scf::YieldOp::create(rewriter, loc, ValueRange{bits});
        continue;
      }
      rewriter.inlineRegionBefore(from, to, to.end());
      Block &block = to.front();
      FailureOr<Value> end = trackBlock(rewriter, block, barrier, bits);
      if (failed(end))
        return failure();
      auto yield = cast<scf::YieldOp>(block.getTerminator());
      SmallVector<Value> operands(yield.getOperands());
      operands.push_back(*end);
      rewriter.setInsertionPoint(yield);
      scf::YieldOp::create(rewriter, yield.getLoc(), operands);
      rewriter.eraseOp(yield);
    }
    rewriter.replaceOp(ifOp, newIf->getResults().drop_back());
    return newIf->getResults().back();
  }
  InFlightDiagnostic diag =
      op->emitOpError() << "holds an mgpu.barrier_wait or mgpu.barrier_test "
                           "without a parity, whose phase cannot be tracked "
                           "through this op";
  diag.attachNote() << "give the wait its phase (`parity %p`), or use "
                       "scf.for, scf.while and scf.if around it";
  return diag;
}

FailureOr<Value> trackBlock(IRRewriter &rewriter, Block &block, Value barrier,
                            Value bits) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    FailureOr<Value> next = trackOp(rewriter, &op, barrier, bits);
    if (failed(next))
      return failure();
    bits = *next;
  }
  return bits;
}

/// Tracks the phases of every barrier array argument of `region`.
LogicalResult trackRegion(Region &region) {
  // The phase bits of an array's barriers are one i64.
  constexpr int64_t kMaxTrackedBarriers = 64;
  if (region.empty())
    return success();
  Block &entry = region.front();
  IRRewriter rewriter(region.getContext());
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<BarrierLikeType>(arg.getType());
    if (!type)
      continue;
    bool implicit = false;
    for (Operation &op : entry)
      implicit |= hasImplicitWaitOn(&op, arg);
    if (!implicit)
      continue;
    if (type.getCount() > kMaxTrackedBarriers) {
      Operation *first = nullptr;
      region.walk([&](Operation *inner) {
        if (!first && isImplicitWaitOn(inner, arg))
          first = inner;
      });
      InFlightDiagnostic diag = first->emitOpError()
                                << "waits without a parity on an array of "
                                << type.getCount()
                                << " barriers; phases are tracked for at "
                                   "most "
                                << kMaxTrackedBarriers;
      diag.attachNote() << "give the wait its phase (`parity %p`)";
      return diag;
    }
    rewriter.setInsertionPointToStart(&entry);
    Value bits = arith::ConstantIntOp::create(rewriter, arg.getLoc(), 0, 64);
    if (failed(trackBlock(rewriter, entry, arg, bits)))
      return failure();
  }
  return success();
}

struct TrackBarrierPhasesPass
    : public mgpu::impl::MGPUTrackBarrierPhasesBase<TrackBarrierPhasesPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (!isa<PallasCallOp, MpmdMapOp>(op))
        return WalkResult::advance();
      for (Region &region : op->getRegions())
        if (failed(trackRegion(region)))
          return WalkResult::interrupt();
      return WalkResult::skip();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
