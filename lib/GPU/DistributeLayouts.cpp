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
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/SwizzleFormula.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

Value Distributor::lookupIn(Value v, LayoutKind kind) {
  if (!isFragmentLayout(kind))
    return lookup(v);
  Value held = fragmentOf.lookup(v);
  if (held && heldKindOf(v) == kind)
    return held;
  auto type = cast<VectorType>(v.getType());
  Location loc = v.getLoc();
  // Every lane holds the scalar of a splat already: no exchange.
  if (layoutOf(v) == LayoutKind::splat || isSplatValue(v))
    return vector::BroadcastOp::create(
        b, loc, laneTypeIn(type, kind),
        vector::ExtractOp::create(b, loc, lookup(v), 0));
  // Held in another fragment layout: through the lanes' layout.
  if (kind == LayoutKind::wgmma_col)
    return lanesToColumns(loc, lookup(v), type);
  return kind == LayoutKind::wgmma_row
             ? lanesToRows(loc, lookup(v), type)
             : lanesToFragments(loc, lookup(v), type, kind);
}

void Distributor::setHeld(Location loc, Value original, Value held) {
  fragmentOf[original] = held;
  auto type = cast<VectorType>(original.getType());
  LayoutKind kind = heldKindOf(original);
  if (!llvm::all_of(original.getUses(),
                    [&](OpOperand &use) { return takenLayout(use) == kind; }))
    map.map(original, heldToLanes(loc, held, type, kind));
}

LayoutKind Distributor::takenLayout(OpOperand &use) const {
  // Whether the tensor cores run a wgmma is the distribution's decision.
  // a in registers is staged from fragments as cheaply as from lanes.
  if (auto wgmma = dyn_cast<WgmmaOp>(use.getOwner()))
    return isOnTensorCores(wgmma) &&
                   (use.get() == wgmma.getAcc() ||
                    (use.get() == wgmma.getA() &&
                     layoutOf(use.get()) == LayoutKind::wgmma))
               ? LayoutKind::wgmma
               : LayoutKind::strided;
  return getUseLayout(use, layoutOf);
}

/// The row of fragment row `h` (0 or 1) of 64-row tile `tile` this lane
/// holds.
static Value rowOf(OpBuilder &b, Location loc, Value lane, int64_t tile,
                   int64_t h) {
  Value row = buildFragmentPosition(b, loc, lane, 2 * h).first;
  return arith::AddIOp::create(
      b, loc, row, arith::ConstantIndexOp::create(b, loc, tile * 64));
}

Value Distributor::restage(Location loc, Value lanes, VectorType type,
                           LayoutKind kind, int64_t count,
                           function_ref<Value(int64_t)> at) {
  beginExchange(loc);
  Value buffer = stage(loc, lanes, type);
  barrier(loc);
  Value result = zeroVector(loc, laneTypeIn(type, kind));
  for (int64_t i = 0; i < count; ++i)
    result = vector::InsertOp::create(
        b, loc, loadStaged(loc, buffer, at(i), type.getElementType()), result,
        i);
  return result;
}

Value Distributor::lanesToRows(Location loc, Value lanes, VectorType type) {
  // Rows h of each 64-row tile, two per tile.
  return restage(
      loc, lanes, type, LayoutKind::wgmma_row, type.getDimSize(0) / 64 * 2,
      [&](int64_t i) { return rowOf(b, loc, ctx.lane, i / 2, i % 2); });
}

Value Distributor::restageToLanes(Location loc, Value held, VectorType type,
                                  int64_t size, function_ref<Value()> writes,
                                  int64_t count,
                                  function_ref<Value(int64_t)> at) {
  completeMmas(loc);
  beginExchange(loc);
  Value buffer = ctx.scratch->allocate(b, loc, type.getElementType(), size);
  guarded(loc, writes(), [&] {
    for (int64_t i = 0; i < count; ++i)
      memref::StoreOp::create(b, loc,
                              vector::ExtractOp::create(b, loc, held, i),
                              buffer, ValueRange{at(i)});
  });
  hazards.scratch = true;
  barrier(loc);
  return unstage(loc, buffer, type);
}

Value Distributor::rowsToLanes(Location loc, Value rows, VectorType type) {
  int64_t m = type.getDimSize(0);
  // The 4 lanes of a quad hold the same rows: one of them writes.
  return restageToLanes(
      loc, rows, type, m,
      [&] {
        return arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 4)),
            index(loc, 0));
      },
      m / 64 * 2,
      [&](int64_t i) { return rowOf(b, loc, ctx.lane, i / 2, i % 2); });
}

/// Column `8 * group + 2 * (lane % 4) + j` of a fragment: the j-th
/// (0 or 1) column this lane holds in 8-column group `group`.
static Value columnOf(OpBuilder &b, Location loc, Value lane, int64_t group,
                      int64_t j) {
  Value pair = arith::MulIOp::create(
      b, loc,
      arith::RemUIOp::create(b, loc, lane,
                             arith::ConstantIndexOp::create(b, loc, 4)),
      arith::ConstantIndexOp::create(b, loc, 2));
  return arith::AddIOp::create(
      b, loc, pair, arith::ConstantIndexOp::create(b, loc, 8 * group + j));
}

Value Distributor::lanesToColumns(Location loc, Value lanes, VectorType type) {
  // Columns j of each 8-column group, two per group.
  return restage(
      loc, lanes, type, LayoutKind::wgmma_col, type.getNumElements() / 8 * 2,
      [&](int64_t i) { return columnOf(b, loc, ctx.lane, i / 2, i % 2); });
}

Value Distributor::columnsToLanes(Location loc, Value columns,
                                  VectorType type) {
  int64_t n = type.getNumElements();
  // Every quad of every warp holds the same columns: lanes 0-3 write.
  return restageToLanes(
      loc, columns, type, n,
      [&] {
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     ctx.lane, index(loc, 4));
      },
      n / 8 * 2,
      [&](int64_t i) { return columnOf(b, loc, ctx.lane, i / 2, i % 2); });
}

/// Columns over the rows of fragments (see getBroadcastColumns): register
/// `reg` of every tile takes the lane's column `reg % 2` of group `reg / 4`.
LogicalResult Distributor::distributeColumnBroadcast(vector::BroadcastOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getResultVectorType();
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  Value columns = lookupIn(getBroadcastColumns(op), LayoutKind::wgmma_col);
  SmallVector<int64_t> mask;
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; ++reg)
      mask.push_back((reg / 4) * 2 + reg % 2);
  setHeld(loc, op.getResult(),
          vector::ShuffleOp::create(b, loc, columns, columns, mask));
  return success();
}

/// Element i is i: the lane computes the positions it holds, in the rows
/// or columns of fragments (JAX's broadcasted_iota with Layout.WGMMA) or
/// in the strided layout.
LogicalResult Distributor::distributeStep(vector::StepOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getResult().getType();
  LayoutKind kind = layoutOf(op.getResult());
  if (kind != LayoutKind::wgmma_row && kind != LayoutKind::wgmma_col) {
    map.map(op.getResult(),
            buildPerElement(loc, type,
                            [](ArrayRef<Value>, Value flat) { return flat; }));
    return success();
  }
  Value result = zeroVector(loc, laneTypeIn(type, kind));
  int64_t count = kind == LayoutKind::wgmma_row ? type.getNumElements() / 64
                                                : type.getNumElements() / 8;
  for (int64_t group = 0; group < count; ++group)
    for (int64_t j = 0; j < 2; ++j)
      result = vector::InsertOp::create(
          b, loc,
          kind == LayoutKind::wgmma_row ? rowOf(b, loc, ctx.lane, group, j)
                                        : columnOf(b, loc, ctx.lane, group, j),
          result, group * 2 + j);
  setHeld(loc, op.getResult(), result);
  return success();
}

/// A piece of at most 16 bytes at a multiple of its size stays in one
/// 16-byte chunk, which the swizzle moves whole: the piece keeps its
/// alignment.
void Distributor::throughLayout(Operation *op, Value base,
                                SmallVectorImpl<Value> &at) {
  auto transforms = op->getAttrOfType<ArrayAttr>(kAccessTransformsAttrName);
  if (!transforms)
    return;
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(base.getType());
  // Verified by --mgpu-propagate-transforms.
  SwizzledTiling tiling =
      *getSwizzledTiling(op, "the accessed buffer", transforms, type);
  int64_t width = type.getDimSize(1);
  Value bytes =
      ::mgpu::swizzledByteOffset(IndexArith{b, loc}, tiling.rows, tiling.cols,
                                 tiling.elementBytes, width, at[0], at[1]);
  Value element =
      arith::DivUIOp::create(b, loc, bytes, index(loc, tiling.elementBytes));
  at[0] = arith::DivUIOp::create(b, loc, element, index(loc, width));
  at[1] = arith::RemUIOp::create(b, loc, element, index(loc, width));
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

/// A read or write of a value held in a fragment layout (see
/// canAccessInFragments): each lane accesses the elements it holds, two
/// adjacent columns per 8-byte access for `wgmma`, its rows for
/// `wgmma_row` (written by one lane of each quad).
LogicalResult Distributor::distributeHeldAccess(VectorTransferOpInterface op) {
  Location loc = op.getLoc();
  auto read = dyn_cast<vector::TransferReadOp>(op.getOperation());
  VectorType type = op.getVectorType();
  LayoutKind kind = layoutOf(op.getVector());
  Value base = lookup(op.getBase());
  SmallVector<Value> indices = lookupAll(op.getIndices());
  int64_t rankDiff = static_cast<int64_t>(indices.size()) - type.getRank();
  if (!read)
    beforeWrite(loc);
  Value held = read ? zeroVector(loc, laneTypeIn(type, kind))
                    : lookupIn(op.getVector(), kind);
  auto at = [&](Value row, Value col) {
    SmallVector<Value> result(indices);
    result[rankDiff] = arith::AddIOp::create(b, loc, result[rankDiff], row);
    if (col)
      result[rankDiff + 1] =
          arith::AddIOp::create(b, loc, result[rankDiff + 1], col);
    return result;
  };
  if (kind == LayoutKind::wgmma_col) {
    // Two adjacent columns per access; lanes 0-3 write what every quad
    // holds.
    int64_t n = type.getNumElements();
    auto pair = VectorType::get({2}, type.getElementType());
    int64_t pairBytes = 2 * storageBytes(type.getElementType());
    auto access = [&] {
      for (int64_t group = 0; group < n / 8; ++group) {
        Value col = columnOf(b, loc, ctx.lane, group, 0);
        SmallVector<Value> position(indices);
        position.back() = arith::AddIOp::create(b, loc, position.back(), col);
        int64_t align =
            std::min<int64_t>(getKnownAlignment(base, position), pairBytes);
        if (read)
          held = vector::InsertStridedSliceOp::create(
              b, loc,
              vector::LoadOp::create(b, loc, pair, base, position, false,
                                     llvm::MaybeAlign(align)),
              held, group * 2, 1);
        else
          vector::StoreOp::create(b, loc,
                                  vector::ExtractStridedSliceOp::create(
                                      b, loc, held, group * 2, 2, 1),
                                  base, position, false,
                                  llvm::MaybeAlign(align));
      }
    };
    if (read)
      access();
    else
      guarded(loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ctx.lane,
                                    index(loc, 4)),
              access);
  } else if (int64_t m = type.getDimSize(0); kind != LayoutKind::wgmma_row) {
    int64_t n = type.getDimSize(1);
    // V adjacent columns per access (one element where they are rows).
    int64_t step = kind == LayoutKind::wgmma_transposed
                       ? 1
                       : getFragmentTiling(kind).vector;
    auto piece = VectorType::get({step}, type.getElementType());
    int64_t pieceBytes = step * storageBytes(type.getElementType());
    for (int64_t tile = 0; tile < m / 64; ++tile)
      for (int64_t reg = 0; reg < n / 2; reg += step) {
        auto [row, col] = fragmentPosition(loc, kind, reg);
        row = arith::AddIOp::create(b, loc, row, index(loc, tile * 64));
        SmallVector<Value> position = at(row, col);
        int64_t align =
            std::min<int64_t>(getKnownAlignment(base, position), pieceBytes);
        throughLayout(op, base, position);
        int64_t offset = tile * (n / 2) + reg;
        if (read)
          held = vector::InsertStridedSliceOp::create(
              b, loc,
              vector::LoadOp::create(b, loc, piece, base, position, false,
                                     llvm::MaybeAlign(align)),
              held, offset, 1);
        else
          vector::StoreOp::create(b, loc,
                                  vector::ExtractStridedSliceOp::create(
                                      b, loc, held, offset, step, 1),
                                  base, position, false,
                                  llvm::MaybeAlign(align));
      }
  } else {
    Value first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 4)), index(loc, 0));
    for (int64_t tile = 0; tile < m / 64; ++tile)
      for (int64_t h = 0; h < 2; ++h) {
        SmallVector<Value> position =
            at(rowOf(b, loc, ctx.lane, tile, h), Value());
        if (read) {
          held = vector::InsertOp::create(
              b, loc, memref::LoadOp::create(b, loc, base, position), held,
              tile * 2 + h);
          continue;
        }
        guarded(loc, first, [&] {
          memref::StoreOp::create(
              b, loc, vector::ExtractOp::create(b, loc, held, tile * 2 + h),
              base, position);
        });
      }
  }
  if (read)
    setHeld(loc, read.getResult(), held);
  return success();
}
