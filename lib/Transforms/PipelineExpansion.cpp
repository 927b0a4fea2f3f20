//===- PipelineExpansion.cpp - Pallas pipelines as step loops -------------===//
//
// Emits the step loop of a pipeline (see the header) with kernel-level ops.
// The loop carries, per block, the slot it reads or writes at the current
// step; inputs fetched ahead also carry the newest slot fetched, and every
// block read from memory counts its waits, which gives the parity of the
// phase the next wait is for: slots fill and drain in ring order, so the
// w-th wait on a block is on slot w mod N, in that slot's phase w / N.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Transforms/PipelineExpansion.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Slots start at multiples of this: what TMA needs without a swizzle, and
/// enough for 128-bit accesses.
static constexpr int64_t kSlotAlignment = 128;
/// A swizzled slot starts at a multiple of its swizzle pattern's 1024 bytes.
static constexpr int64_t kSwizzledSlotAlignment = 1024;

PipelineLayout mlir::mgpu::planPipeline(MLIRContext *ctx,
                                        ArrayRef<PipelinedBlock> blocks,
                                        int64_t depth, int64_t participants) {
  PipelineLayout layout;
  layout.depth = depth;
  int64_t bytes = 0;
  for (const PipelinedBlock &block : blocks) {
    if (block.sharesSlotOf >= 0) {
      // The input's slot, filled by the input's fetch.
      PipelineLayout::Block planned = layout.blocks[block.sharesSlotOf];
      planned.barrier = -1;
      layout.blocks.push_back(planned);
      continue;
    }
    PipelineLayout::Block planned;
    // Blocks read and written through the same array run in step order:
    // one slot. Others rotate through `depth`.
    planned.slots = block.aliased ? 1 : depth;
    int64_t alignment =
        block.spec.getSwizzleBytes() ? kSwizzledSlotAlignment : kSlotAlignment;
    Type element = cast<MemRefType>(block.array.getType()).getElementType();
    planned.slotBytes = llvm::alignTo(
        *getBufferBytes(block.spec.getShape(), element), alignment);
    planned.firstByte = llvm::alignTo(bytes, alignment);
    bytes = planned.firstByte + planned.slots * planned.slotBytes;
    if (!block.isOutput || block.aliased) {
      planned.barrier = layout.barriers.size();
      layout.barriers.push_back(BarrierType::get(ctx, planned.slots, 1));
    }
    layout.blocks.push_back(planned);
  }
  bool anyOutput = llvm::any_of(
      blocks, [](const PipelinedBlock &block) { return block.isOutput; });
  if (participants > 1 && anyOutput) {
    layout.writtenBarrier = layout.barriers.size();
    layout.barriers.push_back(BarrierType::get(ctx, 1, participants));
  }
  layout.arenaBytes = bytes;
  return layout;
}

/// Ends `block` (an scf.for body) with a yield of `values`, replacing the
/// terminator the builder may have put there.
static void setYield(OpBuilder &b, Location loc, Block *block,
                     ValueRange values) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    block->back().erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  scf::YieldOp::create(b, loc, values);
}

namespace {

/// Builds one pipeline; see emitPipeline.
class PipelineEmitter {
public:
  PipelineEmitter(OpBuilder &b, Location loc, ArrayRef<PipelinedBlock> blocks,
                  const PipelineLayout &layout,
                  const PipelineResources &resources,
                  const PipelineSchedule &schedule)
      : b(b), loc(loc), blocks(blocks), layout(layout), resources(resources),
        schedule(schedule) {}

  LogicalResult emit(PipelineStepBuilder buildStep);

private:
  OpBuilder &b;
  Location loc;
  ArrayRef<PipelinedBlock> blocks;
  const PipelineLayout &layout;
  const PipelineResources &resources;
  const PipelineSchedule &schedule;
  Value steps;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// Inputs fetched ahead of their step (not aliased).
  bool isPrefetched(size_t i) const {
    return !blocks[i].isOutput && !blocks[i].aliased;
  }
  /// Blocks whose slots are filled from memory.
  bool isFetched(size_t i) const { return layout.blocks[i].barrier >= 0; }

  /// Row-major step indices of linear step `t`.
  SmallVector<Value> stepIdsAt(Value t) {
    SmallVector<Value> ids(schedule.stepSizes.size());
    for (int64_t d = static_cast<int64_t>(ids.size()) - 1; d >= 0; --d) {
      if (d == 0) {
        ids[d] = t;
        break;
      }
      ids[d] = arith::RemUIOp::create(b, loc, t, schedule.stepSizes[d]);
      t = arith::DivUIOp::create(b, loc, t, schedule.stepSizes[d]);
    }
    return ids;
  }

  /// The block index of every block at linear step `t`.
  FailureOr<SmallVector<SmallVector<Value>>> blockIndicesAt(Value t) {
    SmallVector<Value> gridIds = schedule.gridIdsAt(b, loc, stepIdsAt(t));
    SmallVector<SmallVector<Value>> indices;
    for (const PipelinedBlock &block : blocks) {
      std::optional<SmallVector<Value>> index = affine::expandAffineMap(
          b, loc, block.spec.getIndexMap().getValue(), gridIds);
      if (!index)
        return emitError(loc)
               << "cannot expand the index map " << block.spec.getIndexMap();
      indices.push_back(*index);
    }
    return indices;
  }

  Value differs(ArrayRef<Value> x, ArrayRef<Value> y) {
    Value result = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (auto [a, c] : llvm::zip(x, y))
      result = arith::OrIOp::create(
          b, loc, result,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, a, c));
    return result;
  }
  Value orValues(Value x, Value y) {
    return arith::OrIOp::create(b, loc, x, y);
  }
  Value andValues(Value x, Value y) {
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value notValue(Value x) {
    return arith::XOrIOp::create(b, loc, x,
                                 arith::ConstantIntOp::create(b, loc, 1, 1));
  }

  /// The slot after `slot` in block `i`'s ring.
  Value nextSlot(size_t i, Value slot) {
    int64_t slots = layout.blocks[i].slots;
    if (slots == 1)
      return slot;
    Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot,
                                        index(slots - 1));
    return arith::SelectOp::create(
        b, loc, wraps, index(0), arith::AddIOp::create(b, loc, slot, index(1)));
  }

  /// The buffer of block `i` in `slot`.
  Value view(size_t i, Value slot) {
    const PipelineLayout::Block &planned = layout.blocks[i];
    Value shift = arith::AddIOp::create(
        b, loc, resources.arenaOffset,
        arith::AddIOp::create(
            b, loc, index(planned.firstByte),
            arith::MulIOp::create(b, loc, slot, index(planned.slotBytes))));
    auto type = getStagedBlockType(blocks[i].array.getType(), blocks[i].spec);
    return memref::ViewOp::create(b, loc, type, resources.arena, shift,
                                  ValueRange());
  }

  /// Element offsets of the window of block index `index`.
  SmallVector<OpFoldResult> windowOffsets(size_t i, ArrayRef<Value> index) {
    SmallVector<OpFoldResult> offsets;
    for (auto [d, value] : llvm::enumerate(index))
      offsets.push_back(Value(arith::MulIOp::create(
          b, loc, value, this->index(blocks[i].spec.getShape()[d]))));
    return offsets;
  }

  /// Runs `body` where `cond` holds and, with a leader, on the leader only.
  void issue(Value cond, function_ref<void()> body) {
    if (schedule.leader)
      cond = cond ? andValues(cond, schedule.leader) : schedule.leader;
    if (!cond)
      return body();
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  }
  void when(Value cond, function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
  }

  /// The index of barrier `slot` of barrier array `barrier`.
  Value barrierIndex(int64_t barrier, Value slot) {
    Value base = static_cast<size_t>(barrier) < resources.barrierBases.size()
                     ? resources.barrierBases[barrier]
                     : Value();
    return base ? Value(arith::AddIOp::create(b, loc, base, slot)) : slot;
  }

  /// Starts fetching block `i`'s window at `index` into `slot`.
  void fetch(size_t i, ArrayRef<Value> blockIndex, Value slot) {
    SmallVector<OpFoldResult> offsets = windowOffsets(i, blockIndex);
    SmallVector<Value> dynamic;
    SmallVector<int64_t> staticOffsets;
    dispatchIndexOpFoldResults(offsets, dynamic, staticOffsets);
    CopyGmemToSmemOp::create(b, loc, blocks[i].array, dynamic, staticOffsets,
                             view(i, slot),
                             resources.barriers[layout.blocks[i].barrier],
                             barrierIndex(layout.blocks[i].barrier, slot),
                             blocks[i].appliedTransforms);
  }

  /// Waits for the fetch into `slot`, the `waits`-th wait on block `i`.
  void waitFor(size_t i, Value slot, Value waits) {
    int64_t slots = layout.blocks[i].slots;
    Value phase = arith::DivUIOp::create(b, loc, waits, index(slots));
    Value parity = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(b, loc, phase, index(2)), index(0));
    int64_t barrier = layout.blocks[i].barrier;
    BarrierWaitOp::create(b, loc, resources.barriers[barrier],
                          barrierIndex(barrier, slot), parity);
  }

  void copyOut(size_t i, ArrayRef<Value> blockIndex, Value slot) {
    SmallVector<Value> dynamic;
    SmallVector<int64_t> staticOffsets;
    dispatchIndexOpFoldResults(windowOffsets(i, blockIndex), dynamic,
                               staticOffsets);
    CopySmemToGmemOp::create(b, loc, view(i, slot), blocks[i].array, dynamic,
                             staticOffsets, /*commit_group=*/true);
  }
};

} // namespace

LogicalResult PipelineEmitter::emit(PipelineStepBuilder buildStep) {
  Value zero = index(0), one = index(1);
  steps = one;
  for (Value size : schedule.stepSizes)
    steps = arith::MulIOp::create(b, loc, steps, size);
  Value last = arith::SubIOp::create(b, loc, steps, one);
  int64_t depth = layout.depth;
  size_t numBlocks = blocks.size();
  SmallVector<size_t> prefetched;
  for (size_t i = 0; i < numBlocks; ++i)
    if (isPrefetched(i))
      prefetched.push_back(i);

  // Prologue: the blocks of steps 0 .. depth - 2, each into the next slot of
  // its ring when its block index changes. The ring starts at its last slot
  // so that the first fetch goes to slot 0.
  SmallVector<Value> newest(numBlocks);
  for (size_t i : prefetched)
    newest[i] = index(layout.blocks[i].slots - 1);
  if (depth > 1 && !prefetched.empty()) {
    SmallVector<Value> inits;
    for (size_t i : prefetched)
      inits.push_back(newest[i]);
    Value count = arith::MinUIOp::create(b, loc, index(depth - 1), steps);
    auto prologue = scf::ForOp::create(b, loc, zero, count, one, inits);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prologue.getBody());
    Value j = prologue.getInductionVar();
    FailureOr<SmallVector<SmallVector<Value>>> now = blockIndicesAt(j);
    FailureOr<SmallVector<SmallVector<Value>>> before =
        blockIndicesAt(arith::SubIOp::create(
            b, loc, arith::MaxUIOp::create(b, loc, j, one), one));
    if (failed(now) || failed(before))
      return failure();
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j, zero);
    SmallVector<Value> yields;
    unsigned arg = 0;
    for (size_t i : prefetched) {
      Value previous = prologue.getRegionIterArgs()[arg++];
      Value changes = orValues(isFirst, differs((*now)[i], (*before)[i]));
      Value slot = arith::SelectOp::create(b, loc, changes,
                                           nextSlot(i, previous), previous);
      issue(changes, [&] { fetch(i, (*now)[i], slot); });
      yields.push_back(slot);
    }
    setYield(b, loc, prologue.getBody(), yields);
    arg = 0;
    for (size_t i : prefetched)
      newest[i] = prologue.getResult(arg++);
  }

  // The step loop carries, per block: the current slot (rotating blocks),
  // the newest slot fetched (prefetched inputs) and the waits so far
  // (fetched blocks).
  struct Carried {
    int cur = -1, newest = -1, waits = -1;
  };
  SmallVector<Carried> carried(numBlocks);
  SmallVector<Value> inits;
  for (size_t i = 0; i < numBlocks; ++i) {
    if (layout.blocks[i].slots > 1) {
      carried[i].cur = inits.size();
      inits.push_back(zero);
    }
    if (isPrefetched(i)) {
      carried[i].newest = inits.size();
      inits.push_back(newest[i]);
    }
    if (isFetched(i)) {
      carried[i].waits = inits.size();
      inits.push_back(zero);
    }
  }
  auto loop = scf::ForOp::create(b, loc, zero, steps, one, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    ValueRange iterArgs = loop.getRegionIterArgs();
    SmallVector<Value> yields(iterArgs.begin(), iterArgs.end());
    auto curOf = [&](size_t i) {
      return carried[i].cur >= 0 ? iterArgs[carried[i].cur] : zero;
    };

    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, zero);
    Value isLast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, last);
    FailureOr<SmallVector<SmallVector<Value>>> now = blockIndicesAt(s);
    FailureOr<SmallVector<SmallVector<Value>>> before =
        blockIndicesAt(arith::SubIOp::create(
            b, loc, arith::MaxUIOp::create(b, loc, s, one), one));
    FailureOr<SmallVector<SmallVector<Value>>> after =
        blockIndicesAt(arith::AddIOp::create(
            b, loc, arith::MinUIOp::create(b, loc, s, last), one));
    if (failed(now) || failed(before) || failed(after))
      return failure();
    // `after` is clamped below: past the last step it is never used.
    SmallVector<Value> changed(numBlocks), leaving(numBlocks);
    for (size_t i = 0; i < numBlocks; ++i) {
      changed[i] = orValues(isFirst, differs((*now)[i], (*before)[i]));
      leaving[i] = orValues(isLast, differs((*now)[i], (*after)[i]));
    }

    // 1. Fetch the blocks of step s + depth - 1.
    if (!prefetched.empty()) {
      Value t = arith::AddIOp::create(b, loc, s, index(depth - 1));
      Value inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t, steps);
      Value tClamped = arith::MinUIOp::create(b, loc, t, last);
      FailureOr<SmallVector<SmallVector<Value>>> ahead =
          blockIndicesAt(tClamped);
      FailureOr<SmallVector<SmallVector<Value>>> beforeAhead =
          blockIndicesAt(arith::SubIOp::create(
              b, loc, arith::MaxUIOp::create(b, loc, tClamped, one), one));
      if (failed(ahead) || failed(beforeAhead))
        return failure();
      Value tIsFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, zero);
      for (size_t i : prefetched) {
        Value previous = iterArgs[carried[i].newest];
        Value fetches = andValues(
            inRange,
            orValues(tIsFirst, differs((*ahead)[i], (*beforeAhead)[i])));
        Value slot = arith::SelectOp::create(b, loc, fetches,
                                             nextSlot(i, previous), previous);
        issue(fetches, [&] { fetch(i, (*ahead)[i], slot); });
        yields[carried[i].newest] = slot;
      }
    }

    // 2. Blocks read and written through the same array are read now, once
    // the copies out before them have landed.
    for (size_t i = 0; i < numBlocks; ++i)
      if (blocks[i].aliased && blocks[i].sharesSlotOf < 0)
        issue(changed[i], [&] {
          WaitSmemToGmemOp::create(b, loc, 0, /*read_only=*/false);
          fetch(i, (*now)[i], zero);
        });

    // 3. Wait for this step's fetched blocks.
    for (size_t i = 0; i < numBlocks; ++i) {
      if (!isFetched(i))
        continue;
      Value waits = iterArgs[carried[i].waits];
      when(changed[i], [&] { waitFor(i, curOf(i), waits); });
      yields[carried[i].waits] = arith::AddIOp::create(
          b, loc, waits,
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), changed[i]));
    }

    // 4. A new output block's slot must have been read by its last copy out
    // (slots - 1 copies out have been committed since).
    for (size_t i = 0; i < numBlocks; ++i)
      if (blocks[i].isOutput && !blocks[i].aliased)
        issue(andValues(changed[i], notValue(isFirst)), [&] {
          WaitSmemToGmemOp::create(b, loc, layout.blocks[i].slots - 1,
                                   /*read_only=*/true);
        });

    // 5. The body.
    SmallVector<Value> views;
    for (size_t i = 0; i < numBlocks; ++i)
      views.push_back(view(i, curOf(i)));
    if (failed(buildStep(b, loc, stepIdsAt(s), views)))
      return failure();

    // 6. Outputs whose block index changes after this step go out.
    Value anyLeaving;
    for (size_t i = 0; i < numBlocks; ++i)
      if (blocks[i].isOutput)
        anyLeaving = anyLeaving ? orValues(anyLeaving, leaving[i]) : leaving[i];
    if (anyLeaving) {
      when(anyLeaving, [&] {
        CommitSmemOp::create(b, loc);
        if (layout.writtenBarrier >= 0) {
          // Every Pallas thread sharing the blocks has written its part.
          Value written = resources.barriers[layout.writtenBarrier];
          BarrierArriveOp::create(b, loc, written, zero);
          issue(Value(), [&] {
            BarrierWaitOp::create(b, loc, written, zero,
                                  arith::ConstantIntOp::create(b, loc, 0, 1));
          });
        }
      });
      for (size_t i = 0; i < numBlocks; ++i) {
        if (!blocks[i].isOutput)
          continue;
        issue(leaving[i], [&] { copyOut(i, (*now)[i], curOf(i)); });
        if (carried[i].cur >= 0)
          yields[carried[i].cur] = arith::SelectOp::create(
              b, loc, leaving[i], nextSlot(i, curOf(i)), curOf(i));
      }
    }

    // 7. Inputs move to their next slot when their block index changes.
    for (size_t i = 0; i < numBlocks; ++i) {
      if (blocks[i].isOutput || carried[i].cur < 0)
        continue;
      Value moves = andValues(notValue(isLast), leaving[i]);
      yields[carried[i].cur] = arith::SelectOp::create(
          b, loc, moves, nextSlot(i, curOf(i)), curOf(i));
    }
    setYield(b, loc, loop.getBody(), yields);
  }

  // Every copy out has landed before the kernel goes on.
  if (llvm::any_of(blocks,
                   [](const PipelinedBlock &block) { return block.isOutput; }))
    issue(Value(), [&] { WaitSmemToGmemOp::create(b, loc, 0, false); });
  return success();
}

LogicalResult mlir::mgpu::emitPipeline(OpBuilder &b, Location loc,
                                       ArrayRef<PipelinedBlock> blocks,
                                       const PipelineLayout &layout,
                                       const PipelineResources &resources,
                                       const PipelineSchedule &schedule,
                                       PipelineStepBuilder buildStep) {
  return PipelineEmitter(b, loc, blocks, layout, resources, schedule)
      .emit(buildStep);
}
