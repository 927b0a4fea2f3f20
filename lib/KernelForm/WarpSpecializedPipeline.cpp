//===- WarpSpecializedPipeline.cpp - Producer and consumer step loops -----===//
//
// A warp-specialized pipeline (JAX's emit_pipeline_warp_specialized) runs as
// two loops over the same steps. The memory thread fetches every input block
// into the next slot of its ring, and before refilling a slot waits on the
// slot's `empty` barrier, which completes a phase when every compute thread
// has released it. The compute threads wait on the slot's fetch barrier, run
// the body, and release the slot when the block index changes: the f-th
// fill of a ring goes to slot f mod N, and needs the (f / N - 1)-th release
// of that slot. After its last fill the memory thread waits for the releases
// it has not waited for, so that every thread has waited for every phase of
// the barriers it waits on when a run ends.
//
// Output blocks are shared by the compute threads: when one leaves, all of
// them meet on the `written` barrier, thread 0 copies it out, waits until the
// copies have read shared memory and says so on the `freed` barrier, which
// all of them wait on before writing the next one.
//
// Values carried across steps (`init_carry`; JAX's compute_context, whose
// accumulator never touches shared memory) ride in the compute threads'
// loop, and the pipeline returns their last values there; the memory thread,
// which runs no step, gets undefined values. The compute_context region runs
// in the compute threads' branch, where their register budget holds: after
// their loop, or around it when it calls mgpu.eval_pipeline (JAX's
// pipeline_callback), which becomes the loop.
//
// With manual releases (JAX's manual_consumed_barriers) the body arrives on
// each input's `empty` barrier itself, and the memory thread waits for each
// input's release before refilling its slot; with manual ready barriers
// (manual_ready_barriers) the body waits for each input's copy itself.
// Either way every input is fetched, waited for and released at every
// step, whatever its block index (JAX's memory thread).
//
// Every wait here is for the next phase its thread has not waited for, and
// --mgpu-track-barrier-phases gives it its parity: the phases carry on from
// one run of the pipeline to the next when a loop runs it again (JAX's
// pipelines inside a fori_loop), where counts restarted at 0 would wait for
// a phase that has completed already or never comes.
//
//===----------------------------------------------------------------------===//

#include "PipelineEmitter.h"

#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// A wait for the next phase of barrier `index` of `barriers` that this
/// thread has not waited for (--mgpu-track-barrier-phases gives its parity).
void waitForNextPhase(OpBuilder &b, Location loc, Value barriers, Value index) {
  BarrierWaitOp::create(b, loc, barriers, index, /*parity=*/Value());
}

Value addFlag(OpBuilder &b, Location loc, Value count, Value flag) {
  return arith::AddIOp::create(
      b, loc, count,
      arith::IndexCastUIOp::create(b, loc, b.getIndexType(), flag));
}

} // namespace

FailureOr<SmallVector<Value>>
PipelineEmitter::emitWarpSpecialized(PipelineStepBuilder buildStep,
                                     ValueRange initCarry) {
  countSteps();
  size_t numBlocks = blocks.size();
  bool manual = schedule.manualRelease || schedule.manualReady;
  bool manualRelease = schedule.manualRelease;
  Value always = manual ? arith::ConstantIntOp::create(b, loc, 1, 1) : Value();
  // With manual barriers, every input changes at every step (JAX fetches
  // and releases each step's blocks, whatever their index).
  auto changedAt = [&](Value s, const BlocksAround &around, size_t i) {
    if (manual && !blocks[i].isOutput)
      return always;
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, zero);
    return orValues(isFirst, differs(around.now[i], around.before[i]));
  };
  auto membersOf = [&](size_t leader) {
    SmallVector<size_t> members;
    for (size_t j = 0; j < numBlocks; ++j)
      if (layout.blocks[j].fetchGroup == static_cast<int64_t>(leader))
        members.push_back(j);
    return members;
  };
  auto waitReleased = [&](size_t i, Value slot) {
    int64_t empty = layout.blocks[i].emptyBarrier;
    waitForNextPhase(b, loc, resources.barriers[empty],
                     barrierIndex(empty, slot));
  };

  Value isMemoryThread =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, schedule.thread,
                            index(schedule.computeThreads));
  auto roles = scf::IfOp::create(b, loc, initCarry.getTypes(), isMemoryThread,
                                 /*withElseRegion=*/true);

  // The memory thread: every input block into the next slot of its ring.
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.thenBlock());
    if (schedule.memoryRegisters)
      SetMaxRegistersOp::create(b, loc, *schedule.memoryRegisters,
                                RegisterChange::decrease);
    SmallVector<Value> inits;
    SmallVector<size_t> inputs; // one per fetch group: its first block
    for (size_t i = 0; i < numBlocks; ++i) {
      if (!isGroupLeader(i))
        continue;
      inputs.push_back(i);
      inits.push_back(index(layout.blocks[i].slots - 1)); // newest slot
      inits.push_back(zero);                              // fills
    }
    auto loop = stepLoop(inits);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    FailureOr<BlocksAround> around = blockIndicesAround(s, /*withAfter=*/false);
    if (failed(around))
      return failure();
    SmallVector<Value> yields;
    for (auto [n, i] : llvm::enumerate(inputs)) {
      Value newest = loop.getRegionIterArgs()[2 * n];
      Value fills = loop.getRegionIterArgs()[2 * n + 1];
      int64_t slots = layout.blocks[i].slots;
      Value changes = changedAt(s, *around, i);
      Value slot =
          arith::SelectOp::create(b, loc, changes, nextSlot(i, newest), newest);
      auto refillGroup = [&] {
        Value refill = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             fills, index(slots));
        if (!manualRelease) {
          when(refill, [&] { waitReleased(i, slot); });
          for (size_t j : membersOf(i))
            fetch(j, around->now[j], slot);
          return;
        }
        // JAX's order: each input's release, then its copy.
        for (size_t j : membersOf(i)) {
          when(refill, [&] { waitReleased(j, slot); });
          fetch(j, around->now[j], slot);
        }
      };
      if (manual)
        refillGroup();
      else
        when(changes, refillGroup);
      yields.push_back(slot);
      yields.push_back(addFlag(b, loc, fills, changes));
    }
    setYield(b, loc, loop.getBody(), yields);

    // The releases of the last fills (at most N per ring), in fill order:
    // fill f went to slot f mod N.
    b.setInsertionPointAfter(loop);
    for (auto [n, i] : llvm::enumerate(inputs)) {
      Value fills = loop.getResult(2 * n + 1);
      Value slots = index(layout.blocks[i].slots);
      Value unreleased = arith::SubIOp::create(
          b, loc, fills, arith::MinUIOp::create(b, loc, fills, slots));
      // One release barrier per group, or per input with manual releases.
      for (size_t j : membersOf(i)) {
        if (j != i && !manualRelease)
          continue;
        auto drain = scf::ForOp::create(b, loc, unreleased, fills, one);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(drain.getBody());
        waitReleased(
            j, arith::RemUIOp::create(b, loc, drain.getInductionVar(), slots));
      }
    }
    // The memory thread runs no step: what the steps carry is undefined
    // there (JAX's compute_context runs the code that reads the carry on the
    // compute threads only). Poison, rather than the initial values, keeps
    // the carry out of the memory thread's few registers.
    SmallVector<Value> undefined;
    for (Type type : initCarry.getTypes())
      undefined.push_back(ub::PoisonOp::create(b, loc, type));
    setYield(b, loc, roles.thenBlock(), undefined);
  }

  // The compute threads: wait, run the body, release, write outputs back.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roles.elseBlock());
  if (schedule.memoryRegisters && schedule.computeRegisters)
    SetMaxRegistersOp::create(b, loc, *schedule.computeRegisters,
                              RegisterChange::increase);
  // The compute threads' steps, on the carries they start from (JAX's
  // pipeline_callback); returns the last carries.
  auto runSteps = [&](ValueRange startCarry) -> FailureOr<SmallVector<Value>> {
    bool anyOutput = layout.writtenBarrier >= 0;
    struct Carried {
      int cur = -1;
    };
    // Inputs carry their slot per fetch group, in its first block.
    SmallVector<Carried> carried(numBlocks);
    SmallVector<Value> inits;
    for (size_t i = 0; i < numBlocks; ++i) {
      if (!blocks[i].isOutput && !isGroupLeader(i))
        continue;
      if (layout.blocks[i].slots > 1) {
        carried[i].cur = inits.size();
        inits.push_back(zero);
      }
    }
    // With delay_release (the same for every input), a step releases the
    // slots of the step `delay` before it: each group's last `delay` slots
    // and whether they were leaving, oldest first, ride in the loop.
    int64_t delay = 0;
    for (const PipelinedBlock &block : blocks)
      if (!block.isOutput)
        delay = std::max(delay, block.spec.getDelayRelease());
    SmallVector<size_t> leaders;
    for (size_t i = 0; i < numBlocks; ++i)
      if (!blocks[i].isOutput && isGroupLeader(i))
        leaders.push_back(i);
    size_t firstDelayed = inits.size();
    Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (size_t n = 0; n < leaders.size() * delay; ++n) {
      inits.push_back(zero);
      inits.push_back(no);
    }
    auto delayedAt = [&](ValueRange values, size_t n, int64_t age) {
      size_t at = firstDelayed + 2 * (n * delay + age);
      return std::make_pair(values[at], values[at + 1]);
    };
    size_t firstCarry = inits.size();
    llvm::append_range(inits, startCarry);
    auto loop = stepLoop(inits);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    ValueRange iterArgs = loop.getRegionIterArgs();
    SmallVector<Value> yields(iterArgs.begin(), iterArgs.end());
    auto curOf = [&](size_t i) {
      if (!blocks[i].isOutput)
        i = layout.blocks[i].fetchGroup;
      return carried[i].cur >= 0 ? iterArgs[carried[i].cur] : zero;
    };
    Value isLast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, last);
    FailureOr<BlocksAround> around = blockIndicesAround(s, /*withAfter=*/true);
    if (failed(around))
      return failure();
    SmallVector<Value> leaving(numBlocks);
    for (size_t i = 0; i < numBlocks; ++i) {
      leaving[i] =
          manual && !blocks[i].isOutput
              ? always
              : orValues(isLast, differs(around->now[i], around->after[i]));
      if (!isFetched(i) || !isGroupLeader(i))
        continue;
      if (schedule.manualReady)
        continue;
      if (manual)
        waitFor(i, curOf(i));
      else
        when(changedAt(s, *around, i), [&] { waitFor(i, curOf(i)); });
    }

    // With manual barriers, the body waits on each input's fetch barrier
    // and arrives on its release barrier of this step's slot (JAX's
    // ready_barrier.at[slot], consumed_barrier.at[slot]).
    SmallVector<BarrierSlot> slotBarriers;
    auto addSlotBarriers = [&](bool add, int64_t PipelineLayout::Block::*of) {
      for (size_t i = 0; add && i < numBlocks; ++i) {
        if (blocks[i].isOutput)
          continue;
        int64_t barrier = layout.blocks[i].*of;
        slotBarriers.push_back(
            {resources.barriers[barrier], barrierIndex(barrier, curOf(i))});
      }
    };
    addSlotBarriers(schedule.manualReady, &PipelineLayout::Block::barrier);
    addSlotBarriers(manualRelease, &PipelineLayout::Block::emptyBarrier);
    FailureOr<SmallVector<Value>> carriedOut = buildStepAt(
        s, buildStep, curOf, iterArgs.drop_front(firstCarry), slotBarriers);
    if (failed(carriedOut))
      return failure();
    for (auto [i, value] : llvm::enumerate(*carriedOut))
      yields[firstCarry + i] = value;

    // A slot is released once the tensor cores are done reading it too:
    // with a delay, the MMAs of the `delay` latest steps may still run.
    // With manual releases the body waits for its MMAs itself, as in JAX.
    bool readsOnTensorCores = false;
    loop.getBody()->walk([&](WgmmaOp) { readsOnTensorCores = true; });
    if (readsOnTensorCores && !manualRelease) {
      WgmmaWaitOp::create(b, loc, delay);
      // None in flight after the last step: what follows the loop (the
      // accumulator written back) reads their results.
      if (delay > 0)
        when(isLast, [&] { WgmmaWaitOp::create(b, loc, 0); });
    }
    auto release = [&](size_t i, Value slot, Value leaves) {
      int64_t empty = layout.blocks[i].emptyBarrier;
      when(leaves, [&] {
        BarrierArriveOp::create(b, loc, resources.barriers[empty],
                                barrierIndex(empty, slot));
      });
    };
    for (auto [n, i] : llvm::enumerate(leaders)) {
      if (manualRelease)
        break;
      if (delay == 0) {
        release(i, curOf(i), leaving[i]);
        continue;
      }
      auto [oldSlot, oldLeaving] = delayedAt(iterArgs, n, 0);
      release(i, oldSlot, oldLeaving);
      for (int64_t age = 0; age + 1 < delay; ++age) {
        auto [slot, leaves] = delayedAt(iterArgs, n, age + 1);
        size_t at = firstDelayed + 2 * (n * delay + age);
        yields[at] = slot;
        yields[at + 1] = leaves;
      }
      size_t at = firstDelayed + 2 * (n * delay + delay - 1);
      yields[at] = curOf(i);
      yields[at + 1] = leaving[i];
    }

    if (anyOutput) {
      Value anyLeaving;
      for (size_t i = 0; i < numBlocks; ++i)
        if (blocks[i].isOutput)
          anyLeaving =
              anyLeaving ? orValues(anyLeaving, leaving[i]) : leaving[i];
      when(anyLeaving, [&] {
        Value written = resources.barriers[layout.writtenBarrier];
        Value freed = resources.barriers[layout.freedBarrier];
        CommitSmemOp::create(b, loc);
        BarrierArriveOp::create(b, loc, written, zero);
        waitForNextPhase(b, loc, written, zero);
        when(schedule.leader, [&] {
          for (size_t i = 0; i < numBlocks; ++i)
            if (blocks[i].isOutput)
              when(leaving[i], [&] { copyOut(i, around->now[i], curOf(i)); });
          // The next output block may go into any slot: every copy out
          // has read its slot before the compute threads write again.
          WaitSmemToGmemOp::create(b, loc, 0, /*read_only=*/true);
          BarrierArriveOp::create(b, loc, freed, zero);
        });
        waitForNextPhase(b, loc, freed, zero);
      });
    }

    for (size_t i = 0; i < numBlocks; ++i) {
      if (carried[i].cur < 0)
        continue;
      yields[carried[i].cur] = slotAfterStep(i, curOf(i), isLast, leaving[i]);
    }
    setYield(b, loc, loop.getBody(), yields);
    if (schedule.privateSteps)
      loop->setAttr(MGPUDialect::getComputeStepsAttrName(), b.getUnitAttr());

    b.setInsertionPointAfter(loop);
    // The delayed releases of the last steps, oldest first.
    if (delay > 0) {
      for (auto [n, i] : llvm::enumerate(leaders))
        for (int64_t age = 0; age < delay; ++age) {
          auto [slot, leaves] = delayedAt(loop.getResults(), n, age);
          release(i, slot, leaves);
        }
    }
    if (anyOutput)
      when(schedule.leader,
           [&] { WaitSmemToGmemOp::create(b, loc, 0, /*read_only=*/false); });
    return SmallVector<Value>(loop.getResults().drop_front(firstCarry));
  };
  FailureOr<SmallVector<Value>> yielded =
      schedule.computeContext
          ? schedule.computeContext(b, loc, initCarry, runSteps)
          : runSteps(initCarry);
  if (failed(yielded))
    return failure();
  setYield(b, loc, roles.elseBlock(), *yielded);
  return SmallVector<Value>(roles.getResults());
}
