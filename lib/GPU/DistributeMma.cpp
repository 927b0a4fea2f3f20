//===- DistributeMma.cpp - mgpu.mma on mma.sync ---------------------------===//
//
// The distribution of mgpu.mma (plgpu.mma, Ampere's synchronous MMA of
// arrays held by the lanes). The operands are staged row-major in the
// warpgroup scratch, as a contraction's are; then each warp of the
// warpgroup computes its slab of M / 4 rows in m16n8k16 tiles with
// mma.sync: a lane loads its fragments of a (rows g and g + 8 of the tile,
// K columns 2t, 2t + 1 and 2t + 8, 2t + 9, g = lane / 4, t = lane mod 4),
// of b (K rows 2t, 2t + 1 and 2t + 8, 2t + 9 of column g) and of the
// accumulator (rows g and g + 8, columns 2t and 2t + 1) from the scratch,
// runs the K steps with the accumulator in registers, and writes its four
// sums back where it read them: each element has one owner, so the
// accumulator is updated in place, and read back into the lanes' layout
// after a barrier. Without tensor cores (`mma-sync=0`, the pipelines'
// `tensor-cores=0`) each lane computes its own result elements from the
// staged operands instead, in f32 as mma.sync does.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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

  MLIRContext *context = b.getContext();
  Value warp = arith::DivUIOp::create(b, loc, ctx.lane, index(loc, 32));
  Value inWarp = arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 32));
  Value g = arith::DivUIOp::create(b, loc, inWarp, index(loc, 4));
  Value t = arith::RemUIOp::create(b, loc, inWarp, index(loc, 4));
  Value twoT = arith::MulIOp::create(b, loc, t, index(loc, 2));
  int64_t slab = m / 4;
  Value slabRow = arith::MulIOp::create(b, loc, warp, index(loc, slab));
  bool bf16 = input.isBF16();
  auto pairType = VectorType::get({2}, input);
  // A 32-bit register of two inputs: an f16x2 vector, or the bits of two
  // bf16 as NVVM's bf16 MMA takes them.
  auto asRegister = [&](Value pair) -> Value {
    if (!bf16)
      return pair;
    return LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
  };
  auto rowPair = [&](Value buffer, Value flat) {
    hazards.scratch = true;
    return asRegister(vector::LoadOp::create(b, loc, pairType, buffer, flat,
                                             false, llvm::MaybeAlign(4)));
  };
  auto columnPair = [&](Value buffer, Value first, Value second) {
    Value pair = vector::FromElementsOp::create(
        b, loc, pairType,
        ValueRange{loadStaged(loc, buffer, first, input),
                   loadStaged(loc, buffer, second, input)});
    return asRegister(pair);
  };
  auto fragmentType =
      LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(4, f32));
  auto ptxType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;

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
  auto steps = scf::ForOp::create(b, loc, index(loc, 0), index(loc, k / 16),
                                  index(loc, 1), sums);
  {
    OpBuilder::InsertionGuard stepGuard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value kc = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, steps.getInductionVar(), index(loc, 16)),
        twoT);
    SmallVector<Value> aRegs = {rowPair(aBuffer, at(row0, kc, k)),
                                rowPair(aBuffer, at(row1, kc, k)),
                                rowPair(aBuffer, at(row0, plus(kc, 8), k)),
                                rowPair(aBuffer, at(row1, plus(kc, 8), k))};
    SmallVector<Value> bRegs = {
        columnPair(bBuffer, at(kc, bColumn, n), at(plus(kc, 1), bColumn, n)),
        columnPair(bBuffer, at(plus(kc, 8), bColumn, n),
                   at(plus(kc, 9), bColumn, n))};
    Value d = NVVM::MmaOp::create(
        b, loc, fragmentType, aRegs, bRegs, steps.getRegionIterArgs(),
        ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> next;
    for (int64_t i = 0; i < 4; ++i)
      next.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
    scf::YieldOp::create(b, loc, next);
  }
  // Each accumulator element has one owner, which read it above.
  for (auto [place, sum] : llvm::zip(places, steps.getResults()))
    memref::StoreOp::create(b, loc, sum, accBuffer, place);
  b.setInsertionPointAfter(tiles);
  barrier(loc);
  map.map(op.getResult(), unstage(loc, accBuffer, accType));
  return success();
}
