//===- DistributeContractions.cpp - Contractions and wgmma ----------------===//
//
// The distribution of vector.contract (each lane computes the elements it
// owns from operands staged in the scratch) and of mgpu.wgmma: on ordinary
// instructions, as a loop over k updating the accumulator in its lane
// layout; on the tensor cores, with operands copied into the core-matrix
// layout, read in place from tiled, swizzled buffers or, for an a held in
// WGMMA fragments, taken from the registers (mgpu.wgmma_register_a), and the
// accumulator handed over between the lane layout and the WGMMA fragment
// layout (lanesToFragments, fragmentsToLanes) only where a use needs it.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeContract(vector::ContractionOp op) {
  Location loc = op.getLoc();
  auto accType = dyn_cast<VectorType>(op.getAccType());
  if (!accType)
    return cannotDistribute(op, "a contraction to a scalar is not supported; "
                                "use vector.reduction");
  VectorType lhsType = op.getLhsType(), rhsType = op.getRhsType();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numDims = maps[0].getNumDims();

  // Size of every iteration dimension, from the operand that indexes it.
  SmallVector<int64_t> dimSizes(numDims, 1);
  auto record = [&](AffineMap m, ArrayRef<int64_t> shape) {
    for (auto [i, expr] : llvm::enumerate(m.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        dimSizes[dim.getPosition()] = shape[i];
  };
  record(maps[0], lhsType.getShape());
  record(maps[1], rhsType.getShape());
  record(maps[2], accType.getShape());
  SmallVector<unsigned> reductionDims;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == vector::IteratorType::reduction)
      reductionDims.push_back(d);

  beginExchange(loc);
  Value lhsBuffer = stage(loc, lookup(op.getLhs()), lhsType);
  Value rhsBuffer = stage(loc, lookup(op.getRhs()), rhsType);
  Value accBuffer = stage(loc, lookup(op.getAcc()), accType);
  barrier(loc);

  Type accElement = accType.getElementType();
  auto promote = [&](Value v) -> Value {
    if (v.getType() == accElement)
      return v;
    if (isa<FloatType>(accElement))
      return arith::ExtFOp::create(b, loc, accElement, v);
    return arith::ExtSIOp::create(b, loc, accElement, v);
  };
  auto operandIndex = [&](AffineMap m, ArrayRef<Value> dims) {
    SmallVector<Value> indices;
    for (AffineExpr expr : m.getResults())
      indices.push_back(dims[cast<AffineDimExpr>(expr).getPosition()]);
    return indices;
  };
  for (AffineMap m : maps)
    if (!m.isProjectedPermutation())
      return cannotDistribute(op, "indexing maps must be projected "
                                  "permutations");

  Value lane = buildPerElement(
      loc, accType, [&](ArrayRef<Value> multi, Value flat) -> Value {
        SmallVector<Value> dims(numDims, index(loc, 0));
        for (auto [i, expr] : llvm::enumerate(maps[2].getResults()))
          dims[cast<AffineDimExpr>(expr).getPosition()] = multi[i];
        Value acc = loadStaged(loc, accBuffer, flat, accElement);
        // One loop per reduction dimension, innermost last.
        std::function<Value(unsigned, Value)> loop = [&](unsigned r,
                                                         Value acc) -> Value {
          if (r == reductionDims.size()) {
            Value l = loadStaged(
                loc, lhsBuffer,
                linearize(loc, operandIndex(maps[0], dims), lhsType.getShape()),
                lhsType.getElementType());
            Value rr = loadStaged(
                loc, rhsBuffer,
                linearize(loc, operandIndex(maps[1], dims), rhsType.getShape()),
                rhsType.getElementType());
            l = promote(l);
            rr = promote(rr);
            Value product = isa<FloatType>(accElement)
                                ? Value(arith::MulFOp::create(b, loc, l, rr))
                                : Value(arith::MulIOp::create(b, loc, l, rr));
            return vector::makeArithReduction(b, loc, op.getKind(), product,
                                              acc);
          }
          auto forOp = scf::ForOp::create(
              b, loc, index(loc, 0), index(loc, dimSizes[reductionDims[r]]),
              index(loc, 1), ValueRange{acc});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(forOp.getBody());
          dims[reductionDims[r]] = forOp.getInductionVar();
          Value next = loop(r + 1, forOp.getRegionIterArgs()[0]);
          scf::YieldOp::create(b, loc, next);
          return forOp.getResult(0);
        };
        return loop(0, acc);
      });
  map.map(op.getResult(), lane);
  return success();
}

/// wgmma with ordinary instructions: a loop over k in which each lane
/// updates the result elements it owns from a and b in shared memory (a in
/// registers is staged there first), so the accumulator keeps its layout
/// and only one lane vector is live. The tensor-core lowering is a separate
/// path.
LogicalResult Distributor::distributeWgmma(WgmmaOp op) {
  if (isOnTensorCores(op))
    return distributeWgmmaOnTensorCores(op);
  if (op.getATransformsAttr() || op.getBTransformsAttr())
    return cannotDistribute(op, "a tiled, swizzled operand is read only by "
                                "the tensor cores (tensor-cores=1, f16 or "
                                "bf16 into an f32 accumulator of at most "
                                "64 KiB)");
  Location loc = op.getLoc();
  auto accType = cast<VectorType>(op.getAcc().getType());
  Value a = lookup(op.getA()), bMatrix = lookup(op.getB());
  auto aVector = dyn_cast<VectorType>(op.getA().getType());
  int64_t k = cast<ShapedType>(op.getB().getType()).getDimSize(0);
  Value aStaged;
  if (aVector) {
    beginExchange(loc);
    aStaged = stage(loc, a, aVector);
    barrier(loc);
  }
  Value start = buildWgmmaStart(b, loc, lookup(op.getAcc()));
  auto steps = scf::ForOp::create(b, loc, index(loc, 0), index(loc, k),
                                  index(loc, 1), ValueRange{start});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value kk = steps.getInductionVar();
    Value sum = updatePerElement(
        loc, accType.clone(getElementTypeOrSelf(start.getType())),
        steps.getRegionIterArgs()[0],
        [&](ArrayRef<Value> multi, Value old) -> Value {
          Value x;
          if (aStaged) {
            Value flat = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, multi[0], index(loc, k)),
                kk);
            x = loadStaged(loc, aStaged, flat, aVector.getElementType());
          } else {
            x = memref::LoadOp::create(b, loc, a, ValueRange{multi[0], kk});
          }
          Value y =
              memref::LoadOp::create(b, loc, bMatrix, ValueRange{kk, multi[1]});
          return buildWgmmaAccumulate(b, loc, old, x, y);
        });
    scf::YieldOp::create(b, loc, sum);
  }
  map.map(op.getResult(),
          buildWgmmaFinish(b, loc, steps.getResult(0), getLaneType(accType)));
  return success();
}

/// wgmma on the tensor cores. The lanes copy a and b (transposed) into the
/// warpgroup scratch in the core-matrix layout wgmma reads (unless they are
/// tiled in shared memory, or a is held in WGMMA fragments: wgmma reads
/// those registers), hand the
/// accumulator over from the lane layout to the WGMMA fragment layout
/// through the scratch, run the MMAs of each 64-row tile (fenced, committed
/// and waited for: the op is synchronous for now), and hand the fragments
/// back the same way.
LogicalResult Distributor::distributeWgmmaOnTensorCores(WgmmaOp op) {
  Location loc = op.getLoc();
  MLIRContext *context = b.getContext();
  auto accType = cast<VectorType>(op.getAcc().getType());
  auto aType = cast<ShapedType>(op.getA().getType());
  // a in registers held in fragments (p = exp(s) of attention) goes to the
  // tensor cores from the registers; held otherwise, it is staged.
  Value aFragments = isa<VectorType>(op.getA().getType()) &&
                             heldKindOf(op.getA()) == LayoutKind::wgmma
                         ? fragmentOf.lookup(op.getA())
                         : Value();
  Value a = aFragments ? aFragments : lookup(op.getA());
  Value bMatrix = lookup(op.getB());
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
          k = aType.getDimSize(1);
  Type input = op.getInputType();
  // a and b may differ (f8 e4m3 x e5m2); 8-bit and tf32 inputs are K-major
  // (--mgpu-select-tensor-cores takes them only so).
  Type aInput = getElementTypeOrSelf(op.getA().getType());
  int64_t aBytes = aInput.getIntOrFloatBitWidth() / 8,
          bBytes = input.getIntOrFloatBitWidth() / 8;
  Value lanes = index(loc, kWarpgroupLanes);

  // The accumulator: n / 2 registers per 64-row tile.
  Value accFragments = lookupFragments(op.getAcc());
  auto tileAccumulator = [&](int64_t tile) -> Value {
    return vector::ExtractStridedSliceOp::create(b, loc, accFragments,
                                                 tile * (n / 2), n / 2, 1);
  };

  // Operands in a tiled, swizzled buffer are read in place. The others are
  // copied into the scratch in the core-matrix layout: a K-major and b
  // N-major, b first so that the next wgmma of the block can keep it.
  ArrayAttr aTransforms = op.getATransformsAttr(),
            bTransforms = op.getBTransformsAttr();
  bool aStaged = !aTransforms && !aFragments;
  bool copies = aStaged || (!bTransforms && !reusesB(op));
  Value aTiles, bTiles;
  if (aStaged || !bTransforms)
    beginExchange(loc);
  if (!bTransforms)
    bTiles = ctx.scratch->allocate(b, loc, input, n * k);
  if (aStaged)
    aTiles = ctx.scratch->allocate(b, loc, aInput, m * k);
  // Copies the 16-byte rows of core matrices of a rows x cols matrix whose
  // core rows run along its columns: unit (r, c) is the 16 bytes (E
  // elements) from column E c of row r. Lanes take consecutive c with rows
  // permuted within
  // each group of 8 (r = r0 with its low bits plus c), so that the 8 lanes of
  // a quarter warp read 8 different 16-byte columns and write 8 different
  // rows of core matrices: neither side has bank conflicts.
  auto copyRows = [&](Value from, int64_t rows, int64_t cols,
                      function_ref<Value(Value r, Value c)> offset, Value to) {
    Type element = cast<MemRefType>(to.getType()).getElementType();
    int64_t perChunk = 16 / (element.getIntOrFloatBitWidth() / 8);
    auto chunk = VectorType::get({perChunk}, element);
    int64_t chunks = cols / perChunk;
    auto loop =
        scf::ForOp::create(b, loc, ctx.lane, index(loc, rows * chunks), lanes);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value unit = loop.getInductionVar();
    Value c = arith::RemUIOp::create(b, loc, unit, index(loc, chunks));
    Value r0 = arith::DivUIOp::create(b, loc, unit, index(loc, chunks));
    Value r = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, r0, index(loc, ~int64_t(7))),
        arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, r0, c),
                              index(loc, 7)));
    Value col = arith::MulIOp::create(b, loc, c, index(loc, perChunk));
    Value v;
    auto fromType = cast<MemRefType>(from.getType());
    if (fromType.getRank() == 1) {
      // A row-major staging buffer.
      Value flat = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, r, index(loc, cols)), col);
      v = vector::LoadOp::create(b, loc, chunk, from, ValueRange{flat});
    } else if (fromType.isLastDimUnitStride()) {
      v = vector::LoadOp::create(b, loc, chunk, from, ValueRange{r, col});
    } else {
      SmallVector<Value> elements;
      for (int64_t e = 0; e < perChunk; ++e)
        elements.push_back(memref::LoadOp::create(
            b, loc, from,
            ValueRange{r, arith::AddIOp::create(b, loc, col, index(loc, e))}));
      v = vector::FromElementsOp::create(b, loc, chunk, elements);
    }
    Value at =
        arith::DivUIOp::create(b, loc, offset(r, col),
                               index(loc, element.getIntOrFloatBitWidth() / 8));
    vector::StoreOp::create(b, loc, v, to, ValueRange{at});
  };
  if (auto aVector = dyn_cast<VectorType>(aType); aVector && aStaged) {
    // a in registers in another layout: staged row-major, then copied like
    // a block.
    completeMmas(loc);
    a = stage(loc, a, aVector);
    hazards.scratch = true;
    barrier(loc);
  }
  if (aStaged)
    copyRows(
        a, m, k,
        [&](Value r, Value c) {
          return buildCoreMatrixOffset(b, loc, r, c, k, /*mnMajor=*/false,
                                       aBytes);
        },
        aTiles);
  // b is copied N-major, unless it is a transposed view of a K-major matrix
  // (q k^T), which is copied K-major from that matrix.
  auto transposed = op.getB().getDefiningOp<memref::TransposeOp>();
  bool bMnMajor = !transposed || transposed.getPermutation() !=
                                     AffineMap::getPermutationMap(
                                         ArrayRef<unsigned>{1, 0}, context);
  if (!bTransforms && !reusesB(op)) {
    if (bMnMajor)
      copyRows(
          bMatrix, k, n,
          [&](Value r, Value c) {
            return buildCoreMatrixOffset(b, loc, c, r, k, /*mnMajor=*/true);
          },
          bTiles);
    else
      copyRows(
          lookup(transposed.getIn()), n, k,
          [&](Value r, Value c) {
            return buildCoreMatrixOffset(b, loc, r, c, k, /*mnMajor=*/false,
                                         bBytes);
          },
          bTiles);
  }
  lastTensorCoreB = {op, bTransforms ? Value() : op.getB()};
  if (copies) {
    // The tensor cores read shared memory through the async proxy: the
    // lanes' copies are fenced as a kernel's own writes are.
    CommitSmemOp::create(b, loc);
    hazards.scratch = true;
    barrier(loc);
  }

  auto address = [&](Value buffer) -> Value {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), base);
  };
  MmaOperand bOperand =
      bTransforms
          ? tiledOperand(op, bMatrix, bTransforms, /*isA=*/false)
          : getCoreMatrixOperand(b, loc, address(bTiles), k, bMnMajor, bBytes);
  Value result = zeroVector(loc, getLaneType(accType));
  if (aFragments) {
    // Each 64-row tile's accumulator and a registers, k / 2 of them per
    // lane, go to wgmma as they are.
    for (int64_t tile = 0; tile < m / 64; ++tile) {
      Value acc = tileAccumulator(tile);
      Value aTile = vector::ExtractStridedSliceOp::create(
          b, loc, aFragments, tile * (k / 2), k / 2, 1);
      acc = buildRegisterATensorCoreMma(b, loc, acc, aTile, bOperand, k,
                                        /*async=*/!copies);
      result = vector::InsertStridedSliceOp::create(b, loc, acc, result,
                                                    tile * (n / 2), 1);
    }
  }
  for (int64_t tile = 0; !aFragments && tile < m / 64; ++tile) {
    MmaOperand aOperand;
    if (aTransforms) {
      // The rows of 64-row tile `tile`: a view of the same buffer.
      auto rows = memref::SubViewOp::create(
          b, loc, a, ArrayRef<int64_t>{int64_t(tile) * 64, 0},
          ArrayRef<int64_t>{64, k}, ArrayRef<int64_t>{1, 1});
      aOperand = tiledOperand(op, rows, aTransforms, /*isA=*/true);
    } else {
      Value tileAddress = arith::AddIOp::create(
          b, loc, address(aTiles),
          arith::ConstantIntOp::create(b, loc, tile * 64 * k * aBytes, 64));
      aOperand = getCoreMatrixOperand(b, loc, tileAddress, k, false, aBytes);
    }
    Value acc = buildTensorCoreMma(b, loc, tileAccumulator(tile), aOperand,
                                   bOperand, k, aInput, input,
                                   /*async=*/!copies);
    result = vector::InsertStridedSliceOp::create(b, loc, acc, result,
                                                  tile * (n / 2), 1);
  }
  // The tensor cores read a and b from the scratch: no lane may reuse it
  // before every lane's MMAs are done. MMAs reading in place stay in flight.
  if (copies)
    hazards.scratch = true;
  else
    pendingMmas = true;
  // Each warp's part of an MMA reads its operands on its own and completes
  // at that warp's wait: before an arrival that frees a buffer read in place
  // (or a copy or lane write into it), every warp must have passed its wait.
  // MMAs left in flight count at their wait (completeMmas).
  if ((aTransforms || bTransforms) && copies)
    hazards.mmas = true;
  setHeld(loc, op.getResult(), result);
  return success();
}

MmaOperand Distributor::tiledOperand(WgmmaOp op, Value operand,
                                     ArrayAttr transforms, bool isA) {
  Location loc = op.getLoc();
  // The verifier accepted the original operand; a's 64-row views are
  // tile-aligned too (its tiles have 8 rows or a multiple of 64).
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, isA ? "a" : "b", operand.getType(), transforms,
                      /*dynamicOffsets=*/true);
  assert(succeeded(tiled) && "verified tiled operand");
  const SwizzledTiling &tiling = tiled->tiling;
  int64_t tilesPerRow = tiled->width / tiling.cols;
  // The view's first element in the buffer, in bytes (at a run-time
  // offset, found at run time).
  Value origin = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), buildTiledOperandOrigin(b, loc, operand, *tiled));
  Value base = arith::AddIOp::create(
      b, loc,
      arith::IndexCastOp::create(
          b, loc, b.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand)),
      origin);
  MmaOperand result;
  result.swizzleBytes = tiling.swizzleBytes;
  const int64_t kStep = getWgmmaKStep(tiling.elementBytes);
  int64_t rowBytes = tiling.swizzleBytes;
  // The verifier checked that the 8-row groups an MMA reads are evenly
  // spaced: one atom apart in a tile, a row of tiles apart with 8-row tiles.
  // K-major: a, or a transposed b whose buffer holds N rows of K; M- or
  // N-major: b, or a transposed a whose buffer holds K rows of M.
  bool kMajor = isA != tiled->transposed;
  int64_t span = !kMajor ? kStep
                 : isA   ? 64
                         : cast<ShapedType>(operand.getType()).getDimSize(1);
  int64_t groupStride = *getTiledGroupStride(*tiled, span);
  if (kMajor) {
    // K-major (a, or a transposed b whose buffer holds N rows of K): rows
    // of the swizzle's bytes, 8-row groups `groupStride` apart; a K step
    // moves the start along the row, or to the next tile where a row holds
    // one step (the swizzle applies to the address).
    result.leading = 16; // unused with a swizzle; 1 in 16-byte units
    result.stride = groupStride;
    result.address = [this, loc, base, tiling, kStep](int64_t step) {
      int64_t col = step * kStep;
      int64_t offset = (col / tiling.cols) * tiling.tileBytes() +
                       (col % tiling.cols) * tiling.elementBytes;
      return Value(arith::AddIOp::create(
          b, loc, base, arith::ConstantIntOp::create(b, loc, offset, 64)));
    };
  } else {
    // M- or N-major: 8 K rows of the swizzle's bytes per atom, atoms along
    // M or N one tile apart, 8-row groups `groupStride` apart; a K step
    // moves down 16 rows.
    result.mnMajor = true;
    result.leading = tiling.tileBytes();
    result.stride = groupStride;
    result.address = [this, loc, base, tiling, tilesPerRow, kStep,
                      rowBytes](int64_t step) {
      int64_t row = step * kStep;
      int64_t offset = (row / tiling.rows) * tilesPerRow * tiling.tileBytes() +
                       (row % tiling.rows) * rowBytes;
      return Value(arith::AddIOp::create(
          b, loc, base, arith::ConstantIntOp::create(b, loc, offset, 64)));
    };
  }
  return result;
}

/// The previous op of the block was a tensor-core wgmma with the same b
/// (nothing ran in between): b is still in the scratch where this wgmma
/// copies it.
bool Distributor::reusesB(WgmmaOp op) const {
  auto previous = dyn_cast_or_null<WgmmaOp>(op->getPrevNode());
  return previous && lastTensorCoreB.first == previous &&
         lastTensorCoreB.second == op.getB() &&
         previous.getB().getType() == op.getB().getType();
}

std::pair<Value, Value>
Distributor::fragmentPosition(Location loc, LayoutKind kind, int64_t reg) {
  if (kind == LayoutKind::wgmma)
    return buildFragmentPosition(b, loc, ctx.lane, reg);
  // Register reg is element v of row half h of column group g; warp w holds
  // rows 16w..16w+15 of the tile, lane l of it rows l/4 (+ 8), except in
  // the transposed layout (see #mgpu.layout).
  auto [columns, vector] = getFragmentTiling(kind);
  int64_t group = reg / (2 * vector), half = (reg / vector) % 2,
          v = reg % vector;
  auto mul = [&](Value x, int64_t c) {
    return arith::MulIOp::create(b, loc, x, index(loc, c));
  };
  auto div = [&](Value x, int64_t c) {
    return arith::DivUIOp::create(b, loc, x, index(loc, c));
  };
  auto rem = [&](Value x, int64_t c) {
    return arith::RemUIOp::create(b, loc, x, index(loc, c));
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  };
  Value inWarp = rem(ctx.lane, 32);
  Value row = add(mul(div(ctx.lane, 32), 16), index(loc, 8 * half));
  Value col = index(loc, group * columns);
  switch (kind) {
  case LayoutKind::wgmma_transposed:
    // The 2 x 2 blocks of wgmma transposed: rows 2(l/8) + v, column
    // 2(l%4) + (l/4)%2.
    row = add(row, add(mul(div(inWarp, 8), 2), index(loc, v)));
    col = add(col, add(mul(rem(inWarp, 4), 2), rem(div(inWarp, 4), 2)));
    break;
  case LayoutKind::wgmma_upcast_2x: {
    // Lane quarters 0, 2, 1, 3 from left to right: bit 0 picks the half of
    // the group, bit 1 the quarter within it.
    Value quarter = rem(inWarp, 4);
    row = add(row, div(inWarp, 4));
    col = add(col, add(add(mul(rem(quarter, 2), 8), mul(div(quarter, 2), 4)),
                       index(loc, v)));
    break;
  }
  default:
    row = add(row, div(inWarp, 4));
    col = add(col, add(mul(rem(inWarp, 4), vector), index(loc, v)));
    break;
  }
  return {row, col};
}

Value Distributor::fragmentElementIndex(Location loc, int64_t tile, int64_t reg,
                                        int64_t n, LayoutKind kind) {
  auto [row, col] = fragmentPosition(loc, kind, reg);
  return arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, arith::AddIOp::create(b, loc, row, index(loc, tile * 64)),
          index(loc, n)),
      col);
}

/// A value handed over from the lane layout to a fragment layout through
/// the scratch.
Value Distributor::lanesToFragments(Location loc, Value lanes, VectorType type,
                                    LayoutKind kind) {
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  Type element = type.getElementType();
  beginExchange(loc);
  Value buffer = stage(loc, lanes, type);
  barrier(loc);
  Value result = zeroVector(loc, getLaneType(type));
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; ++reg) {
      Value flat = fragmentElementIndex(loc, tile, reg, n, kind);
      result = vector::InsertOp::create(b, loc,
                                        loadStaged(loc, buffer, flat, element),
                                        result, tile * (n / 2) + reg);
    }
  return result;
}

/// Writes the elements of `fragments` (a `type` value in the fragment
/// layout `kind`) to a fresh row-major scratch buffer. The caller places
/// the barrier.
Value Distributor::stageFragments(Location loc, Value fragments,
                                  VectorType type, LayoutKind kind) {
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  Type element = storageType(type.getElementType());
  Value buffer = ctx.scratch->allocate(b, loc, element, m * n);
  fragments = toStorage(loc, fragments);
  // Registers reg..reg + V - 1 are adjacent columns of one row (one
  // element at a time where they are rows).
  int64_t step =
      kind == LayoutKind::wgmma_transposed ? 1 : getFragmentTiling(kind).vector;
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; reg += step) {
      Value flat = fragmentElementIndex(loc, tile, reg, n, kind);
      vector::StoreOp::create(
          b, loc,
          vector::ExtractStridedSliceOp::create(b, loc, fragments,
                                                tile * (n / 2) + reg, step, 1),
          buffer, ValueRange{flat}, false,
          llvm::MaybeAlign(step * storageBytes(element)));
    }
  hazards.scratch = true;
  return buffer;
}

/// The way back, also through the scratch.
Value Distributor::fragmentsToLanes(Location loc, Value fragments,
                                    VectorType type, LayoutKind kind) {
  completeMmas(loc);
  beginExchange(loc);
  Value buffer = stageFragments(loc, fragments, type, kind);
  barrier(loc);
  return unstage(loc, buffer, type);
}
