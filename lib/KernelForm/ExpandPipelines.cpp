//===- ExpandPipelines.cpp - --mgpu-expand-pipelines ----------------------===//
//
// Rewrites pallas_call and emit_pipeline into the kernel form every backend
// lowers: explicit step loops over kernel-level ops (PipelineExpansion).
//
// A pallas_call keeps its grid, operands and body but becomes `expanded`:
// its blocks are whole arrays in global memory, its scratch gains the
// pipeline's shared-memory arena and barriers, and its body loops over the
// sequential axes (parallel axes stay programs). With a mesh whose programs
// have several Pallas threads, they share the blocks: thread 0 issues the
// copies, all wait for them, and all arrive on a barrier before a copy out.
//
// An emit_pipeline becomes its loop in place; its arena and barriers are
// added to the scratch of the enclosing kernel, one range per Pallas thread
// of a CTA (each runs its own pipeline). A warp-specialized one becomes the
// memory thread's and the compute threads' loops over one shared range
// (WarpSpecializedPipeline.cpp). A choice between two blocks of one arena
// (arith.select) becomes a view at the chosen offset.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/ExpandScheduling.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/KernelScratch.h"
#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/KernelForm/MoveBody.h"
#include "mgpu/KernelForm/PipelineExpansion.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUEXPANDPIPELINES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The staged blocks of `op`'s inputs, then of its outputs, in order, with
/// the position of each array among the inputs and outputs (`positions`).
/// An array that is both read and written is aliased.
template <typename OpTy>
SmallVector<PipelinedBlock>
collectStaged(OpTy op, SmallVectorImpl<unsigned> &positions) {
  SmallVector<PipelinedBlock> blocks;
  ValueRange ins = op.getIns(), outs = op.getOuts();
  auto collect = [&](ValueRange arrays, ArrayAttr specs, bool isOutput,
                     unsigned firstArg) {
    for (auto [i, array, specAttr] : llvm::enumerate(arrays, specs)) {
      auto spec = cast<BlockSpecAttr>(specAttr);
      if (!spec.isStaged())
        continue;
      bool aliased = isOutput ? llvm::is_contained(ins, array)
                              : llvm::is_contained(outs, array);
      PipelinedBlock block{array, spec, isOutput, aliased};
      // An output whose input (same array, same block) is staged shares its
      // slot: one buffer, as one array in global memory.
      if (isOutput && aliased)
        for (auto [j, earlier] : llvm::enumerate(blocks))
          if (!earlier.isOutput && earlier.array == array &&
              earlier.spec == spec) {
            block.sharesSlotOf = j;
            break;
          }
      blocks.push_back(block);
      positions.push_back(firstArg + i);
    }
  };
  collect(ins, op.getInSpecs(), /*isOutput=*/false, 0);
  collect(outs, op.getOutSpecs(), /*isOutput=*/true, ins.size());
  return blocks;
}

/// The depth of a pipeline: max_concurrent_steps, but no more than its
/// steps when they are known (as JAX counts buffers).
int64_t pipelineDepth(CompilerParamsAttr params, ArrayRef<int64_t> stepSizes) {
  int64_t depth = params ? params.getMaxConcurrentSteps() : 1;
  int64_t steps = 1;
  for (int64_t size : stepSizes) {
    if (ShapedType::isDynamic(size))
      return depth;
    steps = std::min<int64_t>(steps * size, depth);
  }
  return std::max<int64_t>(1, std::min(depth, steps));
}

MemRefType arenaType(MLIRContext *ctx, int64_t bytes) {
  return MemRefType::get(
      {bytes}, IntegerType::get(ctx, 8), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

/// A block spec that is the whole array `type` in global memory, for a
/// grid of `gridRank` axes.
BlockSpecAttr wholeArraySpec(MLIRContext *ctx, Type type, size_t gridRank) {
  auto shaped = cast<ShapedType>(type);
  SmallVector<AffineExpr> zeros(shaped.getRank(),
                                getAffineConstantExpr(0, ctx));
  return BlockSpecAttr::get(
      ctx, shaped.getShape(),
      AffineMapAttr::get(AffineMap::get(gridRank, 0, zeros, ctx)),
      MemorySpace::gmem);
}

/// The layout a block read by the tensor cores is staged in: its spec's
/// transforms where they swizzle; where the spec names none, the ones JAX's
/// warpgroup semantics infers for an MMA operand (the largest swizzle S of
/// 128, 64, 32 bytes that divides the block's rows, tiles of 8 rows of S
/// bytes: TilingTransform((8, S / element bytes)), SwizzleTransform(S));
/// null otherwise.
ArrayAttr getMmaLayout(const PipelinedBlock &block, Value view) {
  MLIRContext *ctx = view.getContext();
  if (block.spec.getSwizzleBytes())
    return ArrayAttr::get(ctx, block.spec.getTransforms());
  if (!block.spec.getTransforms().empty())
    return nullptr;
  return inferMmaTransforms(dyn_cast<MemRefType>(view.getType()));
}

/// Stores each input block in its MMA layout (getMmaLayout)
/// when its view `views[i]` in the body is read only, through subviews, as a
/// shared operand of wgmma ops that run on the tensor cores and accept the
/// layout (tile-aligned views; their verifier decides, silenced here: a
/// block they cannot read in place stays row-major), or as an operand of
/// tcgen05 MMAs, which always read it in the layout they name; the lanes
/// may also read and write it whole (JAX's masking of a block before its
/// MMA), which --mgpu-propagate-transforms then leads through the layout.
void applyTransformsForWgmma(ArrayRef<Value> views,
                             MutableArrayRef<PipelinedBlock> blocks) {
  SmallVector<ArrayAttr> layouts = llvm::to_vector(
      llvm::map_range(llvm::zip(blocks, views), [](auto blockAndView) {
        return getMmaLayout(std::get<0>(blockAndView),
                            std::get<1>(blockAndView));
      }));
  for (auto [block, view, transforms] : llvm::zip(blocks, views, layouts)) {
    if (block.isOutput || block.aliased || !transforms)
      continue;
    MLIRContext *ctx = view.getContext();
    SmallVector<std::pair<WgmmaOp, StringAttr>> readers;
    bool onlyWgmma = true, tcgen05 = false;
    SmallVector<Value> worklist = {view};
    while (!worklist.empty() && onlyWgmma) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        if (isa<memref::SubViewOp, memref::TransposeOp>(use.getOwner())) {
          worklist.push_back(use.getOwner()->getResult(0));
          continue;
        }
        // A choice between this block and another block of the same
        // layout (a compute thread picking its part).
        if (auto select = dyn_cast<arith::SelectOp>(use.getOwner());
            select && use.getOperandNumber() > 0) {
          Value other = use.getOperandNumber() == 1 ? select.getFalseValue()
                                                    : select.getTrueValue();
          const auto *otherView = llvm::find(views, other);
          const PipelinedBlock *otherBlock =
              otherView == views.end() ? nullptr
                                       : &blocks[otherView - views.begin()];
          if (!otherBlock || otherBlock->isOutput || otherBlock->aliased ||
              layouts[otherView - views.begin()] != transforms) {
            onlyWgmma = false;
            break;
          }
          worklist.push_back(select.getResult());
          continue;
        }
        if (auto mma = dyn_cast<Tcgen05MmaOp>(use.getOwner());
            mma && use.getOperandNumber() > 0) {
          ArrayAttr named = use.get() == mma.getA() ? mma.getATransformsAttr()
                                                    : mma.getBTransformsAttr();
          if (named != transforms) {
            onlyWgmma = false;
            break;
          }
          tcgen05 = true;
          continue;
        }
        if (isWholeViewTransfer(use.getOwner()) &&
            cast<VectorTransferOpInterface>(use.getOwner()).getBase() ==
                use.get())
          continue;
        auto wgmma = dyn_cast<WgmmaOp>(use.getOwner());
        if (!wgmma || !isOnTensorCores(wgmma) || use.getOperandNumber() == 0) {
          onlyWgmma = false;
          break;
        }
        readers.push_back({wgmma, use.get() == wgmma.getA()
                                      ? wgmma.getATransformsAttrName()
                                      : wgmma.getBTransformsAttrName()});
      }
    }
    if (!onlyWgmma || (readers.empty() && !tcgen05))
      continue;
    bool accepted = true;
    {
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      for (auto [wgmma, name] : readers) {
        wgmma->setAttr(name, transforms);
        accepted = accepted && succeeded(wgmma.verify());
      }
    }
    if (!accepted) {
      for (auto [wgmma, name] : readers)
        wgmma->removeAttr(name);
      continue;
    }
    block.appliedTransforms = transforms;
  }
}

/// The body arguments `positions` of `body`, offset by `first`.
SmallVector<Value> blockViews(Block &body, ArrayRef<unsigned> positions,
                              unsigned first) {
  SmallVector<Value> views;
  for (unsigned position : positions)
    views.push_back(body.getArgument(first + position));
  return views;
}

//===----------------------------------------------------------------------===//
// pallas_call
//===----------------------------------------------------------------------===//

LogicalResult expandPallasCall(PallasCallOp op) {
  if (op.getExpanded())
    return success();
  if (op.getNumResults())
    return op.emitOpError() << "must be bufferized before "
                               "--mgpu-expand-pipelines (run --mgpu-bufferize)";
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  MeshAttr mesh = op.getMeshAttrOrNull();
  ArrayRef<int64_t> grid = op.getStaticGrid();
  size_t rank = grid.size();
  SmallVector<bool> sequential(rank, false);
  if (CompilerParamsAttr params = op.getParamsAttr())
    for (auto [d, semantics] : llvm::enumerate(params.getDimensionSemantics()))
      sequential[d] = semantics == DimensionSemantics::sequential;
  if (mesh && llvm::is_contained(sequential, true))
    return op.emitOpError() << "has a mesh and sequential axes: every mesh "
                               "axis is a CTA, cluster or thread axis";
  int64_t participants = mesh ? mesh.getNumThreads().value_or(1) : 1;

  SmallVector<unsigned> blockArgs;
  SmallVector<PipelinedBlock> blocks = collectStaged(op, blockArgs);
  applyTransformsForWgmma(blockViews(op.getBody().front(), blockArgs, 0),
                          blocks);
  if (participants > 1 && mesh.getThreadName())
    for (const PipelinedBlock &block : blocks) {
      AffineMap map = block.spec.getIndexMap().getValue();
      if (map.isFunctionOfDim(rank - 1)) {
        InFlightDiagnostic diag =
            op.emitOpError() << "stages a block whose index depends on the "
                                "thread axis '"
                             << mesh.getThreadName().getValue()
                             << "'; the Pallas threads of a program share "
                                "its blocks";
        diag.attachNote() << "give the threads one block and let each work "
                             "on its part (mgpu.axis_index)";
        return diag;
      }
    }

  // New block arguments: whole arrays, user scratch, then the pipeline's.
  Block &oldBody = op.getBody().front();
  OpBuilder b(op);
  SmallVector<Type> scratchTypes;
  if (std::optional<ArrayAttr> scratch = op.getScratch())
    for (Attribute attr : *scratch)
      scratchTypes.push_back(cast<TypeAttr>(attr).getValue());
  size_t numUserScratch = scratchTypes.size();

  SmallVector<int64_t> staticStepSizes;
  for (auto [d, size] : llvm::enumerate(grid))
    if (sequential[d])
      staticStepSizes.push_back(size);
  int64_t depth = pipelineDepth(op.getParamsAttr(), staticStepSizes);
  PipelineLayout layout = planPipeline(ctx, blocks, depth, participants);
  bool hasArena = layout.arenaBytes > 0;
  if (hasArena)
    scratchTypes.push_back(arenaType(ctx, layout.arenaBytes));
  llvm::append_range(scratchTypes, layout.barriers);

  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (Value array : op.getOperands().drop_front(op.getGrid().size())) {
    argTypes.push_back(getGlobalRefType(array.getType()));
    argLocs.push_back(loc);
  }
  for (Type type : scratchTypes) {
    argTypes.push_back(type);
    argLocs.push_back(loc);
  }
  auto *newBody = new Block();
  newBody->addArguments(argTypes, argLocs);
  size_t numArrays = op.getIns().size() + op.getOuts().size();
  ValueRange arrays = newBody->getArguments().take_front(numArrays);

  b.setInsertionPointToStart(newBody);
  // Program ids of the parallel axes, sizes of the sequential ones.
  SmallVector<Value> programIds(rank), stepSizes;
  for (size_t d = 0; d < rank; ++d) {
    if (sequential[d])
      stepSizes.push_back(NumProgramsOp::create(b, loc, d));
    else
      programIds[d] = ProgramIdOp::create(b, loc, d);
  }

  // Map the old arguments: arrays of gmem blocks, scratch; staged blocks get
  // their views per step.
  SmallVector<Value> oldArgs(oldBody.getNumArguments());
  for (size_t i = 0; i < numArrays; ++i)
    oldArgs[i] = arrays[i];
  for (size_t i = 0; i < numUserScratch; ++i)
    oldArgs[numArrays + i] = newBody->getArgument(numArrays + i);
  for (auto [block, arg] : llvm::zip(blocks, blockArgs))
    block.array = arrays[arg];

  Value leader;
  if (participants > 1) {
    Value thread = AxisIndexOp::create(b, loc, mesh.getThreadName());
    leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                   indexConstant(b, loc, 0));
  }
  PipelineResources resources;
  size_t firstPipelineScratch = numArrays + numUserScratch;
  if (hasArena)
    resources.arena = newBody->getArgument(firstPipelineScratch++);
  resources.arenaOffset = indexConstant(b, loc, 0);
  for (size_t i = 0; i < layout.barriers.size(); ++i)
    resources.barriers.push_back(
        newBody->getArgument(firstPipelineScratch + i));

  PipelineSchedule schedule;
  schedule.stepSizes = stepSizes;
  schedule.leader = leader;
  schedule.participants = participants;
  schedule.gridIdsAt = [&](OpBuilder &, Location, ValueRange stepIds) {
    SmallVector<Value> ids(rank);
    unsigned s = 0;
    for (size_t d = 0; d < rank; ++d)
      ids[d] = sequential[d] ? stepIds[s++] : programIds[d];
    return ids;
  };

  auto buildStep = [&](OpBuilder &nb, Location, ValueRange stepIds,
                       ValueRange views, ValueRange,
                       ArrayRef<BarrierSlot>) -> FailureOr<SmallVector<Value>> {
    for (auto [view, arg] : llvm::zip(views, blockArgs))
      oldArgs[arg] = view;
    SmallVector<Value> ids = schedule.gridIdsAt(nb, loc, stepIds);
    // program_id of a sequential axis is the step's index.
    oldBody.walk([&](ProgramIdOp id) {
      if (!sequential[id.getAxis()])
        return;
      id.replaceAllUsesWith(ids[id.getAxis()]);
      id.erase();
    });
    moveBody(nb, oldBody, oldArgs);
    return SmallVector<Value>();
  };
  if (stepSizes.empty() && blocks.empty()) {
    // Nothing to stage, nothing to loop over: the body runs as it is.
    moveBody(b, oldBody, oldArgs);
  } else if (failed(emitPipeline(b, loc, blocks, layout, resources, schedule,
                                 buildStep))) {
    delete newBody;
    return failure();
  }
  YieldOp::create(b, loc);

  // The op in kernel form.
  SmallVector<Attribute> inSpecs, outSpecs, scratchAttrs;
  for (Value v : op.getIns())
    inSpecs.push_back(wholeArraySpec(ctx, v.getType(), rank));
  for (Value v : op.getOuts())
    outSpecs.push_back(wholeArraySpec(ctx, v.getType(), rank));
  for (Type type : scratchTypes)
    scratchAttrs.push_back(TypeAttr::get(type));
  op.setInSpecsAttr(ArrayAttr::get(ctx, inSpecs));
  op.setOutSpecsAttr(ArrayAttr::get(ctx, outSpecs));
  if (scratchAttrs.empty())
    op.removeScratchAttr();
  else
    op.setScratchAttr(ArrayAttr::get(ctx, scratchAttrs));
  if (CompilerParamsAttr params = op.getParamsAttr())
    op.setParamsAttr(CompilerParamsAttr::get(
        ctx, params.getDimensionSemantics(), 1, params.getApproxMath(),
        params.getUnsafeNoAutoBarriers(), params.getLoweringSemantics(),
        params.getProfileSpace(), params.getProfileDir(),
        params.getProfileBoundsCheck()));
  op.setExpanded(true);
  op.getBody().front().erase();
  op.getBody().push_back(newBody);
  return success();
}

//===----------------------------------------------------------------------===//
// emit_pipeline
//===----------------------------------------------------------------------===//

/// Where an emit_pipeline runs: its kernel, the kernel region's mesh (for
/// the number of Pallas threads of a CTA).
LogicalResult expandEmitPipeline(EmitPipelineOp op) {
  FailureOr<KernelRegion> where = getKernelRegion(op);
  if (failed(where))
    return failure();
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  Operation *kernel = where->kernel;
  if (isa<PallasCallOp>(kernel) && !cast<PallasCallOp>(kernel).getExpanded())
    return op.emitOpError() << "is inside a pallas_call that is not expanded";

  SmallVector<unsigned> blockArgs;
  SmallVector<PipelinedBlock> blocks = collectStaged(op, blockArgs);
  applyTransformsForWgmma(
      blockViews(op.getBody().front(), blockArgs, op.getStaticGrid().size()),
      blocks);

  OpBuilder b(op);
  SmallVector<Value> stepSizes = getValueOrCreateConstantIndexOp(
      b, loc, getMixedValues(op.getStaticGrid(), op.getGrid(), b));
  int64_t depth = pipelineDepth(op.getParamsAttr(), op.getStaticGrid());
  int64_t threads = where->mesh ? where->mesh.getNumThreads().value_or(1) : 1;
  WarpSpecializationAttr ws = op.getWarpSpecializationAttr();
  // Multicast input blocks (JAX: one consumed barrier type for all, along
  // the union of their axes).
  SmallVector<StringAttr> releaseAxes;
  int64_t releaseGroup = 1;
  for (auto spec : op.getInSpecs().getAsRange<BlockSpecAttr>())
    if (ArrayAttr axes = spec.getCollectiveAxes())
      for (auto axis : axes.getAsRange<StringAttr>()) {
        if (llvm::is_contained(releaseAxes, axis))
          continue;
        std::optional<int64_t> size =
            where->mesh ? where->mesh.getAxisSize(axis.getValue())
                        : std::nullopt;
        if (!size)
          return op.emitOpError() << "multicasts along '" << axis.getValue()
                                  << "', which is not an axis of the "
                                     "kernel's mesh";
        releaseAxes.push_back(axis);
        releaseGroup *= *size;
      }
  bool manualRelease = op.hasManualConsumedBarriers();
  bool manualReady = op.hasManualReadyBarriers();
  PipelineLayout layout =
      planPipeline(ctx, blocks, depth, 1, ws ? threads - 1 : 0, releaseAxes,
                   releaseGroup, manualRelease, manualReady);

  // Each Pallas thread of a CTA runs its own pipeline: its range of the
  // arena and of every barrier array. A warp-specialized one is shared.
  int64_t copies = ws ? 1 : threads;
  Region *region = nullptr;
  for (Region &r : kernel->getRegions())
    if (r.isAncestor(op->getParentRegion()))
      region = &r;
  SmallVector<Type> types;
  if (layout.arenaBytes)
    types.push_back(arenaType(ctx, layout.arenaBytes * copies));
  for (BarrierLikeType barrier : layout.barriers)
    types.push_back(isa<ClusterBarrierType>(barrier)
                        ? Type(barrier) // warp-specialized: one copy
                        : BarrierType::get(ctx, barrier.getCount() * copies,
                                           barrier.getArrivals()));
  SmallVector<Value> added = addInternalScratch(kernel, types, region);

  PipelineResources resources;
  unsigned next = 0;
  if (layout.arenaBytes)
    resources.arena = added[next++];
  for (size_t i = 0; i < layout.barriers.size(); ++i)
    resources.barriers.push_back(added[next + i]);
  resources.arenaOffset = indexConstant(b, loc, 0);
  Value thread;
  if (threads > 1)
    thread =
        AxisIndexOp::create(b, loc, where->mesh.getThreadName().getValue());
  if (copies > 1) {
    resources.arenaOffset = arith::MulIOp::create(
        b, loc, thread, indexConstant(b, loc, layout.arenaBytes));
    for (BarrierLikeType barrier : layout.barriers)
      resources.barrierBases.push_back(arith::MulIOp::create(
          b, loc, thread, indexConstant(b, loc, barrier.getCount())));
  }

  PipelineSchedule schedule;
  schedule.stepSizes = stepSizes;
  schedule.indexMapSymbols = llvm::to_vector(op.getIndexMapSymbols());
  schedule.gridIdsAt = [](OpBuilder &, Location, ValueRange stepIds) {
    return SmallVector<Value>(stepIds.begin(), stepIds.end());
  };
  if (ws) {
    schedule.thread = thread;
    schedule.computeThreads = threads - 1;
    schedule.leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            thread, indexConstant(b, loc, 0));
    schedule.memoryRegisters = ws.getMemoryRegisters();
    schedule.manualRelease = manualRelease;
    schedule.manualReady = manualReady;
    schedule.computeRegisters =
        getComputeRegisters(getTargetInfo(op), ws, threads);
    schedule.privateSteps =
        !op.getBody()
             .walk([](Operation *inner) {
               return isa<BarrierArriveOp, BarrierWaitOp, BarrierTestOp,
                          SemaphoreSignalOp, SemaphoreWaitOp>(inner)
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             })
             .wasInterrupted();
  }

  // JAX's compute_context: its code runs on the compute threads around
  // their steps, which run where it calls mgpu.eval_pipeline (or before it
  // all, on init_carry, when it takes the last carries as arguments).
  if (!op.getComputeContext().empty())
    schedule.computeContext = [&](OpBuilder &nb, Location, ValueRange initCarry,
                                  PipelineSchedule::RunSteps runSteps)
        -> FailureOr<SmallVector<Value>> {
      Block &context = op.getComputeContext().front().front();
      EvalPipelineOp eval = op.getEvalPipeline();
      if (!eval) {
        FailureOr<SmallVector<Value>> last = runSteps(initCarry);
        if (succeeded(last))
          moveBody(nb, context, *last);
        return last;
      }
      moveBody(nb, context, {});
      OpBuilder::InsertionGuard guard(nb);
      nb.setInsertionPoint(eval);
      FailureOr<SmallVector<Value>> last = runSteps(eval.getInitCarry());
      if (failed(last))
        return failure();
      eval.replaceAllUsesWith(*last);
      eval.erase();
      return SmallVector<Value>();
    };

  Block &body = op.getBody().front();
  size_t rank = stepSizes.size();
  size_t numArrays = op.getIns().size() + op.getOuts().size();
  size_t numSlotBarriers = (manualRelease + manualReady) * op.getIns().size();
  SmallVector<Value> args(body.getNumArguments());
  for (auto [i, array] :
       llvm::enumerate(op.getOperands().slice(op.getGrid().size(), numArrays)))
    args[rank + i] = array;
  auto buildStep =
      [&](OpBuilder &nb, Location, ValueRange stepIds, ValueRange views,
          ValueRange carries,
          ArrayRef<BarrierSlot> slotBarriers) -> FailureOr<SmallVector<Value>> {
    for (size_t d = 0; d < rank; ++d)
      args[d] = stepIds[d];
    for (auto [view, arg] : llvm::zip(views, blockArgs))
      args[rank + arg] = view;
    // Each wait on a ready barrier and arrival on a consumed barrier (the
    // verifier allows nothing else) becomes one on the barrier of its
    // input's slot at this step.
    SmallVector<std::pair<Operation *, Value>> slotUses;
    for (auto [i, slot] : llvm::enumerate(slotBarriers)) {
      BlockArgument barrier = body.getArgument(rank + numArrays + i);
      for (Operation *user : barrier.getUsers())
        slotUses.push_back({user, slot.index});
      args[rank + numArrays + i] = slot.barriers;
    }
    for (auto [i, carry] : llvm::enumerate(carries))
      args[rank + numArrays + numSlotBarriers + i] = carry;
    // What the step yields, read before its arguments are replaced (a
    // carry passed on unchanged is one of them).
    SmallVector<Value> next;
    for (Value value : cast<YieldOp>(body.getTerminator()).getValues()) {
      auto arg = dyn_cast<BlockArgument>(value);
      next.push_back(arg && arg.getOwner() == &body ? args[arg.getArgNumber()]
                                                    : value);
    }
    moveBody(nb, body, args);
    for (auto [user, slotIndex] : slotUses) {
      OpBuilder::InsertionGuard guard(nb);
      nb.setInsertionPoint(user);
      OpOperand &index = isa<BarrierWaitOp>(user)
                             ? cast<BarrierWaitOp>(user).getIndexMutable()
                             : cast<BarrierArriveOp>(user).getIndexMutable();
      index.set(
          arith::AddIOp::create(nb, user->getLoc(), slotIndex, index.get()));
    }
    return next;
  };
  FailureOr<SmallVector<Value>> carried =
      emitPipeline(b, loc, blocks, layout, resources, schedule, buildStep,
                   op.getInitCarry());
  if (failed(carried))
    return failure();
  op->replaceAllUsesWith(*carried);
  op.erase();
  return success();
}

/// A choice between two views of the same arena (a compute thread picking
/// its block) as one view at the chosen offset: every backend then sees a
/// view of a kernel buffer, which the tensor cores read in place, rather
/// than a select of memrefs.
struct SelectOfViews : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto onTrue = op.getTrueValue().getDefiningOp<memref::ViewOp>();
    auto onFalse = op.getFalseValue().getDefiningOp<memref::ViewOp>();
    if (!onTrue || !onFalse || onTrue.getSource() != onFalse.getSource() ||
        onTrue.getType() != onFalse.getType() || !onTrue.getSizes().empty() ||
        !onFalse.getSizes().empty() ||
        !isa<IntegerType>(op.getCondition().getType()))
      return rewriter.notifyMatchFailure(op, "not a choice of arena views");
    Value shift =
        arith::SelectOp::create(rewriter, op.getLoc(), op.getCondition(),
                                onTrue.getByteShift(), onFalse.getByteShift());
    rewriter.replaceOpWithNewOp<memref::ViewOp>(
        op, onTrue.getType(), onTrue.getSource(), shift, ValueRange());
    return success();
  }
};

struct ExpandPipelinesPass
    : public mgpu::impl::MGPUExpandPipelinesBase<ExpandPipelinesPass> {
  using Base::Base;
  void runOnOperation() override {
    // Persistent loops first: a kernel's body is plain loops after.
    if (failed(expandSchedulingOps(getOperation())))
      return signalPassFailure();
    SmallVector<PallasCallOp> calls;
    getOperation()->walk([&](PallasCallOp op) { calls.push_back(op); });
    for (PallasCallOp op : calls)
      if (failed(expandPallasCall(op)))
        return signalPassFailure();
    // Outer pipelines first: an inner one moves with its body.
    SmallVector<EmitPipelineOp> pipelines;
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](EmitPipelineOp op) { pipelines.push_back(op); });
    for (EmitPipelineOp op : pipelines)
      if (failed(expandEmitPipeline(op)))
        return signalPassFailure();
    SmallVector<Operation *> selects;
    getOperation()->walk([&](arith::SelectOp op) {
      if (isa<MemRefType>(op.getType()))
        selects.push_back(op);
    });
    if (selects.empty())
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<SelectOfViews>(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(selects, std::move(patterns), config);
  }
};

} // namespace
