//===- ExpandScheduling.cpp - Persistent loops as plain loops -------------===//
//
// nd_loop becomes an scf.for over this program's local steps: program p of
// the P programs along the collective axes (p and P from mgpu.axis_index
// and mgpu.axis_size, the first axis outermost) runs the linear steps
// p + w P below the grid's size, w = 0, 1, ..., and unravels each into the
// grid's indices (over the tiles then inside the tile when tiled), as
// JAX's nd_loop does; its carries are the loop's iter_args.
// dynamic_scheduling_loop becomes an scf.while whose next step comes from
// an atomic add on a global counter, the carries riding along. planar_snake
// becomes JAX's index arithmetic, with the operands of the branch it does
// not take kept in range (a division by a zero-wide last strip would trap
// on the host).
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/ExpandScheduling.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// This program's linear index along `axes` (the first outermost) and the
/// number of programs along them.
std::pair<Value, Value> placeAlong(PatternRewriter &rewriter, Location loc,
                                   ArrayAttr axes) {
  Value place = indexConstant(rewriter, loc, 0);
  Value programs = indexConstant(rewriter, loc, 1);
  for (StringRef axis : axes.getAsValueRange<StringAttr>()) {
    Value size = AxisSizeOp::create(rewriter, loc, axis);
    place = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, place, size),
        AxisIndexOp::create(rewriter, loc, axis));
    programs = arith::MulIOp::create(rewriter, loc, programs, size);
  }
  return {place, programs};
}

/// `step` unravelled over `dims`, the last innermost.
SmallVector<Value> unravel(PatternRewriter &rewriter, Location loc, Value step,
                           ArrayRef<Value> dims) {
  SmallVector<Value> indices(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    indices[d] = arith::RemUIOp::create(rewriter, loc, step, dims[d]);
    step = arith::DivUIOp::create(rewriter, loc, step, dims[d]);
  }
  return indices;
}

/// The product of `dims`.
Value product(PatternRewriter &rewriter, Location loc, ArrayRef<Value> dims) {
  Value total = indexConstant(rewriter, loc, 1);
  for (Value dim : dims)
    total = arith::MulIOp::create(rewriter, loc, total, dim);
  return total;
}

/// dynamic_scheduling_loop -> scf.while over (step, local step, carries):
/// the first
/// step is the program's own place, each next one the number of programs
/// plus what an atomic add on the counter returned.
struct ExpandDynamicSchedulingLoop
    : public OpRewritePattern<DynamicSchedulingLoopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DynamicSchedulingLoopOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type index = rewriter.getIndexType();
    auto [place, programs] = placeAlong(rewriter, loc, op.getCollectiveAxes());
    SmallVector<Value> dims(op.getGrid());
    Value total = product(rewriter, loc, dims);
    // (step, local step, carries...) ride in the loop.
    SmallVector<Value> inits{place, indexConstant(rewriter, loc, 0)};
    llvm::append_range(inits, op.getInitCarry());
    TypeRange types = ValueRange(inits).getTypes();
    SmallVector<Location> locs(inits.size(), loc);
    auto loop = scf::WhileOp::create(rewriter, loc, types, inits);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *before = rewriter.createBlock(&loop.getBefore(), {}, types, locs);
    Value more = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       before->getArgument(0), total);
    scf::ConditionOp::create(rewriter, loc, more, before->getArguments());
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, types, locs);
    Value step = after->getArgument(0), local = after->getArgument(1);
    SmallVector<Value> arguments = unravel(rewriter, loc, step, dims);
    arguments.push_back(local);
    llvm::append_range(arguments, after->getArguments().drop_front(2));
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    rewriter.mergeBlocks(&body, after, arguments);
    // The next step, taken once this one's work is done.
    rewriter.setInsertionPoint(yield);
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
    Value taken = memref::AtomicRMWOp::create(
        rewriter, loc, arith::AtomicRMWKind::addi, one, op.getCounter(),
        ValueRange{op.getCounterIndex()});
    Value next = arith::AddIOp::create(
        rewriter, loc, programs,
        arith::IndexCastUIOp::create(rewriter, loc, index, taken));
    Value nextLocal = arith::AddIOp::create(rewriter, loc, local,
                                            indexConstant(rewriter, loc, 1));
    SmallVector<Value> yielded{next, nextLocal};
    llvm::append_range(yielded, yield.getValues());
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yielded);
    rewriter.replaceOp(op, loop.getResults().drop_front(2));
    return success();
  }
};

struct ExpandNdLoop : public OpRewritePattern<NdLoopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NdLoopOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto c = [&](int64_t v) -> Value {
      return indexConstant(rewriter, loc, v);
    };
    // This program's place among the programs along the collective axes.
    auto [place, programs] = placeAlong(rewriter, loc, op.getCollectiveAxes());
    // The dimensions the linear step unravels over: the grid, or the grid
    // of tiles then the tile.
    SmallVector<Value> dims;
    std::optional<ArrayRef<int64_t>> tiling = op.getTiling();
    if (tiling) {
      for (auto [size, tile] : llvm::zip(op.getGrid(), *tiling))
        dims.push_back(arith::DivUIOp::create(rewriter, loc, size, c(tile)));
      for (int64_t tile : *tiling)
        dims.push_back(c(tile));
    } else {
      llvm::append_range(dims, op.getGrid());
    }
    Value total = product(rewriter, loc, dims);
    // Steps of this program: total / P, one more for the first total % P.
    Value extra = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, place,
        arith::RemUIOp::create(rewriter, loc, total, programs));
    Value upper = arith::AddIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, total, programs),
        arith::SelectOp::create(rewriter, loc, extra, c(1), c(0)));
    // The carries ride in the loop's iter_args; the body's yield becomes
    // the loop's.
    auto loop = scf::ForOp::create(
        rewriter, loc, c(0), upper, c(1), op.getInitCarry(),
        [](OpBuilder &, Location, Value, ValueRange) { /* filled below */ });
    rewriter.setInsertionPointToStart(loop.getBody());
    Value local = loop.getInductionVar();
    Value step = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, local, programs),
        place);
    SmallVector<Value> indices = unravel(rewriter, loc, step, dims);
    if (tiling) {
      size_t rank = tiling->size();
      SmallVector<Value> untiled;
      for (size_t d = 0; d < rank; ++d)
        untiled.push_back(arith::AddIOp::create(
            rewriter, loc, indices[rank + d],
            arith::MulIOp::create(rewriter, loc, indices[d], c((*tiling)[d]))));
      indices = untiled;
    }
    indices.push_back(local);
    llvm::append_range(indices, loop.getRegionIterArgs());
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    rewriter.mergeBlocks(&body, loop.getBody(), indices);
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yield.getValues());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct ExpandPlanarSnake : public OpRewritePattern<PlanarSnakeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PlanarSnakeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexArith x{rewriter, loc};
    int64_t minorDim = op.getMinorDim();
    Value shape[2] = {op.getMajorOr_0(), op.getSize_1()};
    Value width = x.constant(op.getTileWidth());
    Value major = shape[1 - minorDim], minor = shape[minorDim];
    Value lin = op.getIndex();
    Value strip = x.div(lin, x.mul(width, major));
    Value odd =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              x.rem(strip, x.constant(2)), x.constant(0));
    Value lastMajor = x.sub(major, x.constant(1));
    // (minor, major) of `at` in a strip `w` wide.
    auto coordinates = [&](Value at, Value w) -> std::pair<Value, Value> {
      Value inMinor = x.rem(at, w);
      Value inMajor = x.rem(x.div(at, w), major);
      Value m = x.add(x.mul(strip, width), inMinor);
      Value back = x.sub(lastMajor, inMajor);
      return {m, arith::SelectOp::create(rewriter, loc, odd, back, inMajor)};
    };
    Value fullStrips = x.div(minor, width);
    Value fullElements = x.mul(x.mul(fullStrips, width), major);
    Value isFull = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lin, fullElements);
    auto [fullMinor, fullMajor] = coordinates(lin, width);
    // The last, narrower strip: its width at least 1 and its offset at
    // least 0 where it is not taken.
    Value restWidth = arith::MaxUIOp::create(
        rewriter, loc, x.sub(minor, x.mul(fullStrips, width)), x.constant(1));
    Value restAt = arith::SelectOp::create(rewriter, loc, isFull, x.constant(0),
                                           x.sub(lin, fullElements));
    auto [restMinor, restMajor] = coordinates(restAt, restWidth);
    Value m =
        arith::SelectOp::create(rewriter, loc, isFull, fullMinor, restMinor);
    Value M =
        arith::SelectOp::create(rewriter, loc, isFull, fullMajor, restMajor);
    if (minorDim == 0)
      rewriter.replaceOp(op, {m, M});
    else
      rewriter.replaceOp(op, {M, m});
    return success();
  }
};

} // namespace

LogicalResult mlir::mgpu::expandSchedulingOps(Operation *root) {
  bool any = false;
  root->walk([&](Operation *op) {
    if (isa<NdLoopOp, PlanarSnakeOp, DynamicSchedulingLoopOp>(op))
      any = true;
  });
  if (!any)
    return success();
  RewritePatternSet patterns(root->getContext());
  patterns.add<ExpandNdLoop, ExpandPlanarSnake, ExpandDynamicSchedulingLoop>(
      root->getContext());
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return applyPatternsGreedily(root, std::move(patterns), config);
}
