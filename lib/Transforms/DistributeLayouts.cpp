//===- DistributeLayouts.cpp - Values in the fragment layouts -------------===//
//
// The part of the warpgroup distribution that follows the layouts of
// --mgpu-assign-layouts beyond the strided one: where a value is held in the
// wgmma fragment layout or its row layout (`wgmma_row`, one element per row
// of a fragment), which uses take it so, the conversions through the
// warpgroup scratch where layouts meet, layout casts, and the two ops that
// move between the fragment layouts without an exchange: a reduction along
// the rows of a fragment (within a lane, then across the 4 lanes of a quad
// with xor shuffles) and a broadcast of rows back over the columns.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

static bool isFragmentLayout(LayoutKind kind) {
  return kind == LayoutKind::wgmma || kind == LayoutKind::wgmma_row;
}

Value Distributor::lookupIn(Value v, LayoutKind kind) {
  if (!isFragmentLayout(kind))
    return lookup(v);
  if (Value held = fragmentOf.lookup(v))
    return held;
  auto type = cast<VectorType>(v.getType());
  Location loc = v.getLoc();
  // Every lane holds the scalar of a splat already: no exchange.
  if (layoutOf(v) == LayoutKind::splat || isSplatValue(v))
    return vector::BroadcastOp::create(
        b, loc, laneTypeIn(type, kind),
        vector::ExtractOp::create(b, loc, lookup(v), 0));
  return kind == LayoutKind::wgmma ? lanesToFragments(loc, lookup(v), type)
                                   : lanesToRows(loc, lookup(v), type);
}

void Distributor::setHeld(Location loc, Value original, Value held) {
  fragmentOf[original] = held;
  auto type = cast<VectorType>(original.getType());
  LayoutKind kind = heldKind(type);
  if (!llvm::all_of(original.getUses(),
                    [&](OpOperand &use) { return takenLayout(use) == kind; }))
    map.map(original, heldToLanes(loc, held, type));
}

LayoutKind Distributor::takenLayout(OpOperand &use) const {
  Operation *owner = use.getOwner();
  auto fragmentOr = [](LayoutKind kind) {
    return isFragmentLayout(kind) ? kind : LayoutKind::strided;
  };
  if (auto wgmma = dyn_cast<WgmmaOp>(owner))
    return use.get() == wgmma.getAcc() && ctx.tensorCores &&
                   canRunOnTensorCores(wgmma)
               ? LayoutKind::wgmma
               : LayoutKind::strided;
  if (auto yield = dyn_cast<scf::YieldOp>(owner)) {
    if (isa<scf::ForOp, scf::IfOp>(yield->getParentOp()))
      return fragmentOr(
          layoutOf(yield->getParentOp()->getResult(use.getOperandNumber())));
    return LayoutKind::strided;
  }
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    if (OpResult result = loop.getTiedLoopResult(&use))
      return fragmentOr(layoutOf(result));
  if (auto cast = dyn_cast<LayoutCastOp>(owner))
    return fragmentOr(cast.getLayout().getKind());
  if (OpTrait::hasElementwiseMappableTraits(owner) || isa<vector::FMAOp>(owner))
    return fragmentOr(layoutOf(owner->getResult(0)));
  if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(owner))
    if (layoutOf(reduction.getResult()) == LayoutKind::wgmma_row)
      return use.get() == reduction.getSource() ? LayoutKind::wgmma
                                                : LayoutKind::wgmma_row;
  if (auto cast = dyn_cast<vector::ShapeCastOp>(owner))
    return fragmentOr(layoutOf(cast.getResult()) == LayoutKind::wgmma_row
                          ? LayoutKind::wgmma_row
                          : LayoutKind::strided);
  if (isa<vector::BroadcastOp, vector::TransposeOp>(owner)) {
    Operation *user = owner;
    // The broadcast before a transpose is not made (see
    // distributeRowBroadcast): it passes the rows on.
    if (isa<vector::BroadcastOp>(owner) && owner->hasOneUse() &&
        isa<vector::TransposeOp>(*owner->user_begin()))
      user = *owner->user_begin();
    if (getBroadcastRows(user) == use.get() &&
        layoutOf(user->getResult(0)) == LayoutKind::wgmma)
      return LayoutKind::wgmma_row;
  }
  return LayoutKind::strided;
}

/// The row of fragment row `h` (0 or 1) of 64-row tile `tile` this lane
/// holds.
static Value rowOf(OpBuilder &b, Location loc, Value lane, int64_t tile,
                   int64_t h) {
  Value row = buildFragmentPosition(b, loc, lane, 2 * h).first;
  return arith::AddIOp::create(
      b, loc, row, arith::ConstantIndexOp::create(b, loc, tile * 64));
}

Value Distributor::lanesToRows(Location loc, Value lanes, VectorType type) {
  int64_t m = type.getDimSize(0);
  beginExchange(loc);
  Value buffer = stage(loc, lanes, type);
  barrier(loc);
  Value result = zeroVector(loc, laneTypeIn(type, LayoutKind::wgmma_row));
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t h = 0; h < 2; ++h)
      result = vector::InsertOp::create(
          b, loc,
          loadStaged(loc, buffer, rowOf(b, loc, ctx.lane, tile, h),
                     type.getElementType()),
          result, tile * 2 + h);
  return result;
}

Value Distributor::rowsToLanes(Location loc, Value rows, VectorType type) {
  completeMmas(loc);
  int64_t m = type.getDimSize(0);
  beginExchange(loc);
  Value buffer = ctx.scratch->allocate(b, loc, type.getElementType(), m);
  // The 4 lanes of a quad hold the same rows: one of them writes.
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 4)), index(loc, 0));
  guarded(loc, first, [&] {
    for (int64_t tile = 0; tile < m / 64; ++tile)
      for (int64_t h = 0; h < 2; ++h)
        memref::StoreOp::create(
            b, loc, vector::ExtractOp::create(b, loc, rows, tile * 2 + h),
            buffer, ValueRange{rowOf(b, loc, ctx.lane, tile, h)});
  });
  hazards.scratch = true;
  barrier(loc);
  Value result = unstage(loc, buffer, type);
  hazards.read = true;
  return result;
}

/// A cast only moves the value into the layout its uses expect.
LogicalResult Distributor::distributeLayoutCast(LayoutCastOp op) {
  LayoutKind kind = op.getLayout().getKind();
  if (isFragmentLayout(kind))
    setHeld(op.getLoc(), op.getResult(), lookupIn(op.getSource(), kind));
  else
    map.map(op.getResult(), lookup(op.getSource()));
  return success();
}

/// Along the rows of fragments: a lane folds the columns it holds of each
/// of its two rows per tile, then the 4 lanes of its quad (which hold the
/// other columns of those rows) combine with xor shuffles 1 and 2.
LogicalResult
Distributor::distributeRowReduction(vector::MultiDimReductionOp op) {
  Location loc = op.getLoc();
  completeMmas(loc);
  auto sourceType = cast<VectorType>(op.getSource().getType());
  auto resultType = cast<VectorType>(op.getType());
  int64_t m = sourceType.getDimSize(0), n = sourceType.getDimSize(1);
  Value fragments = lookupFragments(op.getSource());
  Value acc = lookupIn(op.getAcc(), LayoutKind::wgmma_row);
  vector::CombiningKind kind = op.getKind();
  Value result = acc;
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t h = 0; h < 2; ++h) {
      Value partial;
      for (int64_t reg = 0; reg < n / 2; ++reg) {
        if ((reg / 2) % 2 != h)
          continue;
        Value x =
            vector::ExtractOp::create(b, loc, fragments, tile * (n / 2) + reg);
        partial =
            partial ? vector::makeArithReduction(b, loc, kind, x, partial) : x;
      }
      for (int64_t offset : {1, 2})
        partial = vector::makeArithReduction(
            b, loc, kind, shuffleXor(b, loc, partial, offset), partial);
      Value old = vector::ExtractOp::create(b, loc, acc, tile * 2 + h);
      result = vector::InsertOp::create(
          b, loc, vector::makeArithReduction(b, loc, kind, old, partial),
          result, tile * 2 + h);
    }
  (void)resultType;
  setHeld(loc, op.getResult(), result);
  return success();
}

/// Rows over the columns of fragments (see getBroadcastRows): register
/// `reg` of a tile takes the lane's row `(reg / 2) % 2` of that tile.
LogicalResult Distributor::distributeRowBroadcast(Operation *op) {
  Location loc = op->getLoc();
  auto type = cast<VectorType>(op->getResult(0).getType());
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  Value rows = lookupIn(getBroadcastRows(op), LayoutKind::wgmma_row);
  SmallVector<int64_t> mask;
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; ++reg)
      mask.push_back(tile * 2 + (reg / 2) % 2);
  setHeld(loc, op->getResult(0),
          vector::ShuffleOp::create(b, loc, rows, rows, mask));
  return success();
}

/// The broadcast of rows that a transpose turns into a row broadcast in
/// fragments is never made in lanes.
bool Distributor::feedsRowBroadcast(vector::BroadcastOp op) {
  if (!op->hasOneUse())
    return false;
  Operation *user = *op->user_begin();
  return isa<vector::TransposeOp>(user) && getBroadcastRows(user) &&
         layoutOf(user->getResult(0)) == LayoutKind::wgmma;
}
