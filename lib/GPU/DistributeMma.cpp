//===- DistributeMma.cpp - mgpu.mma on mma.sync ---------------------------===//
//
// The distribution of mgpu.mma (plgpu.mma, Ampere's synchronous MMA of
// arrays held by the lanes). The operands are staged row-major in the
// warpgroup scratch, as a contraction's are; then each warp of the
// warpgroup computes its slab of M / 4 rows in m16n8k16 tiles with
// mgpu.mma_sync (lowered with the other primitives): a lane loads its
// fragments of a (rows g and g + 8 of the tile, K columns 2t, 2t + 1 and
// 2t + 8, 2t + 9, g = lane / 4, t = lane mod 4), of b (K rows 2t, 2t + 1
// and 2t + 8, 2t + 9 of column g) and of the accumulator (rows g and
// g + 8, columns 2t and 2t + 1) from the scratch, runs the K steps with
// the accumulator in registers, and writes its four sums back where it
// read them: each element has one owner, so the accumulator is updated in
// place, and read back into the lanes' layout after a barrier. Without
// tensor cores (`mma-sync=0`, the pipelines' `tensor-cores=0`) each lane
// computes its own result elements from the staged operands instead, in
// f32 as mma.sync does.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

LogicalResult Distributor::distributeMma(MmaOp op) {
  Location loc = op.getLoc();
  auto accType = cast<VectorType>(op.getAcc().getType());
  auto aType = cast<VectorType>(op.getA().getType());
  auto bType = cast<VectorType>(op.getB().getType());
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
          k = aType.getDimSize(1);
  Type input = aType.getElementType(), f32 = b.getF32Type();
  beginExchange(loc);
  Value aBuffer = stage(loc, lookup(op.getA()), aType);
  Value bBuffer = stage(loc, lookup(op.getB()), bType);
  Value accBuffer = stage(loc, lookup(op.getAcc()), accType);
  barrier(loc);
  auto at = [&](Value row, Value col, int64_t width) -> Value {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(loc, width)), col);
  };
  auto plus = [&](Value v, int64_t c) -> Value {
    return arith::AddIOp::create(b, loc, v, index(loc, c));
  };

  if (!ctx.mmaSync) {
    Value result = buildPerElement(
        loc, accType, [&](ArrayRef<Value> multi, Value flat) -> Value {
          Value start =
              buildWgmmaStart(b, loc, loadStaged(loc, accBuffer, flat, f32));
          auto steps = scf::ForOp::create(b, loc, index(loc, 0), index(loc, k),
                                          index(loc, 1), ValueRange{start});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(steps.getBody());
          Value kk = steps.getInductionVar();
          Value x = loadStaged(loc, aBuffer, at(multi[0], kk, k), input);
          Value y = loadStaged(loc, bBuffer, at(kk, multi[1], n), input);
          scf::YieldOp::create(
              b, loc,
              buildWgmmaAccumulate(b, loc, steps.getRegionIterArgs()[0], x, y));
          b.setInsertionPointAfter(steps);
          return buildWgmmaFinish(b, loc, steps.getResult(0), f32);
        });
    map.map(op.getResult(), result);
    return success();
  }

  Value warp = arith::DivUIOp::create(b, loc, ctx.lane, index(loc, 32));
  Value inWarp = arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 32));
  Value g = arith::DivUIOp::create(b, loc, inWarp, index(loc, 4));
  Value t = arith::RemUIOp::create(b, loc, inWarp, index(loc, 4));
  Value twoT = arith::MulIOp::create(b, loc, t, index(loc, 2));
  int64_t slab = m / 4;
  Value slabRow = arith::MulIOp::create(b, loc, warp, index(loc, slab));
  auto pairType = VectorType::get({2}, input);
  // Two inputs of a row of a, adjacent in the scratch: one 32-bit load.
  auto rowPair = [&](Value buffer, Value flat) -> Value {
    hazards.scratch = true;
    return vector::LoadOp::create(b, loc, pairType, buffer, flat, false,
                                  llvm::MaybeAlign(4));
  };
  auto concat = [&](Value x, Value y) -> Value {
    auto width = cast<VectorType>(x.getType()).getNumElements();
    SmallVector<int64_t> mask =
        llvm::to_vector(llvm::seq<int64_t>(0, 2 * width));
    return vector::ShuffleOp::create(b, loc, x, y, mask);
  };

  auto tiles = scf::ForOp::create(b, loc, index(loc, 0), index(loc, slab / 16),
                                  index(loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tiles.getBody());
  Value row0 = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, slabRow,
                            arith::MulIOp::create(b, loc,
                                                  tiles.getInductionVar(),
                                                  index(loc, 16))),
      g);
  Value row1 = plus(row0, 8);
  auto columns = scf::ForOp::create(b, loc, index(loc, 0), index(loc, n / 8),
                                    index(loc, 1));
  b.setInsertionPointToStart(columns.getBody());
  Value tileColumn =
      arith::MulIOp::create(b, loc, columns.getInductionVar(), index(loc, 8));
  Value col = arith::AddIOp::create(b, loc, tileColumn, twoT);
  Value bColumn = arith::AddIOp::create(b, loc, tileColumn, g);
  SmallVector<Value> places = {at(row0, col, n), at(row0, plus(col, 1), n),
                               at(row1, col, n), at(row1, plus(col, 1), n)};
  SmallVector<Value> sums;
  for (Value place : places)
    sums.push_back(loadStaged(loc, accBuffer, place, f32));
  auto fragmentType = VectorType::get({4}, f32);
  Value start = vector::FromElementsOp::create(b, loc, fragmentType, sums);
  auto steps = scf::ForOp::create(b, loc, index(loc, 0), index(loc, k / 16),
                                  index(loc, 1), ValueRange{start});
  {
    OpBuilder::InsertionGuard stepGuard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value kc = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, steps.getInductionVar(), index(loc, 16)),
        twoT);
    // a0..a3: rows g and g + 8 at K 2t, 2t + 1, then at K + 8 (loaded in
    // order: the arguments of one call would be built in any order).
    SmallVector<Value> aRegisters;
    for (Value kAt : {kc, plus(kc, 8)})
      for (Value row : {row0, row1})
        aRegisters.push_back(rowPair(aBuffer, at(row, kAt, k)));
    Value low = concat(aRegisters[0], aRegisters[1]);
    Value aFragment = concat(low, concat(aRegisters[2], aRegisters[3]));
    SmallVector<Value> bElements;
    for (int64_t row : {0, 1, 8, 9}) {
      Value kAt = row ? plus(kc, row) : kc;
      bElements.push_back(loadStaged(loc, bBuffer, at(kAt, bColumn, n), input));
    }
    Value bFragment = vector::FromElementsOp::create(
        b, loc, VectorType::get({4}, input), bElements);
    scf::YieldOp::create(
        b, loc,
        ValueRange{MmaSyncOp::create(b, loc, steps.getRegionIterArgs()[0],
                                     aFragment, bFragment)});
  }
  // Each accumulator element has one owner, which read it above.
  for (auto [e, place] : llvm::enumerate(places))
    memref::StoreOp::create(
        b, loc,
        vector::ExtractOp::create(b, loc, steps.getResult(0), int64_t(e)),
        accBuffer, place);
  b.setInsertionPointAfter(tiles);
  barrier(loc);
  map.map(op.getResult(), unstage(loc, accBuffer, accType));
  return success();
}
