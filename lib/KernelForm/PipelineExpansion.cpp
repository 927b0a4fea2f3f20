//===- PipelineExpansion.cpp - Pallas pipelines as step loops -------------===//
//
// Emits the step loop of a pipeline (see the header) with kernel-level ops.
// The loop carries, per block, the slot it reads or writes at the current
// step; inputs fetched ahead also carry the newest slot fetched. Every wait
// is for the next phase of its barrier that the thread has not waited for
// (--mgpu-track-barrier-phases gives it its parity): slots fill and drain in
// ring order and every fetch is waited for once, so the phases a thread has
// waited for are the phases completed, also when a loop runs the pipeline
// again.
//
//===----------------------------------------------------------------------===//

#include "PipelineEmitter.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::mgpu;

/// Slots start at multiples of this: what TMA needs without a swizzle, and
/// enough for 128-bit accesses.
static constexpr int64_t kSlotAlignment = TargetInfo::kSharedAlignment;
/// A swizzled slot starts at a multiple of its swizzle pattern's 1024 bytes.
static constexpr int64_t kSwizzledSlotAlignment = TargetInfo::kSwizzleAtomBytes;

/// Whether a block of `map` (over a 1-D pipeline grid) changes at every
/// step: a result linear in the step, which it depends on, differs between
/// any two consecutive ones.
static bool changesEveryStep(AffineMap map) {
  if (map.getNumDims() != 1 || map.getNumSymbols() != 0)
    return false;
  return llvm::any_of(map.getResults(), [](AffineExpr result) {
    return result.isPureAffine() && result.isFunctionOfDim(0);
  });
}

/// Warp-specialized: the input blocks that change at the same steps share
/// one fetch barrier (an arrival per copy) and one release barrier, so a
/// step costs the compute threads one wait and one release per group. The
/// group's key: changing at every step, or else the index map itself.
/// With manual barriers every input is fetched at every step (JAX's
/// memory thread): all of them are one group.
static SmallVector<int64_t> fetchGroups(ArrayRef<PipelinedBlock> blocks,
                                        bool everyStep) {
  SmallVector<int64_t> leaders(blocks.size(), -1);
  for (auto [i, block] : llvm::enumerate(blocks)) {
    if (block.isOutput || block.aliased || block.sharesSlotOf >= 0)
      continue;
    AffineMap map = block.spec.getIndexMap().getValue();
    leaders[i] = i;
    for (size_t j = 0; j < i; ++j) {
      if (leaders[j] != static_cast<int64_t>(j))
        continue;
      AffineMap other = blocks[j].spec.getIndexMap().getValue();
      if (everyStep || other == map ||
          (changesEveryStep(map) && changesEveryStep(other))) {
        leaders[i] = j;
        break;
      }
    }
  }
  return leaders;
}

PipelineLayout mlir::mgpu::planPipeline(MLIRContext *ctx,
                                        ArrayRef<PipelinedBlock> blocks,
                                        int64_t depth, int64_t participants,
                                        int64_t computeThreads,
                                        ArrayRef<StringAttr> releaseAxes,
                                        int64_t releaseGroup,
                                        bool manualRelease, bool manualReady) {
  PipelineLayout layout;
  layout.depth = depth;
  int64_t bytes = 0;
  SmallVector<int64_t> leaders =
      computeThreads > 0 ? fetchGroups(blocks, manualRelease || manualReady)
                         : SmallVector<int64_t>(blocks.size(), -1);
  // Count and arrivals of each barrier array, typed once all are known;
  // the release barriers are cluster barriers where blocks are multicast.
  SmallVector<std::pair<int64_t, int64_t>> barriers;
  llvm::SmallDenseSet<size_t> releases;
  for (auto [i, block] : llvm::enumerate(blocks)) {
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
    planned.fetchGroup = leaders[i];
    if (leaders[i] >= 0 && leaders[i] != static_cast<int64_t>(i)) {
      // A later member of a fetch group: its leader's barriers (its own
      // release barrier when the body releases each input).
      const PipelineLayout::Block &leader = layout.blocks[leaders[i]];
      planned.barrier = leader.barrier;
      planned.emptyBarrier = leader.emptyBarrier;
      if (manualReady) {
        planned.barrier = barriers.size();
        barriers.push_back({planned.slots, 1});
      } else {
        ++barriers[leader.barrier].second;
      }
      if (manualRelease) {
        planned.emptyBarrier = barriers.size();
        releases.insert(barriers.size());
        barriers.push_back({planned.slots, computeThreads});
      }
      layout.blocks.push_back(planned);
      continue;
    }
    if (!block.isOutput || block.aliased) {
      planned.barrier = barriers.size();
      barriers.push_back({planned.slots, 1});
    }
    if (computeThreads > 0 && !block.isOutput) {
      planned.emptyBarrier = barriers.size();
      releases.insert(barriers.size());
      barriers.push_back({planned.slots, computeThreads});
    }
    layout.blocks.push_back(planned);
  }
  for (auto [i, barrier] : llvm::enumerate(barriers)) {
    auto [count, arrivals] = barrier;
    if (!releaseAxes.empty() && releases.contains(i))
      layout.barriers.push_back(ClusterBarrierType::get(
          ctx, releaseAxes, count, arrivals * releaseGroup));
    else
      layout.barriers.push_back(BarrierType::get(ctx, count, arrivals));
  }
  bool anyOutput = llvm::any_of(
      blocks, [](const PipelinedBlock &block) { return block.isOutput; });
  if (computeThreads > 0 && anyOutput) {
    layout.writtenBarrier = layout.barriers.size();
    layout.barriers.push_back(BarrierType::get(ctx, 1, computeThreads));
    layout.freedBarrier = layout.barriers.size();
    layout.barriers.push_back(BarrierType::get(ctx, 1, 1));
  } else if (participants > 1 && anyOutput) {
    layout.writtenBarrier = layout.barriers.size();
    layout.barriers.push_back(BarrierType::get(ctx, 1, participants));
  }
  layout.arenaBytes = bytes;
  return layout;
}

FailureOr<SmallVector<Value>>
PipelineEmitter::emit(PipelineStepBuilder buildStep, ValueRange initCarry) {
  countSteps();
  int64_t depth = layout.depth;
  size_t numBlocks = blocks.size();
  SmallVector<size_t> prefetched;
  for (size_t i = 0; i < numBlocks; ++i)
    if (isPrefetched(i))
      prefetched.push_back(i);

  // How many steps ahead each input is fetched: depth - 1, less its
  // delay_release (its slot is kept that many steps after its own).
  auto aheadOf = [&](size_t i) {
    return std::max<int64_t>(0, depth - 1 - blocks[i].spec.getDelayRelease());
  };

  // Prologue: the blocks of steps 0 .. ahead - 1, each into the next slot of
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
    FailureOr<BlocksAround> around = blockIndicesAround(j, /*withAfter=*/false);
    if (failed(around))
      return failure();
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j, zero);
    SmallVector<Value> yields;
    unsigned arg = 0;
    for (size_t i : prefetched) {
      Value previous = prologue.getRegionIterArgs()[arg++];
      Value changes =
          orValues(isFirst, differs(around->now[i], around->before[i]));
      if (aheadOf(i) < depth - 1)
        changes = andValues(
            changes, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j,
                                           index(aheadOf(i))));
      Value slot = arith::SelectOp::create(b, loc, changes,
                                           nextSlot(i, previous), previous);
      issue(changes, [&] { fetch(i, around->now[i], slot); });
      yields.push_back(slot);
    }
    setYield(b, loc, prologue.getBody(), yields);
    arg = 0;
    for (size_t i : prefetched)
      newest[i] = prologue.getResult(arg++);
  }

  // The step loop carries, per block: the current slot (rotating blocks)
  // and the newest slot fetched (prefetched inputs); then the body's own
  // carries.
  struct Carried {
    int cur = -1, newest = -1;
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
  }
  size_t firstCarry = inits.size();
  llvm::append_range(inits, initCarry);
  auto loop = stepLoop(inits);
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
    FailureOr<BlocksAround> around = blockIndicesAround(s, /*withAfter=*/true);
    if (failed(around))
      return failure();
    ArrayRef<SmallVector<Value>> now = around->now;
    SmallVector<Value> changed(numBlocks), leaving(numBlocks);
    for (size_t i = 0; i < numBlocks; ++i) {
      changed[i] = orValues(isFirst, differs(now[i], around->before[i]));
      leaving[i] = orValues(isLast, differs(now[i], around->after[i]));
    }

    // 1. Fetch the blocks of step s + ahead, per distance ahead.
    std::map<int64_t, SmallVector<size_t>> byDistance;
    for (size_t i : prefetched)
      byDistance[aheadOf(i)].push_back(i);
    for (auto &[distance, members] : byDistance) {
      Value t = arith::AddIOp::create(b, loc, s, index(distance));
      Value inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t, steps);
      Value tClamped = arith::MinUIOp::create(b, loc, t, last);
      FailureOr<BlocksAround> ahead =
          blockIndicesAround(tClamped, /*withAfter=*/false);
      if (failed(ahead))
        return failure();
      Value tIsFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, zero);
      for (size_t i : members) {
        Value previous = iterArgs[carried[i].newest];
        Value fetches = andValues(
            inRange,
            orValues(tIsFirst, differs(ahead->now[i], ahead->before[i])));
        Value slot = arith::SelectOp::create(b, loc, fetches,
                                             nextSlot(i, previous), previous);
        issue(fetches, [&] { fetch(i, ahead->now[i], slot); });
        yields[carried[i].newest] = slot;
      }
    }

    // 2. Blocks read and written through the same array are read now, once
    // the copies out before them have landed.
    for (size_t i = 0; i < numBlocks; ++i)
      if (blocks[i].aliased && blocks[i].sharesSlotOf < 0)
        issue(changed[i], [&] {
          WaitSmemToGmemOp::create(b, loc, 0, /*read_only=*/false);
          fetch(i, now[i], zero);
        });

    // 3. Wait for this step's fetched blocks.
    for (size_t i = 0; i < numBlocks; ++i) {
      if (!isFetched(i))
        continue;
      when(changed[i], [&] { waitFor(i, curOf(i)); });
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
    FailureOr<SmallVector<Value>> carriedOut =
        buildStepAt(s, buildStep, curOf, iterArgs.drop_front(firstCarry));
    if (failed(carriedOut))
      return failure();
    for (auto [i, value] : llvm::enumerate(*carriedOut))
      yields[firstCarry + i] = value;

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
            BarrierWaitOp::create(b, loc, written, zero, /*parity=*/Value());
          });
        }
      });
      for (size_t i = 0; i < numBlocks; ++i) {
        if (!blocks[i].isOutput)
          continue;
        issue(leaving[i], [&] { copyOut(i, now[i], curOf(i)); });
        if (carried[i].cur >= 0)
          yields[carried[i].cur] = arith::SelectOp::create(
              b, loc, leaving[i], nextSlot(i, curOf(i)), curOf(i));
      }
    }

    // 7. Inputs move to their next slot when their block index changes.
    for (size_t i = 0; i < numBlocks; ++i) {
      if (blocks[i].isOutput || carried[i].cur < 0)
        continue;
      yields[carried[i].cur] = slotAfterStep(i, curOf(i), isLast, leaving[i]);
    }
    setYield(b, loc, loop.getBody(), yields);
  }

  // Every copy out has landed before the kernel goes on.
  if (llvm::any_of(blocks,
                   [](const PipelinedBlock &block) { return block.isOutput; }))
    issue(Value(), [&] { WaitSmemToGmemOp::create(b, loc, 0, false); });
  return SmallVector<Value>(loop.getResults().drop_front(firstCarry));
}

FailureOr<SmallVector<Value>> mlir::mgpu::emitPipeline(
    OpBuilder &b, Location loc, ArrayRef<PipelinedBlock> blocks,
    const PipelineLayout &layout, const PipelineResources &resources,
    const PipelineSchedule &schedule, PipelineStepBuilder buildStep,
    ValueRange initCarry) {
  PipelineEmitter emitter(b, loc, blocks, layout, resources, schedule);
  if (schedule.computeThreads == 0)
    return emitter.emit(buildStep, initCarry);
  return emitter.emitWarpSpecialized(buildStep, initCarry);
}
