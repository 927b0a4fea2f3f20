//===- VectorLoopReductions.cpp - Reductions and contractions as loops ----===//
//
// The part of --mgpu-vectors-to-loops (VectorsToLoops.cpp) that reduces:
// multi-reductions and reductions of big vectors become loops that keep
// partial results in a buffer of the accumulator's shape, and contractions
// (any projected-permutation maps; narrower operands widened) loops over
// their parallel dimensions around a scalar loop over the reduced ones, so
// interpret mode neither unrolls nor holds whole blocks in registers.
//
//===----------------------------------------------------------------------===//

#include "VectorLoops.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace mlir::mgpu::vector_loops {

void VectorLoopsBuilder::rewriteReduction(Operation *op,
                                          vector::CombiningKind kind,
                                          Value source, Value acc,
                                          ArrayRef<bool> reduced) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto type = cast<VectorType>(source.getType());
  Type element = type.getElementType();
  int64_t rank = type.getRank();
  int64_t width = chunkWidth(type);
  auto chunkType = VectorType::get({width}, element);
  BigVector from = lookup(source);
  SmallVector<int64_t> keptShape;
  for (int64_t dim = 0; dim < rank; ++dim)
    if (!reduced[dim])
      keptShape.push_back(type.getDimSize(dim));
  auto keptType = MemRefType::get(keptShape, element);
  Type resultType = op->getResult(0).getType();

  // The partial results, starting from the accumulator.
  // A vector.reduction without accumulator reduces its one row, which
  // then is the result.
  Value partial = allocate(b, loc, keptType);
  if (!acc) {
  } else if (isa<VectorType>(acc.getType())) {
    auto accType = cast<VectorType>(acc.getType());
    if (isBig(accType)) {
      BigVector init = lookup(acc);
      int64_t accWidth = chunkWidth(accType);
      forEachChunk(
          b, loc, accType, [&](OpBuilder &b, Location loc, ValueRange ivs) {
            Value chunk = loadChunk(b, loc, init, ivs,
                                    VectorType::get({accWidth}, element));
            vector::StoreOp::create(b, loc, chunk, partial, ivs);
          });
    } else {
      SmallVector<Value> zeros(accType.getRank(), constant(b, loc, 0));
      SmallVector<bool> inBounds(accType.getRank(), true);
      vector::TransferWriteOp::create(b, loc, acc, partial, zeros,
                                      ArrayRef<bool>(inBounds));
    }
  } else {
    memref::StoreOp::create(b, loc, acc, partial);
  }

  auto keptIndices = [&](ValueRange ivs) {
    SmallVector<Value> kept;
    for (int64_t dim = 0; dim < (int64_t)ivs.size(); ++dim)
      if (!reduced[dim])
        kept.push_back(ivs[dim]);
    return kept;
  };
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t dim = 0; dim < rank; ++dim) {
    bool inner = dim + 1 == rank;
    // A reduced innermost dimension runs as one loop with a chunk
    // accumulator, inside the loops over the others.
    if (inner && reduced[dim])
      break;
    lbs.push_back(constant(b, loc, 0));
    ubs.push_back(constant(b, loc, type.getDimSize(dim)));
    steps.push_back(constant(b, loc, inner ? width : 1));
  }
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        if (!reduced[rank - 1]) {
          SmallVector<Value> at = keptIndices(ivs);
          Value chunk = loadChunk(b, loc, from, ivs, chunkType);
          Value sofar = vector::LoadOp::create(b, loc, chunkType, partial, at);
          vector::StoreOp::create(
              b, loc, vector::makeArithReduction(b, loc, kind, chunk, sofar),
              partial, at);
          return;
        }
        SmallVector<Value> at(ivs);
        at.push_back(constant(b, loc, 0));
        Value first = loadChunk(b, loc, from, at, chunkType);
        auto loop = scf::ForOp::create(
            b, loc, constant(b, loc, width),
            constant(b, loc, type.getDimSize(rank - 1)),
            constant(b, loc, width), ValueRange{first},
            [&](OpBuilder &b, Location loc, Value j, ValueRange carried) {
              SmallVector<Value> next(ivs);
              next.push_back(j);
              Value chunk = loadChunk(b, loc, from, next, chunkType);
              scf::YieldOp::create(
                  b, loc,
                  vector::makeArithReduction(b, loc, kind, chunk, carried[0]));
            });
        Value sum =
            vector::ReductionOp::create(b, loc, kind, loop.getResult(0));
        SmallVector<Value> kept = keptIndices(ivs);
        if (acc) {
          Value sofar = memref::LoadOp::create(b, loc, partial, kept);
          sum = vector::makeArithReduction(b, loc, kind, sum, sofar);
        }
        memref::StoreOp::create(b, loc, sum, partial, kept);
      });

  Value result = op->getResult(0);
  if (!isa<VectorType>(resultType)) {
    result.replaceAllUsesWith(memref::LoadOp::create(b, loc, partial));
  } else if (isBig(resultType)) {
    setIdentity(result, partial, keptShape.size());
  } else {
    SmallVector<Value> zeros(keptShape.size(), constant(b, loc, 0));
    SmallVector<bool> inBounds(keptShape.size(), true);
    result.replaceAllUsesWith(vector::TransferReadOp::create(
        b, loc, cast<VectorType>(resultType), partial, zeros, std::nullopt,
        ArrayRef<bool>(inBounds)));
  }
}

/// A contraction as loops over its parallel dimensions around a scalar
/// loop over the reduced ones, whatever its indexing maps: LLVM's lowering
/// unrolls every product (a 128x128x64 one did not compile in a minute).
void VectorLoopsBuilder::rewriteContraction(vector::ContractionOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> sizes(maps[0].getNumDims(), 1);
  for (auto [map, type] :
       llvm::zip(ArrayRef(maps).take_front(2),
                 SmallVector<VectorType>{op.getLhsType(), op.getRhsType()}))
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      sizes[cast<AffineDimExpr>(expr).getPosition()] = type.getDimSize(i);
  Type accType = op.getAccType();
  Type element = getElementTypeOrSelf(accType);
  auto accVector = dyn_cast<VectorType>(accType);
  Value partial = allocate(
      b, loc,
      MemRefType::get(accVector ? accVector.getShape() : ArrayRef<int64_t>{},
                      element));
  if (accVector) {
    BigVector init = lookup(op.getAcc());
    auto chunk = VectorType::get({chunkWidth(accVector)}, element);
    forEachChunk(
        b, loc, accVector, [&](OpBuilder &b, Location loc, ValueRange ivs) {
          vector::StoreOp::create(b, loc, loadChunk(b, loc, init, ivs, chunk),
                                  partial, ivs);
        });
  } else {
    memref::StoreOp::create(b, loc, op.getAcc(), partial);
  }

  SmallVector<int64_t> parallel, reduced;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    (kind == vector::IteratorType::parallel ? parallel : reduced).push_back(d);
  auto bounds = [&](ArrayRef<int64_t> dims, SmallVector<Value> &lbs,
                    SmallVector<Value> &ubs, SmallVector<Value> &steps) {
    for (int64_t d : dims) {
      lbs.push_back(constant(b, loc, 0));
      ubs.push_back(constant(b, loc, sizes[d]));
      steps.push_back(constant(b, loc, 1));
    }
  };
  BigVector lhs = lookup(op.getLhs()), rhs = lookup(op.getRhs());
  // Element `ivs` (iteration indices) of an operand through its map,
  // widened to the accumulator's type.
  auto elementOf = [&](OpBuilder &b, Location loc, const BigVector &big,
                       AffineMap map, Type type, ArrayRef<Value> ivs) {
    SmallVector<Value> at;
    for (AffineExpr expr : map.getResults())
      at.push_back(ivs[cast<AffineDimExpr>(expr).getPosition()]);
    Type from = getElementTypeOrSelf(type);
    Value v = vector::ExtractOp::create(
        b, loc, loadChunk(b, loc, big, at, VectorType::get({1}, from)), 0);
    if (from == element)
      return v;
    if (isa<FloatType>(element))
      return Value(arith::ExtFOp::create(b, loc, element, v));
    return Value(arith::ExtSIOp::create(b, loc, element, v));
  };
  SmallVector<Value> lbs, ubs, steps;
  bounds(parallel, lbs, ubs, steps);
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps, [&](OpBuilder &b, Location loc, ValueRange p) {
        SmallVector<Value> ivs(sizes.size());
        for (auto [d, iv] : llvm::zip(parallel, p))
          ivs[d] = iv;
        SmallVector<Value> at;
        for (AffineExpr expr : maps[2].getResults())
          at.push_back(ivs[cast<AffineDimExpr>(expr).getPosition()]);
        Value sofar = memref::LoadOp::create(b, loc, partial, at);
        SmallVector<Value> rlbs, rubs, rsteps;
        bounds(reduced, rlbs, rubs, rsteps);
        scf::LoopNest nest = scf::buildLoopNest(
            b, loc, rlbs, rubs, rsteps, ValueRange{sofar},
            [&](OpBuilder &b, Location loc, ValueRange r, ValueRange sum) {
              for (auto [d, iv] : llvm::zip(reduced, r))
                ivs[d] = iv;
              Value x = elementOf(b, loc, lhs, maps[0], op.getLhsType(), ivs);
              Value y = elementOf(b, loc, rhs, maps[1], op.getRhsType(), ivs);
              Value product = isa<FloatType>(element)
                                  ? Value(arith::MulFOp::create(b, loc, x, y))
                                  : Value(arith::MulIOp::create(b, loc, x, y));
              return scf::ValueVector{vector::makeArithReduction(
                  b, loc, op.getKind(), product, sum[0])};
            });
        memref::StoreOp::create(b, loc, nest.results[0], partial, at);
      });

  Value result = op.getResult();
  if (!accVector) {
    result.replaceAllUsesWith(memref::LoadOp::create(b, loc, partial));
  } else if (isBig(accVector)) {
    setIdentity(result, partial, accVector.getRank());
  } else {
    SmallVector<Value> zeros(accVector.getRank(), constant(b, loc, 0));
    SmallVector<bool> inBounds(accVector.getRank(), true);
    result.replaceAllUsesWith(
        vector::TransferReadOp::create(b, loc, accVector, partial, zeros,
                                       std::nullopt, ArrayRef<bool>(inBounds)));
  }
}

} // namespace mlir::mgpu::vector_loops
