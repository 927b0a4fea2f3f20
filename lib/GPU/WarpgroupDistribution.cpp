//===- WarpgroupDistribution.cpp - Warpgroup-level ops to lanes -----------===//
//
// Turns the array-level body of a Pallas thread into per-lane code (see the
// header for the layout). The body is re-emitted op by op through an
// IRMapping: a vector value maps to the vector of the elements its lane
// owns, a scalar to itself. Ops that only combine elements at the same
// position keep the layout and cost nothing extra; ops that move elements
// between lanes stage their operands in the warpgroup's scratch and read back
// what each lane needs, with the named barriers those exchanges need. The
// barriers between the kernel's own accesses are --mgpu-place-barriers'
// (mgpu.warpgroup_barrier, lowered here). This file holds the entry points, the
// dispatch over ops, control flow and side effects; the Distributor is declared
// in WarpgroupDistributor.h and its other op handlers are defined by concept in
// DistributeVectorOps.cpp, DistributeMemoryAccess.cpp and
// DistributeContractions.cpp.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mgpu/KernelForm/ProfileRecord.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

//===----------------------------------------------------------------------===//
// Scratch and alignment helpers
//===----------------------------------------------------------------------===//

Value WarpgroupScratch::allocate(OpBuilder &b, Location loc, Type elementType,
                                 int64_t count) {
  int64_t start = llvm::alignTo(used, 16);
  used = start + count * storageBytes(elementType);
  required = std::max(required, used);
  Value shift = arith::AddIOp::create(
      b, loc, offset, arith::ConstantIndexOp::create(b, loc, start));
  auto type = MemRefType::get(
      {count}, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(b, loc, type, base, shift, ValueRange());
}

/// The largest power of two dividing `v`, at most `cap` (`cap` for 0);
/// computed on the bits, so that INT64_MIN is no overflow.
static int64_t powerOfTwoDividing(int64_t v, int64_t cap) {
  if (v == 0)
    return cap;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(v));
  return zeros >= 62 ? cap : std::min<int64_t>(cap, int64_t(1) << zeros);
}

int64_t mlir::mgpu::getKnownMultiple(Value value) {
  constexpr int64_t kCap = 16;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    return powerOfTwoDividing(constant.getSExtValue(), kCap);
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (isa<arith::MulIOp>(def))
    return std::min<int64_t>(kCap, getKnownMultiple(def->getOperand(0)) *
                                       getKnownMultiple(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp, arith::RemUIOp, arith::RemSIOp,
          arith::MinUIOp, arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp>(def))
    return std::min(getKnownMultiple(def->getOperand(0)),
                    getKnownMultiple(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return getKnownMultiple(def->getOperand(0));
  return 1;
}

/// The known power-of-two multiple (capped at 16) of an offset given as a
/// value or a constant.
static int64_t getKnownOffsetMultiple(OpFoldResult offset) {
  if (auto value = dyn_cast<Value>(offset))
    return getKnownMultiple(value);
  int64_t v = cast<IntegerAttr>(cast<Attribute>(offset)).getInt();
  return powerOfTwoDividing(v, 16);
}

int64_t mlir::mgpu::getKnownAlignment(Value memref, ValueRange indices) {
  SmallVector<int64_t> multiples = llvm::map_to_vector(
      indices, [](Value index) { return getKnownMultiple(index); });
  // Zero offsets do not count, even along dimensions of unknown stride.
  SmallVector<bool> zero = llvm::map_to_vector(
      indices, [](Value index) { return isZeroInteger(index); });
  // A unit-stride view (such as a block read in place in global memory) at
  // known offsets: the same element of its source.
  while (auto view = memref.getDefiningOp<memref::SubViewOp>()) {
    if (view.getSourceType().getRank() != view.getType().getRank() ||
        !llvm::all_of(view.getStaticStrides(),
                      [](int64_t s) { return s == 1; }))
      break;
    for (auto [multiple, isZero, offset] :
         llvm::zip(multiples, zero, view.getMixedOffsets())) {
      multiple = std::min(multiple, getKnownOffsetMultiple(offset));
      isZero = isZero && isZeroInteger(offset);
    }
    memref = view.getSource();
  }
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = storageBytes(type.getElementType());
  if (!type.getLayout().isIdentity())
    return elementBytes;
  // Element offset = sum of index * stride. Only powers of two matter: track
  // the power-of-two part of each stride (capped at 16 elements), known
  // while every inner dimension is static.
  auto powerOfTwoPart = [](int64_t v) { return powerOfTwoDividing(v, 16); };
  int64_t multiple = 16;
  int64_t stride = 1;
  bool strideKnown = true;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!zero[d])
      multiple =
          std::min(multiple, strideKnown ? powerOfTwoPart(multiples[d] * stride)
                                         : int64_t(1));
    if (type.isDynamicDim(d))
      strideKnown = false;
    else
      stride = powerOfTwoPart(stride * powerOfTwoPart(type.getDimSize(d)));
  }
  int64_t bytes = std::min<int64_t>(16, multiple * elementBytes);
  return bytes & -bytes;
}

InFlightDiagnostic mlir::mgpu::detail::cannotDistribute(Operation *op,
                                                        StringRef why) {
  return op->emitOpError() << "cannot be lowered to the GPU: " << why;
}

bool mlir::mgpu::detail::hasVectorType(Operation *op) {
  auto isVector = [](Type t) { return isa<VectorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isVector) ||
         llvm::any_of(op->getResultTypes(), isVector);
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (absorbed.contains(&op))
      continue;
    if (op.getNumResults() &&
        llvm::all_of(op.getResults(), [&](Value r) { return map.contains(r); }))
      continue;
    // Barrier arrivals and waits leave MMAs in flight, as in JAX (FA3
    // arrives on its schedule barrier between issuing QK and reading it):
    // releasing a buffer an MMA still reads is the kernel's race, which the
    // emulator reports at the copy that overwrites it.
    if (pendingMmas && !inFlightByChoice &&
        !isa<WgmmaOp, WgmmaWaitOp, BarrierArriveOp, BarrierWaitOp,
             WarpgroupBarrierOp>(op) &&
        (op.getNumRegions() || !isMemoryEffectFree(&op)))
      completeMmas(op.getLoc());
    if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
      // Only MMAs left in flight have anything to wait for.
      if (pendingMmas)
        waitForMmas(wait.getLoc(), wait.getPending());
      pendingMmas = pendingMmas && wait.getPending() != 0;
      inFlightByChoice = pendingMmas;
      continue;
    }
    if (failed(distributeOp(&op)))
      return failure();
  }
  if (!block.empty() && !inFlightByChoice)
    completeMmas(block.back().getLoc());
  return success();
}

LogicalResult Distributor::distributeOp(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return distributeConstant(constant);
  if ((OpTrait::hasElementwiseMappableTraits(op) || isa<vector::FMAOp>(op)) &&
      hasVectorType(op))
    return distributeElementwise(op);

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](vector::BroadcastOp o) { return distributeBroadcast(o); })
      .Case([&](vector::TransposeOp o) { return distributeTranspose(o); })
      .Case([&](vector::ShapeCastOp o) { return distributeShapeCast(o); })
      .Case([&](vector::BitCastOp o) { return distributeBitCast(o); })
      .Case([&](vector::ExtractOp o) { return distributeExtract(o); })
      .Case([&](vector::InsertOp o) { return distributeInsert(o); })
      .Case([&](vector::ContractionOp o) { return distributeContract(o); })
      .Case([&](WgmmaOp o) { return distributeWgmma(o); })
      .Case([&](MmaOp o) { return distributeMma(o); })
      .Case([&](AsyncLoadTmemOp o) { return distributeTmemLoad(o); })
      .Case([&](AsyncStoreTmemOp o) { return distributeTmemStore(o); })
      .Case([&](LayoutCastOp o) { return distributeLayoutCast(o); })
      .Case([&](ub::PoisonOp o) {
        // Undefined on every lane, in the lanes' share of the vector.
        auto type = dyn_cast<VectorType>(o.getType());
        if (!type) {
          b.clone(*o, map);
          return success();
        }
        map.map(o.getResult(),
                ub::PoisonOp::create(b, o.getLoc(), getLaneType(type)));
        return success();
      })
      .Case([&](vector::StepOp o) { return distributeStep(o); })
      .Case([&](vector::FromElementsOp o) {
        SmallVector<Value> elements = llvm::map_to_vector(
            o.getElements(), [&](Value v) { return lookup(v); });
        auto flat = VectorType::get({o.getType().getNumElements()},
                                    o.getType().getElementType());
        return distributeFromValues(
            o, vector::FromElementsOp::create(b, o.getLoc(), flat, elements));
      })
      .Case([&](vector::ExtractStridedSliceOp o) {
        return distributeExtractSlice(o);
      })
      .Case([&](vector::InsertStridedSliceOp o) {
        return distributeInsertSlice(o);
      })
      .Case([&](vector::ReductionOp o) {
        return distributeReduction(o, o.getKind(), o.getVector(), {true},
                                   o.getAcc(), o.getType());
      })
      .Case([&](vector::MultiDimReductionOp o) {
        // Only what the assignment makes a row reduction (a layout given
        // by hand to another reduction is reached by conversion).
        if (layoutOf(o.getResult()) == LayoutKind::wgmma_row &&
            o.getReductionMask() == ArrayRef<bool>{false, true} &&
            succeeded(
                verifyLayoutFits(LayoutKind::wgmma, o.getSourceVectorType())))
          return distributeRowReduction(o);
        return distributeReduction(o, o.getKind(), o.getSource(),
                                   o.getReductionMask(), o.getAcc(),
                                   o.getType());
      })
      .Case<vector::TransferReadOp, vector::TransferWriteOp>(
          [&](VectorTransferOpInterface o) { return distributeTransfer(o); })
      .Case([&](vector::LoadOp o) {
        auto memrefType = o.getMemRefType();
        AffineMap map = AffineMap::getMinorIdentityMap(
            memrefType.getRank(), o.getVectorType().getRank(), b.getContext());
        SmallVector<bool> inBounds(o.getVectorType().getRank(), true);
        return distributeRead(o, o.getBase(), o.getIndices(), o.getVectorType(),
                              map, inBounds, Value());
      })
      .Case([&](vector::StoreOp o) {
        auto memrefType = o.getMemRefType();
        AffineMap map = AffineMap::getMinorIdentityMap(
            memrefType.getRank(), o.getVectorType().getRank(), b.getContext());
        SmallVector<bool> inBounds(o.getVectorType().getRank(), true);
        return distributeWrite(o, o.getValueToStore(), o.getBase(),
                               o.getIndices(), o.getVectorType(), map,
                               inBounds);
      })
      .Case<scf::ForOp, scf::IfOp, scf::WhileOp, scf::IndexSwitchOp,
            scf::ParallelOp>([&](auto o) { return distributeRegionOp(o); })
      .Case<SemaphoreSignalOp, SemaphoreWaitOp>(
          [&](auto o) { return distributeSemaphore(o); })
      // One read per Pallas thread, on lane 0, broadcast to the lanes.
      .Case([&](SemaphoreReadOp o) { return distributeSideEffect(o); })
      // A pair's collective MMA or commit: lane 0 of the first CTA.
      .Case([&](Tcgen05MmaOp o) {
        return distributeSideEffect(
            o, o.getCollectiveAxis() ? isPairLeader(o.getLoc()) : Value());
      })
      .Case([&](Tcgen05CommitArriveOp o) {
        return distributeSideEffect(
            o, o.getCollectiveAxis() ? isPairLeader(o.getLoc()) : Value());
      })
      .Case([&](AtomicStoreOp o) { return distributeAtomic(o); })
      .Case([&](DebugPrintOp o) { return distributeDebugPrint(o); })
      .Case([&](WarpgroupBarrierOp o) { return distributeBarrier(o); })
      // Lane 0 records for its Pallas thread; no other lane touches the
      // trace, so the hazard tracker need not know.
      .Case([&](ProfileEventOp o) {
        Value buffer = lookup(o.getBuffer()), base = lookup(o.getBase());
        guarded(o.getLoc(), isLaneZero(o.getLoc()),
                [&] { emitProfileRecord(b, o, buffer, base); });
        return success();
      })
      .Case<memref::AllocOp, memref::AllocaOp>([&](Operation *o) {
        return cannotDistribute(
            o, "a kernel body cannot allocate memory on the GPU (each lane "
               "would get its own buffer); use a scratch operand");
      })
      .Default([&](Operation *o) -> LogicalResult {
        // Copies, barriers, waits, fences: whole, for the backends.
        if (o->hasTrait<PallasThreadPrimitive>())
          return distributePrimitive(o);
        if (hasVectorType(o))
          return cannotDistribute(
              o, "no distribution of this vector op over the 128 lanes of a "
                 "warpgroup");
        if (o->getNumRegions())
          return cannotDistribute(
              o, "only scf.for, scf.while, scf.if, scf.index_switch and "
                 "scf.parallel may hold regions in a kernel body");
        if (isMemoryEffectFree(o)) {
          b.clone(*o, map);
          return success();
        }
        auto effects = dyn_cast<MemoryEffectOpInterface>(o);
        if (effects && effects.onlyHasEffect<MemoryEffects::Read>()) {
          b.clone(*o, map);
          return success();
        }
        return distributeSideEffect(o);
      });
}

//===----------------------------------------------------------------------===//
// Side effects and kernel-level primitives
//===----------------------------------------------------------------------===//

/// A scalar side effect happens once per Pallas thread: on lane 0, with the
/// results broadcast to the other lanes through scratch.
LogicalResult Distributor::distributeSideEffect(Operation *op, Value only) {
  Location loc = op->getLoc();
  beforeWrite(loc);
  SmallVector<Value> buffers;
  if (op->getNumResults()) {
    beginExchange(loc);
    for (Type t : op->getResultTypes()) {
      if (!t.isIntOrIndexOrFloat())
        return cannotDistribute(op, "a side effect with a non-scalar result "
                                    "is not supported");
      buffers.push_back(ctx.scratch->allocate(b, loc, storageType(t), 1));
    }
  }
  Value issues = isLaneZero(loc);
  if (only)
    issues = arith::AndIOp::create(b, loc, issues, only);
  guarded(loc, issues, [&] {
    Operation *clone = b.clone(*op, map);
    for (auto [result, buffer] : llvm::zip(clone->getResults(), buffers))
      memref::StoreOp::create(b, loc, toStorage(loc, result), buffer,
                              index(loc, 0));
  });
  if (!buffers.empty()) {
    barrier(loc);
    for (auto [result, buffer] : llvm::zip(op->getResults(), buffers))
      map.map(result, loadStaged(loc, buffer, index(loc, 0), result.getType()));
    hazards.scratch = true;
  }
  return success();
}

LogicalResult Distributor::distributeSemaphore(SemaphoreSignalOp op) {
  Location loc = op.getLoc();
  // Everything this Pallas thread wrote is done before the release
  // (--mgpu-place-barriers).
  beforeWrite(loc);
  // Lane 0 signals (the release fence is the backend's).
  guarded(loc, isLaneZero(loc), [&] { b.clone(*op, map); });
  return success();
}

/// The wait happens on lane 0 (a backend spins on the semaphore there);
/// the other lanes wait for lane 0.
LogicalResult Distributor::distributeSemaphore(SemaphoreWaitOp op) {
  Location loc = op.getLoc();
  guarded(loc, isLaneZero(loc), [&] { b.clone(*op, map); });
  barrier(loc);
  return success();
}

/// Kernel-level ops stay whole: every lane runs them, and each backend
/// decides which lanes do the work (one issues a TMA copy, all wait on a
/// barrier). What the lanes must agree on around them is placed by
/// --mgpu-place-barriers; what is left here are the MMA waits this
/// distribution added itself, passed by every warp before a copy into
/// shared memory or an arrival.
LogicalResult Distributor::distributePrimitive(Operation *op) {
  Location loc = op->getLoc();
  if (isa<CopyGmemToSmemOp, AsyncStoreSmemOp, BarrierArriveOp>(op))
    beforeWrite(loc);
  Operation *copy = b.clone(*op, map);
  if (isa<BarrierWaitOp>(op))
    copy->setAttr(MGPUDialect::getWarpgroupUniformAttrName(), b.getUnitAttr());
  return success();
}

/// What an iteration of `loop` may leave for the next: an exchange, and the
/// waits of its MMAs if it has any.
Hazards Distributor::loopEntryHazards(Operation *loop) const {
  bool mmas = loop->walk([](WgmmaOp) { return WalkResult::interrupt(); })
                  .wasInterrupted();
  return {true, hazards.mmas || mmas};
}

/// The barrier --mgpu-place-barriers placed, unless the distribution's own
/// exchange just made one.
LogicalResult Distributor::distributeBarrier(WarpgroupBarrierOp op) {
  Block *block = b.getInsertionBlock();
  Block::iterator point = b.getInsertionPoint();
  if (point != block->begin() && isa<WarpgroupBarrierOp>(*std::prev(point)))
    return success();
  barrier(op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeRegionOp(scf::ForOp op) {
  Location loc = op.getLoc();
  // A value carried in a fragment layout (an accumulator the tensor cores
  // update at every step, its row statistics) stays in it for the whole
  // loop.
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  auto inFragments = [&](BlockArgument arg) {
    LayoutKind kind = layoutOf(arg);
    return isFragmentLayout(kind);
  };
  auto carried = [&](BlockArgument arg, Value v) {
    return inFragments(arg) ? lookupIn(v, layoutOf(arg)) : lookup(v);
  };
  SmallVector<Value> inits;
  for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs()))
    inits.push_back(carried(arg, init));
  auto forOp = scf::ForOp::create(b, loc, lookup(op.getLowerBound()),
                                  lookup(op.getUpperBound()),
                                  lookup(op.getStep()), inits);
  OpBuilder::InsertionGuard guard(b);
  Block *body = forOp.getBody();
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase();
  b.setInsertionPointToEnd(body);
  map.map(op.getInductionVar(), forOp.getInductionVar());
  auto mapCarried = [&](ValueRange from, ValueRange to) {
    for (auto [arg, original, value] :
         llvm::zip(op.getRegionIterArgs(), from, to)) {
      if (inFragments(arg))
        fragmentOf[original] = value;
      else
        map.map(original, value);
    }
  };
  mapCarried(op.getRegionIterArgs(), forOp.getRegionIterArgs());
  // The previous iteration may have exchanged or waited for MMAs.
  hazards = loopEntryHazards(op);
  if (failed(distributeBlock(*op.getBody())))
    return failure();
  SmallVector<Value> next;
  for (auto [arg, v] : llvm::zip(op.getRegionIterArgs(), yield.getOperands()))
    next.push_back(carried(arg, v));
  scf::YieldOp::create(b, loc, next);
  hazards = loopEntryHazards(op);
  mapCarried(op.getResults(), forOp.getResults());
  // Uses after the loop that take the ordinary layout share one conversion.
  b.setInsertionPointAfter(forOp);
  for (auto [arg, result] : llvm::zip(op.getRegionIterArgs(), op.getResults()))
    if (inFragments(arg))
      setHeld(loc, result, fragmentOf[result]);
  return success();
}

LogicalResult Distributor::distributeRegionOp(scf::IfOp op) {
  Location loc = op.getLoc();
  auto inFragments = [&](unsigned i) {
    LayoutKind kind = layoutOf(op.getResult(i));
    return isFragmentLayout(kind);
  };
  SmallVector<Type> types;
  for (auto [i, t] : llvm::enumerate(op.getResultTypes())) {
    auto vector = dyn_cast<VectorType>(t);
    types.push_back(!vector ? t
                    : inFragments(i)
                        ? Type(laneTypeIn(vector, layoutOf(op.getResult(i))))
                        : Type(getLaneType(vector)));
  }
  auto ifOp = scf::IfOp::create(b, loc, types, lookup(op.getCondition()),
                                /*withElseRegion=*/true);
  Hazards entry = hazards, exit;
  auto fill = [&](Region &from, Block *to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    if (!to->empty() && isa<scf::YieldOp>(to->back()))
      to->back().erase();
    b.setInsertionPointToEnd(to);
    hazards = entry;
    if (!from.empty()) {
      if (failed(distributeBlock(from.front())))
        return failure();
      auto yield = cast<scf::YieldOp>(from.front().getTerminator());
      SmallVector<Value> yielded;
      for (auto [i, v] : llvm::enumerate(yield.getOperands()))
        yielded.push_back(inFragments(i)
                              ? lookupIn(v, layoutOf(op.getResult(i)))
                              : lookup(v));
      scf::YieldOp::create(b, loc, yielded);
    } else {
      scf::YieldOp::create(b, loc);
    }
    exit = exit | hazards;
    return success();
  };
  if (failed(fill(op.getThenRegion(), ifOp.thenBlock())) ||
      failed(fill(op.getElseRegion(), ifOp.elseBlock())))
    return failure();
  hazards = exit;
  for (auto [i, original, value] :
       llvm::enumerate(op.getResults(), ifOp.getResults())) {
    if (inFragments(i))
      setHeld(loc, original, value);
    else
      map.map(original, value);
  }
  return success();
}

LogicalResult Distributor::distributeRegion(Region &from, Block *to) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(to);
  if (failed(distributeBlock(from.front())))
    return failure();
  Operation *terminator = from.front().getTerminator();
  SmallVector<Value> operands = llvm::map_to_vector(
      terminator->getOperands(), [&](Value v) { return lookup(v); });
  if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
    scf::ConditionOp::create(b, condition.getLoc(), operands.front(),
                             ArrayRef<Value>(operands).drop_front());
  else
    scf::YieldOp::create(b, terminator->getLoc(), operands);
  return success();
}

/// A while loop with a uniform condition: every lane runs the same trips.
LogicalResult Distributor::distributeRegionOp(scf::WhileOp op) {
  Location loc = op.getLoc();
  auto laneTypes = [&](TypeRange types) {
    return llvm::map_to_vector(types, [&](Type t) -> Type {
      return isa<VectorType>(t) ? getLaneType(cast<VectorType>(t)) : t;
    });
  };
  SmallVector<Value> inits = lookupAll(op.getInits());
  auto whileOp = scf::WhileOp::create(b, loc, laneTypes(op.getResultTypes()),
                                      inits, nullptr, nullptr);
  SmallVector<Type> beforeTypes = laneTypes(op.getBefore().getArgumentTypes());
  SmallVector<Type> afterTypes = laneTypes(op.getAfter().getArgumentTypes());
  // The builder may already have made the blocks (with these arguments).
  auto blockOf = [&](Region &region, ArrayRef<Type> types) {
    if (!region.empty())
      return &region.front();
    return b.createBlock(&region, {}, types,
                         SmallVector<Location>(types.size(), loc));
  };
  Block *before = blockOf(whileOp.getBefore(), beforeTypes);
  Block *after = blockOf(whileOp.getAfter(), afterTypes);
  b.setInsertionPointAfter(whileOp);
  map.map(op.getBefore().getArguments(), before->getArguments());
  map.map(op.getAfter().getArguments(), after->getArguments());
  // Any iteration may have exchanged or waited for MMAs.
  hazards = loopEntryHazards(op);
  if (failed(distributeRegion(op.getBefore(), before)))
    return failure();
  hazards = loopEntryHazards(op);
  if (failed(distributeRegion(op.getAfter(), after)))
    return failure();
  hazards = loopEntryHazards(op);
  map.map(op.getResults(), whileOp.getResults());
  return success();
}

/// A switch on a uniform index: every lane takes the same case.
LogicalResult Distributor::distributeRegionOp(scf::IndexSwitchOp op) {
  Location loc = op.getLoc();
  SmallVector<Type> types;
  for (Type t : op.getResultTypes())
    types.push_back(isa<VectorType>(t) ? Type(getLaneType(cast<VectorType>(t)))
                                       : t);
  auto switchOp = scf::IndexSwitchOp::create(b, loc, types, lookup(op.getArg()),
                                             op.getCases(), op.getNumCases());
  Hazards entry = hazards, exit;
  for (auto [from, to] : llvm::zip(op->getRegions(), switchOp->getRegions())) {
    Block *block = b.createBlock(&to);
    b.setInsertionPointAfter(switchOp);
    hazards = entry;
    if (failed(distributeRegion(from, block)))
      return failure();
    exit = exit | hazards;
  }
  hazards = exit;
  map.map(op.getResults(), switchOp.getResults());
  return success();
}

/// A parallel loop over memrefs (what linalg ops on memrefs become): its
/// iterations are dealt to the lanes round-robin.
LogicalResult Distributor::distributeRegionOp(scf::ParallelOp op) {
  Location loc = op.getLoc();
  if (op.getNumResults())
    return cannotDistribute(op, "parallel loops with reductions are not "
                                "supported");
  WalkResult vectors = op.getBody()->walk([](Operation *inner) {
    return hasVectorType(inner) ? WalkResult::interrupt()
                                : WalkResult::advance();
  });
  if (vectors.wasInterrupted())
    return cannotDistribute(op, "a parallel loop body must be scalar");
  beforeWrite(loc);
  SmallVector<Value> lbs, steps, trips;
  Value total = index(loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(op.getLowerBound(), op.getUpperBound(), op.getStep())) {
    Value l = lookup(lb), s = lookup(step);
    Value trip = arith::CeilDivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, lookup(ub), l), s);
    lbs.push_back(l);
    steps.push_back(s);
    trips.push_back(trip);
    total = arith::MulIOp::create(b, loc, total, trip);
  }
  auto loop =
      scf::ForOp::create(b, loc, ctx.lane, total, index(loc, kWarpgroupLanes));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value rest = loop.getInductionVar();
  for (int64_t d = static_cast<int64_t>(trips.size()) - 1; d >= 0; --d) {
    Value i = d ? Value(arith::RemUIOp::create(b, loc, rest, trips[d])) : rest;
    if (d)
      rest = arith::DivUIOp::create(b, loc, rest, trips[d]);
    map.map(op.getInductionVars()[d],
            arith::AddIOp::create(b, loc, lbs[d],
                                  arith::MulIOp::create(b, loc, i, steps[d])));
  }
  for (Operation &inner : op.getBody()->without_terminator())
    b.clone(inner, map);
  return success();
}

LogicalResult
mlir::mgpu::distributeWarpgroupBody(OpBuilder &b, Block &body,
                                    IRMapping &mapping,
                                    const WarpgroupContext &context) {
  Distributor distributor(b, mapping, context);
  return distributor.distributeBody(body);
}
