//===- PipelineExpansion.h - Pallas pipelines as step loops -----*- C++ -*-===//
//
// The one implementation of Pallas' pipelining semantics, shared by
// pallas_call and emit_pipeline (--mgpu-expand-pipelines): a loop over the
// steps of a grid whose body stages blocks through shared-memory buffer
// slots with kernel-level ops. Inputs get `depth` slots and are fetched up
// to depth - 1 steps ahead, each fetch counted on the slot's barrier; a
// block that stays the same across consecutive steps is fetched (or written
// back) once; outputs are written back when their block index changes and
// at the end, from slots that rotate so that a copy out overlaps the next
// block. Every backend runs the loop this emits. A warp-specialized pipeline
// (PipelineSchedule::computeThreads > 0) is two loops instead: a memory
// thread filling the slots, released through `empty` barriers by compute
// threads that run the body.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_PIPELINEEXPANSION_H
#define MGPU_KERNELFORM_PIPELINEEXPANSION_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// One block a pipeline stages through shared memory.
struct PipelinedBlock {
  /// The global ref the block is a window of.
  Value array;
  BlockSpecAttr spec;
  bool isOutput = false;
  /// Whether the array is both read and written by the pipeline (JAX's
  /// input_output_aliases): such a block is read in step order, after the
  /// copies out before it have landed, and an aliased output is read too.
  bool aliased = false;
  /// For an aliased output with the same block spec as its input: the
  /// index of that input's block, whose slot it shares. Like the array in
  /// global memory, the two refs are then one buffer: writes through the
  /// input's ref are the output (Pallas' input_output_aliases).
  int64_t sharesSlotOf = -1;
  /// The spec's transforms when the slots hold the block in that layout
  /// (null: row-major).
  ArrayAttr appliedTransforms;
};

/// The shared memory of a pipeline: one byte arena holding every slot of
/// every block, and one barrier array per block read from memory (counting
/// the fetches into its slots), plus, when several Pallas threads share
/// the blocks, one barrier on which they all arrive before a copy out.
struct PipelineLayout {
  struct Block {
    int64_t slots = 1;
    int64_t firstByte = 0;
    int64_t slotBytes = 0;
    /// Index into `barriers` of the block's fetch barrier, or -1.
    int64_t barrier = -1;
    /// Warp-specialized: index into `barriers` of the barrier on which the
    /// compute threads release the block's slots, or -1.
    int64_t emptyBarrier = -1;
    /// Warp-specialized: the first input block of the block's fetch group
    /// (blocks that change at the same steps and share their barriers and
    /// slot numbers), or -1 for outputs.
    int64_t fetchGroup = -1;
  };
  SmallVector<Block> blocks;
  /// !mgpu.barrier arrays, and !mgpu.cluster_barrier arrays for the slot
  /// releases of a pipeline with multicast blocks.
  SmallVector<BarrierLikeType> barriers;
  /// Index into `barriers` of the barrier shared by all participants
  /// before a copy out, or -1.
  int64_t writtenBarrier = -1;
  /// Warp-specialized: index into `barriers` of the barrier on which the
  /// leader says that the copies out have read the output slots, or -1.
  int64_t freedBarrier = -1;
  int64_t arenaBytes = 0;
  /// Slots of the inputs fetched ahead (depth).
  int64_t depth = 1;
};

/// Plans the shared memory of a pipeline over `blocks` with `depth` slots
/// per block, shared by `participants` Pallas threads.
/// `computeThreads` > 0 plans a warp-specialized pipeline: its slots are
/// released by that many compute threads, which also share the outputs.
/// `releaseAxes` (cluster axes whose CTAs multicast some input block into
/// each other's slots, `releaseGroup` CTAs in all) makes the release
/// barriers cluster barriers: a slot is refilled only once every compute
/// thread of every CTA of the group has released it.
/// `manualRelease` (JAX's manual_consumed_barriers) gives every input its
/// own release barrier, which the body arrives on, `manualReady` (JAX's
/// manual_ready_barriers) its own fetch barrier, which the body waits on;
/// either fetches all inputs as one group, at every step.
PipelineLayout
planPipeline(MLIRContext *ctx, ArrayRef<PipelinedBlock> blocks, int64_t depth,
             int64_t participants, int64_t computeThreads = 0,
             ArrayRef<StringAttr> releaseAxes = {}, int64_t releaseGroup = 1,
             bool manualRelease = false, bool manualReady = false);

/// Where a pipeline's shared memory is: the arena (a static i8 memref in
/// workgroup memory) at a byte offset, and its barrier arrays, each indexed
/// from its own base (pipelines of several Pallas threads use their own
/// ranges of the same arrays; null bases are 0).
struct PipelineResources {
  Value arena;
  Value arenaOffset;
  SmallVector<Value> barriers;
  SmallVector<Value> barrierBases;
};

/// The iteration of a pipeline: the sizes of its steps' axes (row-major,
/// last axis innermost), the grid indices its index maps take at given step
/// indices, and who issues the copies.
struct PipelineSchedule {
  SmallVector<Value> stepSizes;
  /// The values of the index maps' symbols (emit_pipeline's
  /// index_map_symbols), after the grid indices.
  SmallVector<Value> indexMapSymbols;
  std::function<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
      gridIdsAt;
  /// The Pallas thread that issues copies when several share the blocks
  /// (an i1), or null when the Pallas thread running the loop is alone.
  Value leader;
  int64_t participants = 1;
  /// A warp-specialized pipeline: the Pallas thread index (an index), the
  /// number of compute threads (the memory thread comes after them) and
  /// their register budgets (setmaxnreg), if they are rebalanced.
  Value thread;
  int64_t computeThreads = 0;
  std::optional<int64_t> memoryRegisters, computeRegisters;
  /// The body synchronizes with no other thread (no barrier or semaphore
  /// op): the compute threads' loop is marked `mgpu.compute_steps`.
  bool privateSteps = false;
  /// Warp-specialized: the body releases the input slots itself (JAX's
  /// manual_consumed_barriers), and every input is fetched at every step.
  bool manualRelease = false;
  /// Warp-specialized: the body waits for the input blocks' copies itself
  /// (JAX's manual_ready_barriers); every input is fetched at every step.
  bool manualReady = false;
  /// Emits what the compute threads run (JAX's compute_context), calling
  /// `runSteps` on the initial carries where their steps run; returns what
  /// the compute threads' branch yields (the pipeline's results). Null runs
  /// the steps on the pipeline's init_carry and returns the last carries.
  using RunSteps =
      function_ref<FailureOr<SmallVector<Value>>(ValueRange initCarry)>;
  std::function<FailureOr<SmallVector<Value>>(OpBuilder &, Location,
                                              ValueRange initCarry, RunSteps)>
      computeContext;
};

/// Where the body of a step with manual barriers waits for an input's copy
/// or arrives to release its slot: barrier `index` of the array `barriers`.
struct BarrierSlot {
  Value barriers;
  Value index;
};

/// Emits the body of one step: given the step's indices, the views of the
/// blocks' current slots (in `blocks` order), the values carried into
/// the step and, with manual barriers, each input's ready barrier, then
/// each input's consumed barrier (as many as the body takes);
/// returns the values carried out of it.
using PipelineStepBuilder = function_ref<FailureOr<SmallVector<Value>>(
    OpBuilder &, Location, ValueRange stepIds, ValueRange blockViews,
    ValueRange carries, ArrayRef<BarrierSlot> barriers)>;

/// Emits the pipeline at `b`'s insertion point, carrying `initCarry`
/// through its steps; returns the values carried out of the last step.
FailureOr<SmallVector<Value>>
emitPipeline(OpBuilder &b, Location loc, ArrayRef<PipelinedBlock> blocks,
             const PipelineLayout &layout, const PipelineResources &resources,
             const PipelineSchedule &schedule, PipelineStepBuilder buildStep,
             ValueRange initCarry = {});

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_PIPELINEEXPANSION_H
