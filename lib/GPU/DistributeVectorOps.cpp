//===- DistributeVectorOps.cpp - Vector ops over the lanes ----------------===//
//
// The distribution of the vector ops that are not memory accesses or
// contractions: ops that combine elements at the same position keep the
// layout and apply to the lane vectors (elementwise ops, splat constants,
// shape casts between equal chunk widths); ops that move elements between
// lanes (broadcast, transpose, extract, insert, strided slices, other shape
// casts) stage their operands in the warpgroup scratch and read back what
// each lane owns; reductions fold a strided part on each lane, then combine
// within groups of lanes with xor shuffles and, across warps, the scratch.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

//===----------------------------------------------------------------------===//
// Layout-preserving ops
//===----------------------------------------------------------------------===//

/// In the strided layout and in the wgmma layout alike, a lane holds the
/// elements at the same positions of every operand and of the result: the
/// op applies to the lane vectors (which have the same type in both).
LogicalResult Distributor::distributeElementwise(Operation *op) {
  LayoutKind kind = layoutOf(op->getResult(0));
  bool held = isFragmentLayout(kind);
  // The registers of MMAs in flight are not readable yet.
  if (held)
    completeMmas(op->getLoc());
  SmallVector<Value> operands =
      llvm::map_to_vector(op->getOperands(), [&](Value v) {
        return held && isa<VectorType>(v.getType()) ? lookupIn(v, kind)
                                                    : lookup(v);
      });
  SmallVector<Type> types;
  for (Type t : op->getResultTypes()) {
    auto vector = dyn_cast<VectorType>(t);
    types.push_back(!vector ? t
                    : held  ? Type(laneTypeIn(vector, kind))
                            : Type(getLaneType(vector)));
  }
  OperationState state(op->getLoc(), op->getName().getIdentifier(), operands,
                       types, op->getAttrs());
  state.attributes.erase(kOutLayoutsAttrName);
  Operation *lane = b.create(state);
  for (auto [original, value] :
       llvm::zip(op->getResults(), lane->getResults())) {
    if (held)
      setHeld(op->getLoc(), original, value);
    else
      map.map(original, value);
  }
  return success();
}

LogicalResult Distributor::distributeConstant(arith::ConstantOp op) {
  auto type = dyn_cast<VectorType>(op.getType());
  if (!type) {
    b.clone(*op, map);
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return cannotDistribute(op, "only dense vector constants are supported");
  if (!dense.isSplat()) {
    auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
    return distributeFromValues(
        op, arith::ConstantOp::create(b, op.getLoc(), dense.reshape(flat)));
  }
  VectorType laneType = getLaneType(type);
  Value lane = arith::ConstantOp::create(
      b, op.getLoc(),
      DenseElementsAttr::get(laneType, dense.getSplatValue<Attribute>()));
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeShapeCast(vector::ShapeCastOp op) {
  Location loc = op.getLoc();
  // M <-> M x 1 in the row layout: the same rows on the same lanes.
  if (layoutOf(op.getResult()) == LayoutKind::wgmma_row) {
    setHeld(loc, op.getResult(),
            lookupIn(op.getSource(), LayoutKind::wgmma_row));
    return success();
  }
  VectorType source = op.getSourceVectorType(),
             result = op.getResultVectorType();
  if (Layout(source).v == Layout(result).v) {
    map.map(op.getResult(), lookup(op.getSource()));
    return success();
  }
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  map.map(op.getResult(), unstage(loc, buffer, result));
  hazards.scratch = true;
  return success();
}

/// A bitcast whose chunks hold the same bits on both sides (2 bytes <-> 4
/// nibbles, as --mgpu-pack-sub-byte makes them) keeps every chunk on its
/// lane: each lane bitcasts its own vector.
LogicalResult Distributor::distributeBitCast(vector::BitCastOp op) {
  VectorType source = op.getSourceVectorType(),
             result = op.getResultVectorType();
  Layout from(source), to(result);
  if (layoutOf(op.getSource()) != LayoutKind::strided ||
      layoutOf(op.getResult()) != LayoutKind::strided ||
      from.n / from.v != to.n / to.v ||
      from.v * source.getElementTypeBitWidth() !=
          to.v * result.getElementTypeBitWidth())
    return op.emitOpError()
           << "cannot be distributed over a warpgroup: its lanes would hold "
              "different bits on the two sides (bitcast vectors whose "
              "innermost sizes hold the same bits: 2 x i8 <-> 4 x i4)";
  map.map(op.getResult(),
          vector::BitCastOp::create(b, op.getLoc(), getLaneType(result),
                                    lookup(op.getSource())));
  return success();
}

/// A vector every lane knows whole (a constant, uniform elements), given
/// flat as `whole`: each lane picks its own elements.
LogicalResult Distributor::distributeFromValues(Operation *op, Value whole) {
  auto type = cast<VectorType>(op->getResult(0).getType());
  map.map(op->getResult(0),
          buildPerElement(op->getLoc(), type, [&](ArrayRef<Value>, Value flat) {
            return vector::ExtractOp::create(b, op->getLoc(), whole,
                                             ArrayRef<OpFoldResult>{flat});
          }));
  return success();
}

//===----------------------------------------------------------------------===//
// Ops that move elements between lanes
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeBroadcast(vector::BroadcastOp op) {
  if (layoutOf(op.getResult()) == LayoutKind::wgmma && getBroadcastRows(op))
    return distributeRowBroadcast(op);
  if (layoutOf(op.getResult()) == LayoutKind::wgmma &&
      getBroadcastColumns(op) &&
      succeeded(verifyLayoutFits(LayoutKind::wgmma_col,
                                 cast<VectorType>(op.getSourceType()))))
    return distributeColumnBroadcast(op);
  if (feedsRowBroadcast(op))
    return success();
  Location loc = op.getLoc();
  VectorType result = op.getResultVectorType();
  auto source = dyn_cast<VectorType>(op.getSourceType());
  if (!source) {
    map.map(op.getResult(),
            vector::BroadcastOp::create(b, loc, getLaneType(result),
                                        lookup(op.getSource())));
    return success();
  }
  int64_t rankDiff = result.getRank() - source.getRank();
  map.map(op.getResult(),
          gatherThroughScratch(
              loc, op.getSource(), source, result, [&](ArrayRef<Value> multi) {
                SmallVector<Value> sourceIndex;
                for (int64_t d = 0; d < source.getRank(); ++d)
                  sourceIndex.push_back(source.getDimSize(d) == 1
                                            ? index(loc, 0)
                                            : multi[rankDiff + d]);
                return sourceIndex;
              }));
  return success();
}

LogicalResult Distributor::distributeTranspose(vector::TransposeOp op) {
  if (layoutOf(op.getResult()) == LayoutKind::wgmma && getBroadcastRows(op))
    return distributeRowBroadcast(op);
  Location loc = op.getLoc();
  ArrayRef<int64_t> perm = op.getPermutation();
  map.map(op.getResult(),
          gatherThroughScratch(loc, op.getVector(), op.getSourceVectorType(),
                               op.getResultVectorType(),
                               [&](ArrayRef<Value> multi) {
                                 SmallVector<Value> sourceIndex(perm.size());
                                 for (auto [i, p] : llvm::enumerate(perm))
                                   sourceIndex[p] = multi[i];
                                 return sourceIndex;
                               }));
  return success();
}

Value Distributor::gatherThroughScratch(
    Location loc, Value source, VectorType sourceType, VectorType result,
    function_ref<SmallVector<Value>(ArrayRef<Value>)> sourceIndex) {
  beginExchange(loc);
  Value buffer = stage(loc, lookup(source), sourceType);
  barrier(loc);
  return buildPerElement(loc, result, [&](ArrayRef<Value> multi, Value) {
    return loadStaged(loc, buffer,
                      linearize(loc, sourceIndex(multi), sourceType.getShape()),
                      sourceType.getElementType());
  });
}

SmallVector<Value>
Distributor::positionIndices(Location loc, ArrayRef<OpFoldResult> position) {
  SmallVector<Value> indices;
  for (OpFoldResult ofr : position) {
    if (auto attr = dyn_cast<Attribute>(ofr))
      indices.push_back(index(loc, cast<IntegerAttr>(attr).getInt()));
    else
      indices.push_back(lookup(cast<Value>(ofr)));
  }
  return indices;
}

LogicalResult Distributor::distributeExtract(vector::ExtractOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType();
  SmallVector<Value> position = positionIndices(loc, op.getMixedPosition());
  auto resultVector = dyn_cast<VectorType>(op.getType());
  if (resultVector && resultVector.getRank() > 0) {
    map.map(op.getResult(),
            gatherThroughScratch(loc, op.getSource(), source, resultVector,
                                 [&](ArrayRef<Value> multi) {
                                   SmallVector<Value> full = position;
                                   full.append(multi.begin(), multi.end());
                                   return full;
                                 }));
    return success();
  }
  // A scalar or 0-D result: every lane reads the one element.
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  SmallVector<Value> full = position;
  while (full.size() < static_cast<size_t>(source.getRank()))
    full.push_back(index(loc, 0));
  Value scalar =
      loadStaged(loc, buffer, linearize(loc, full, source.getShape()),
                 source.getElementType());
  if (resultVector)
    scalar =
        vector::BroadcastOp::create(b, loc, getLaneType(resultVector), scalar);
  map.map(op.getResult(), scalar);
  return success();
}

LogicalResult Distributor::distributeInsert(vector::InsertOp op) {
  Location loc = op.getLoc();
  VectorType dest = op.getDestVectorType();
  SmallVector<Value> position = positionIndices(loc, op.getMixedPosition());
  beginExchange(loc);
  Value destBuffer = stage(loc, lookup(op.getDest()), dest);
  auto sourceVector = dyn_cast<VectorType>(op.getValueToStoreType());
  Value sourceBuffer;
  if (sourceVector)
    sourceBuffer = stage(loc, lookup(op.getValueToStore()), sourceVector);
  barrier(loc);
  Value lane =
      buildPerElement(loc, dest, [&](ArrayRef<Value> multi, Value flat) {
        Value old = loadStaged(loc, destBuffer, flat, dest.getElementType());
        Value hit = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (auto [i, p] : llvm::enumerate(position))
          hit = arith::AndIOp::create(
              b, loc, hit,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, multi[i],
                                    p));
        Value fresh;
        if (sourceVector)
          fresh = loadStaged(loc, sourceBuffer,
                             linearize(loc, multi.drop_front(position.size()),
                                       sourceVector.getShape()),
                             dest.getElementType());
        else
          fresh = lookup(op.getValueToStore());
        return arith::SelectOp::create(b, loc, hit, fresh, old);
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult
Distributor::distributeExtractSlice(vector::ExtractStridedSliceOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType();
  if (layoutOf(op.getResult()) == LayoutKind::wgmma &&
      isWgmmaFragmentSlice(op)) {
    // Tile t of an M x N fragment holds its N / 2 registers per lane from
    // t * N / 2 on, 4 per 8-column group: each tile of the slice is a run
    // of the source's registers.
    int64_t rowOffset = cast<IntegerAttr>(op.getOffsets()[0]).getInt();
    int64_t colOffset = cast<IntegerAttr>(op.getOffsets()[1]).getInt();
    int64_t n = source.getDimSize(1), sliceN = op.getType().getDimSize(1);
    Value held = lookupIn(op.getSource(), LayoutKind::wgmma);
    Value result = zeroVector(loc, laneTypeIn(op.getType(), LayoutKind::wgmma));
    for (int64_t tile = 0; tile < op.getType().getDimSize(0) / 64; ++tile) {
      int64_t from = (rowOffset / 64 + tile) * (n / 2) + colOffset / 2;
      Value run = vector::ExtractStridedSliceOp::create(b, loc, held, from,
                                                        sliceN / 2, 1);
      result = vector::InsertStridedSliceOp::create(b, loc, run, result,
                                                    tile * (sliceN / 2), 1);
    }
    setHeld(loc, op.getResult(), result);
    return success();
  }
  SmallVector<int64_t> offsets, strides;
  for (Attribute a : op.getOffsets())
    offsets.push_back(cast<IntegerAttr>(a).getInt());
  for (Attribute a : op.getStrides())
    strides.push_back(cast<IntegerAttr>(a).getInt());
  map.map(op.getResult(),
          gatherThroughScratch(
              loc, op.getSource(), source, op.getType(),
              [&](ArrayRef<Value> multi) {
                // Sliced dimensions: offset + i * stride; the others whole.
                SmallVector<Value> at(multi.begin(), multi.end());
                for (auto [d, offset] : llvm::enumerate(offsets))
                  at[d] = arith::AddIOp::create(
                      b, loc, index(loc, offset),
                      arith::MulIOp::create(b, loc, multi[d],
                                            index(loc, strides[d])));
                return at;
              }));
  return success();
}

LogicalResult
Distributor::distributeInsertSlice(vector::InsertStridedSliceOp op) {
  Location loc = op.getLoc();
  VectorType dest = op.getDestVectorType(), source = op.getSourceVectorType();
  SmallVector<int64_t> offsets;
  for (Attribute a : op.getOffsets())
    offsets.push_back(cast<IntegerAttr>(a).getInt());
  if (llvm::any_of(op.getStrides(), [](Attribute a) {
        return cast<IntegerAttr>(a).getInt() != 1;
      }))
    return cannotDistribute(op, "only unit strides are supported");
  beginExchange(loc);
  Value destBuffer = stage(loc, lookup(op.getDest()), dest);
  Value sourceBuffer = stage(loc, lookup(op.getValueToStore()), source);
  barrier(loc);
  int64_t lead = dest.getRank() - source.getRank();
  Value lane =
      buildPerElement(loc, dest, [&](ArrayRef<Value> multi, Value flat) {
        // Inside the slice when every dimension is in [offset, offset +
        // size); the leading dimensions the source lacks have size 1.
        Value hit = arith::ConstantIntOp::create(b, loc, 1, 1);
        SmallVector<Value> at;
        for (int64_t d = 0; d < dest.getRank(); ++d) {
          int64_t size = d < lead ? 1 : source.getDimSize(d - lead);
          Value rel =
              arith::SubIOp::create(b, loc, multi[d], index(loc, offsets[d]));
          // Unsigned: below the offset wraps to a huge value.
          hit = arith::AndIOp::create(
              b, loc, hit,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rel,
                                    index(loc, size)));
          if (d >= lead)
            at.push_back(
                arith::MinUIOp::create(b, loc, rel, index(loc, size - 1)));
        }
        Value old = loadStaged(loc, destBuffer, flat, dest.getElementType());
        Value fresh =
            loadStaged(loc, sourceBuffer, linearize(loc, at, source.getShape()),
                       source.getElementType());
        return arith::SelectOp::create(b, loc, hit, fresh, old);
      });
  map.map(op.getResult(), lane);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

using CombiningKind = vector::CombiningKind;

static APFloat getFloatIdentity(CombiningKind kind,
                                const llvm::fltSemantics &sem) {
  switch (kind) {
  case CombiningKind::MUL:
    return APFloat::getOne(sem);
  case CombiningKind::MINNUMF:
  case CombiningKind::MINIMUMF:
    return APFloat::getInf(sem);
  case CombiningKind::MAXNUMF:
  case CombiningKind::MAXIMUMF:
    return APFloat::getInf(sem, /*Negative=*/true);
  default:
    return APFloat::getZero(sem);
  }
}

static APInt getIntegerIdentity(CombiningKind kind, unsigned width) {
  switch (kind) {
  case CombiningKind::MUL:
    return APInt(width, 1);
  case CombiningKind::AND:
  case CombiningKind::MINUI:
    return APInt::getAllOnes(width);
  case CombiningKind::MINSI:
    return APInt::getSignedMaxValue(width);
  case CombiningKind::MAXSI:
    return APInt::getSignedMinValue(width);
  default:
    return APInt::getZero(width);
  }
}

/// The neutral element of `kind` for `type`.
Value mlir::mgpu::detail::getIdentity(OpBuilder &b, Location loc,
                                      CombiningKind kind, Type type) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(f, getFloatIdentity(kind, f.getFloatSemantics())));
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, getIntegerIdentity(kind, width)));
}

/// A warp shuffle (xor) of any scalar up to 64 bits.
Value mlir::mgpu::detail::shuffleXor(OpBuilder &b, Location loc, Value value,
                                     int64_t offset) {
  Type type = value.getType();
  Value offsetValue = arith::ConstantIntOp::create(b, loc, offset, 32);
  Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
  if (type.isF32() || type.isF64() || type.isInteger(32) || type.isInteger(64))
    return gpu::ShuffleOp::create(b, loc, value, offsetValue, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  if (type.isIndex()) {
    Value wide = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
    Value moved = shuffleXor(b, loc, wide, offset);
    return arith::IndexCastOp::create(b, loc, type, moved);
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(type)
                    ? Value(arith::BitcastOp::create(b, loc, intType, value))
                    : value;
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
  Value moved = shuffleXor(b, loc, wide, offset);
  Value narrow = arith::TruncIOp::create(b, loc, intType, moved);
  return isa<FloatType>(type)
             ? Value(arith::BitcastOp::create(b, loc, type, narrow))
             : narrow;
}

/// Reductions: each output element is reduced by a group of G lanes (G a
/// power of two, as many as the outputs leave room for): every lane folds
/// a strided part of the reduced elements, the group combines with xor
/// shuffles, across warps through scratch when G > 32.
LogicalResult Distributor::distributeReduction(Operation *op,
                                               vector::CombiningKind kind,
                                               Value source,
                                               ArrayRef<bool> reduced,
                                               Value acc, Type resultType) {
  Location loc = op->getLoc();
  auto sourceType = cast<VectorType>(source.getType());
  Type element = sourceType.getElementType();
  SmallVector<int64_t> keptShape, reducedShape;
  for (auto [d, size] : llvm::enumerate(sourceType.getShape()))
    (reduced[d] ? reducedShape : keptShape).push_back(size);
  int64_t m = 1, k = 1;
  for (int64_t s : keptShape)
    m *= s;
  for (int64_t s : reducedShape)
    k *= s;

  int64_t group = 1;
  if (m < kWarpgroupLanes) {
    group = llvm::bit_floor(static_cast<uint64_t>(kWarpgroupLanes / m));
    group = std::min<int64_t>(group, llvm::bit_ceil(static_cast<uint64_t>(k)));
  }
  int64_t groupsPerWarpgroup = kWarpgroupLanes / group;
  int64_t rounds = llvm::divideCeil(m, groupsPerWarpgroup);

  beginExchange(loc);
  Value sourceBuffer = stage(loc, lookup(source), sourceType);
  auto accVector = acc ? dyn_cast<VectorType>(acc.getType()) : VectorType();
  Value accBuffer;
  if (accVector)
    accBuffer = stage(loc, lookup(acc), accVector);
  Value resultBuffer = ctx.scratch->allocate(b, loc, storageType(element),
                                             std::max<int64_t>(m, 1));
  Value warpBuffer;
  if (group > 32)
    warpBuffer = ctx.scratch->allocate(b, loc, storageType(element),
                                       kWarpgroupLanes / 32);
  barrier(loc);

  Value groupSize = index(loc, group);
  Value j = arith::RemUIOp::create(b, loc, ctx.lane, groupSize);
  Value g = arith::DivUIOp::create(b, loc, ctx.lane, groupSize);
  // Flat source index of output `out` (kept dims) and reduced position `r`.
  auto sourceIndex = [&](Value out, Value r) {
    SmallVector<Value> kept = delinearize(b, loc, out, keptShape);
    SmallVector<Value> red = delinearize(b, loc, r, reducedShape);
    SmallVector<Value> full;
    unsigned ki = 0, ri = 0;
    for (bool isReduced : reduced)
      full.push_back(isReduced ? red[ri++] : kept[ki++]);
    return linearize(loc, full, sourceType.getShape());
  };

  auto emitRound = [&](Value out) {
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, out,
                                         index(loc, m));
    Value safeOut = arith::MinUIOp::create(b, loc, out, index(loc, m - 1));
    Value identity = getIdentity(b, loc, kind, element);
    auto fold = scf::ForOp::create(b, loc, j, index(loc, k), groupSize,
                                   ValueRange{identity});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(fold.getBody());
      Value x =
          loadStaged(loc, sourceBuffer,
                     sourceIndex(safeOut, fold.getInductionVar()), element);
      Value next = vector::makeArithReduction(b, loc, kind, x,
                                              fold.getRegionIterArgs()[0]);
      scf::YieldOp::create(b, loc, next);
    }
    Value partial = fold.getResult(0);
    for (int64_t offset = std::min<int64_t>(group, 32) / 2; offset >= 1;
         offset /= 2)
      partial = vector::makeArithReduction(
          b, loc, kind, shuffleXor(b, loc, partial, offset), partial);
    if (group > 32) {
      Value laneInWarp =
          arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 32));
      Value warp = arith::DivUIOp::create(b, loc, ctx.lane, index(loc, 32));
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          laneInWarp, index(loc, 0));
      guarded(loc, first, [&] {
        memref::StoreOp::create(b, loc, toStorage(loc, partial), warpBuffer,
                                warp);
      });
      barrier(loc);
      int64_t warpsPerGroup = group / 32;
      Value base = arith::MulIOp::create(b, loc, g, index(loc, warpsPerGroup));
      partial = loadStaged(loc, warpBuffer, base, element);
      for (int64_t w = 1; w < warpsPerGroup; ++w)
        partial = vector::makeArithReduction(
            b, loc, kind,
            loadStaged(loc, warpBuffer,
                       arith::AddIOp::create(b, loc, base, index(loc, w)),
                       element),
            partial);
    }
    if (accVector)
      partial = vector::makeArithReduction(
          b, loc, kind, loadStaged(loc, accBuffer, safeOut, element), partial);
    else if (acc)
      partial = vector::makeArithReduction(b, loc, kind, lookup(acc), partial);
    Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j,
                                         index(loc, 0));
    guarded(loc, arith::AndIOp::create(b, loc, active, leader), [&] {
      memref::StoreOp::create(b, loc, toStorage(loc, partial), resultBuffer,
                              safeOut);
    });
  };

  if (rounds == 1) {
    emitRound(g);
  } else {
    // One output per lane and round: no shuffles (group == 1).
    auto loop = scf::ForOp::create(b, loc, index(loc, 0), index(loc, rounds),
                                   index(loc, 1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    emitRound(arith::AddIOp::create(
        b, loc, ctx.lane,
        arith::MulIOp::create(b, loc, loop.getInductionVar(),
                              index(loc, kWarpgroupLanes))));
  }
  barrier(loc);
  Value result;
  if (auto resultVector = dyn_cast<VectorType>(resultType))
    result = unstage(loc, resultBuffer, resultVector);
  else
    result = loadStaged(loc, resultBuffer, index(loc, 0), element);
  map.map(op->getResult(0), result);
  hazards.scratch = true;
  return success();
}
