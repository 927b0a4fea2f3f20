//===- PipelineEmitter.h - Builder of pipeline step loops -------*- C++ -*-===//
//
// The builder shared by the two shapes of a Pallas pipeline: the step loop
// of one Pallas thread (PipelineExpansion.cpp) and the producer and consumer
// loops of a warp-specialized one (WarpSpecializedPipeline.cpp). It holds
// what both need: block indices per step, ring slots, views of the arena,
// fetches, waits for the next phase, copies out.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_KERNELFORM_PIPELINEEMITTER_H
#define MGPU_LIB_KERNELFORM_PIPELINEEMITTER_H

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/PipelineExpansion.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::mgpu {

/// Ends `block` (an scf.for body) with a yield of `values`, replacing the
/// terminator the builder may have put there.
inline void setYield(OpBuilder &b, Location loc, Block *block,
                     ValueRange values) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    block->back().erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  scf::YieldOp::create(b, loc, values);
}

/// Builds one pipeline: emitPipeline's step loop, or the two loops of a
/// warp-specialized one (WarpSpecializedPipeline.cpp).
class PipelineEmitter {
public:
  PipelineEmitter(OpBuilder &b, Location loc, ArrayRef<PipelinedBlock> blocks,
                  const PipelineLayout &layout,
                  const PipelineResources &resources,
                  const PipelineSchedule &schedule)
      : b(b), loc(loc), blocks(blocks), layout(layout), resources(resources),
        schedule(schedule) {}

  FailureOr<SmallVector<Value>> emit(PipelineStepBuilder buildStep,
                                     ValueRange initCarry);
  FailureOr<SmallVector<Value>>
  emitWarpSpecialized(PipelineStepBuilder buildStep, ValueRange initCarry);

private:
  OpBuilder &b;
  Location loc;
  ArrayRef<PipelinedBlock> blocks;
  const PipelineLayout &layout;
  const PipelineResources &resources;
  const PipelineSchedule &schedule;
  Value zero, one;
  /// How many steps there are, and the last one.
  Value steps, last;

  Value index(int64_t v) { return indexConstant(b, loc, v); }

  /// Sets the constants and step counts above, which every loop uses.
  void countSteps() {
    zero = index(0);
    one = index(1);
    steps = one;
    for (Value size : schedule.stepSizes)
      steps = arith::MulIOp::create(b, loc, steps, size);
    last = arith::SubIOp::create(b, loc, steps, one);
  }
  scf::ForOp stepLoop(ValueRange inits) {
    return scf::ForOp::create(b, loc, zero, steps, one, inits);
  }

  /// Inputs fetched ahead of their step (not aliased).
  bool isPrefetched(size_t i) const {
    return !blocks[i].isOutput && !blocks[i].aliased;
  }
  /// Blocks whose slots are filled from memory.
  bool isFetched(size_t i) const { return layout.blocks[i].barrier >= 0; }
  /// Warp-specialized: the first input block of its fetch group.
  bool isGroupLeader(size_t i) const {
    return layout.blocks[i].fetchGroup == static_cast<int64_t>(i);
  }

  /// Row-major step indices of linear step `t`.
  SmallVector<Value> stepIdsAt(Value t) {
    return delinearize(b, loc, t, schedule.stepSizes);
  }

  /// The block index of every block at linear step `t`.
  FailureOr<SmallVector<SmallVector<Value>>> blockIndicesAt(Value t) {
    SmallVector<Value> operands = schedule.gridIdsAt(b, loc, stepIdsAt(t));
    llvm::append_range(operands, schedule.indexMapSymbols);
    SmallVector<SmallVector<Value>> indices;
    for (const PipelinedBlock &block : blocks) {
      std::optional<SmallVector<Value>> index = affine::expandAffineMap(
          b, loc, block.spec.getIndexMap().getValue(), operands);
      if (!index)
        return emitError(loc)
               << "cannot expand the index map " << block.spec.getIndexMap();
      indices.push_back(*index);
    }
    return indices;
  }

  /// The block indices of every block at a step, at the step before (the
  /// first step's own at the first) and at the step after (the last step's
  /// own at the last): whether a block changes at or after the step.
  struct BlocksAround {
    SmallVector<SmallVector<Value>> now, before, after;
  };
  FailureOr<BlocksAround> blockIndicesAround(Value s, bool withAfter) {
    FailureOr<SmallVector<SmallVector<Value>>> now = blockIndicesAt(s);
    FailureOr<SmallVector<SmallVector<Value>>> before =
        blockIndicesAt(arith::SubIOp::create(
            b, loc, arith::MaxUIOp::create(b, loc, s, one), one));
    FailureOr<SmallVector<SmallVector<Value>>> after =
        SmallVector<SmallVector<Value>>();
    if (withAfter)
      after = blockIndicesAt(arith::AddIOp::create(
          b, loc, arith::MinUIOp::create(b, loc, s, last), one));
    if (failed(now) || failed(before) || failed(after))
      return failure();
    return BlocksAround{std::move(*now), std::move(*before), std::move(*after)};
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
    auto type = getStagedSlotType(blocks[i].array.getType(), blocks[i].spec);
    return memref::ViewOp::create(b, loc, type, resources.arena, shift,
                                  ValueRange());
  }

  /// Block `i` in `slot` as the body sees it: the slot without the block's
  /// squeezed dimensions, each folded into a neighbour the body keeps.
  Value bodyView(size_t i, Value slot) {
    Value slotView = view(i, slot);
    BlockSpecAttr spec = blocks[i].spec;
    if (!llvm::is_contained(spec.getIndexing(), BlockIndexing::squeezed))
      return slotView;
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices leading;
    for (size_t d = 0; d < spec.getShape().size(); ++d) {
      if (spec.getIndexingOf(d) != BlockIndexing::squeezed) {
        groups.push_back(leading);
        groups.back().push_back(d);
        leading.clear();
      } else if (groups.empty()) {
        leading.push_back(d);
      } else {
        groups.back().push_back(d);
      }
    }
    return memref::CollapseShapeOp::create(b, loc, slotView, groups);
  }

  /// Element offsets of the window of block index `index` (an index map
  /// result of a squeezed or element dimension is already one).
  SmallVector<OpFoldResult> windowOffsets(size_t i, ArrayRef<Value> index) {
    SmallVector<OpFoldResult> offsets;
    for (auto [d, value] : llvm::enumerate(index))
      offsets.push_back(
          blocks[i].spec.getIndexingOf(d) == BlockIndexing::blocked
              ? Value(arith::MulIOp::create(
                    b, loc, value, this->index(blocks[i].spec.getShape()[d])))
              : value);
    return offsets;
  }

  /// Runs `body` where `cond` holds and, with a leader, on the leader only.
  void issue(Value cond, function_ref<void()> body) {
    if (schedule.leader)
      cond = cond ? andValues(cond, schedule.leader) : schedule.leader;
    if (!cond)
      return body();
    when(cond, body);
  }
  void when(Value cond, function_ref<void()> body) {
    buildIfThen(b, loc, cond, body);
  }

  /// Builds the body of step `s` on the views of the blocks' slots and the
  /// values carried into it; returns the values carried out.
  FailureOr<SmallVector<Value>>
  buildStepAt(Value s, PipelineStepBuilder buildStep,
              function_ref<Value(size_t)> slotOf, ValueRange carries = {},
              ArrayRef<BarrierSlot> slotBarriers = {}) {
    SmallVector<Value> views;
    for (size_t i = 0; i < blocks.size(); ++i)
      views.push_back(bodyView(i, slotOf(i)));
    return buildStep(b, loc, stepIdsAt(s), views, carries, slotBarriers);
  }

  /// Block `i`'s slot at the next step, from `slot` at this one: the next
  /// slot of its ring when it is `leaving` (except after the last step).
  Value slotAfterStep(size_t i, Value slot, Value isLast, Value leaving) {
    Value moves = andValues(notValue(isLast), leaving);
    return arith::SelectOp::create(b, loc, moves, nextSlot(i, slot), slot);
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
    CopyGmemToSmemOp::create(
        b, loc, blocks[i].array, dynamic, staticOffsets, view(i, slot),
        resources.barriers[layout.blocks[i].barrier],
        barrierIndex(layout.blocks[i].barrier, slot),
        blocks[i].appliedTransforms, blocks[i].spec.getCollectiveAxes(),
        /*cluster_dims=*/DenseI64ArrayAttr());
  }

  /// Waits for the fetch into `slot` of block `i`: the next phase of the
  /// slot's barrier that this thread has not waited for. Every fetch is
  /// waited for once, by the threads that read the block, so
  /// --mgpu-track-barrier-phases gives the wait its parity, and the phases
  /// carry on when a loop runs the pipeline again.
  void waitFor(size_t i, Value slot) {
    int64_t barrier = layout.blocks[i].barrier;
    BarrierWaitOp::create(b, loc, resources.barriers[barrier],
                          barrierIndex(barrier, slot), /*parity=*/Value());
  }

  void copyOut(size_t i, ArrayRef<Value> blockIndex, Value slot) {
    SmallVector<Value> dynamic;
    SmallVector<int64_t> staticOffsets;
    dispatchIndexOpFoldResults(windowOffsets(i, blockIndex), dynamic,
                               staticOffsets);
    CopySmemToGmemOp::create(b, loc, view(i, slot), blocks[i].array, dynamic,
                             staticOffsets, /*commit_group=*/true,
                             /*reduction=*/nullptr);
  }
};

} // namespace mlir::mgpu

#endif // MGPU_LIB_KERNELFORM_PIPELINEEMITTER_H
