//===- RegionValues.cpp - Values out of regions: run_scoped, carries ------===//
//
// `mgpu.run_scoped` is `pl.run_scoped`: a region whose arguments are
// allocations living only inside it. JAX's rules for them come from its
// lowering (jax/_src/pallas/mosaic_gpu/lowering.py:3573-3651, at cec06d1):
// shared buffers and barriers are shared by a kernel's Pallas threads, so a
// multithreaded kernel must name the thread axis in `collective_axes`; an
// accumulator belongs to one Pallas thread, so never with `collective_axes`;
// and no axis other than the thread axis is collective. The messages are
// JAX's. The same file checks the other region that yields values, an
// emit_pipeline with `init_carry` or an `mgpu.eval_pipeline` in its
// compute_context, and what a `mgpu.yield` carries for each parent.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Python's spelling of a tuple of axis names, as JAX prints
/// `collective_axes` (None when absent).
static std::string pythonAxes(ArrayAttr axes) {
  if (!axes)
    return "None";
  std::string text = "(";
  for (auto [i, axis] : llvm::enumerate(axes.getAsValueRange<StringAttr>()))
    text += (i ? ", '" : "'") + axis.str() + "'";
  return text + (axes.size() == 1 ? ",)" : ")");
}

LogicalResult RunScopedOp::verifyRegions() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  MeshAttr mesh = getEnclosingMesh(*this);
  StringRef threadAxis;
  if (mesh && mesh.getThreadName())
    threadAxis = mesh.getThreadName().getValue();
  bool multithreaded = mesh && mesh.getNumThreads().value_or(1) > 1;

  ArrayAttr axes = getCollectiveAxesAttr();
  if (axes && !axes.empty()) {
    bool threadOnly = axes.size() == 1 && !threadAxis.empty() &&
                      cast<StringAttr>(axes[0]).getValue() == threadAxis;
    if (!threadOnly)
      return emitOpError()
             << "Only thread-collective allocations are supported in "
                "run_scoped.";
  }
  bool collective = axes && !axes.empty();

  bool anyShared = false;
  for (BlockArgument arg : getBody().getArguments()) {
    Type type = arg.getType();
    if (isa<VectorType>(type)) {
      if (collective)
        return emitOpError()
               << "WGMMA accumulators can only be allocated non-collectively. "
                  "Hint: remove collective_axes from run_scoped. If other "
                  "allocations are performed as well, split the run_scoped "
                  "into two.";
      continue;
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!isa<BarrierLikeType>(type) &&
        !(memref && memref.hasStaticShape() && isWorkgroupMemRef(memref))) {
      InFlightDiagnostic diag = emitOpError()
                                << "allocates argument #" << arg.getArgNumber()
                                << " of type " << type
                                << ", which is not a scoped allocation";
      diag.attachNote() << "a run_scoped region takes statically shaped "
                           "shared-memory buffers, !mgpu.barrier arrays and "
                           "accumulators (vectors)";
      return diag;
    }
    anyShared = true;
  }
  if (anyShared && multithreaded && !collective)
    return emitOpError()
           << "Only thread-collective allocations are supported in "
              "multithreaded kernels. Hint: add collective_axes="
           << threadAxis
           << " to your run_scoped if you intend all threads to share the "
              "same allocation (currently collective_axes="
           << pythonAxes(axes) << ").";

  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError()
           << "yields " << yield.getValues().size() << " values of types ("
           << yield.getValues().getTypes() << "), but its run_scoped returns ("
           << getResultTypes() << ")";
  return success();
}

/// JAX's compute_context(pipeline_callback): the callback is called once
/// (the messages are JAX's, jax/_src/pallas/mosaic_gpu/pipeline.py:1017 and
/// 1028 at cec06d1), and then it, not init_carry, gives the carries.
static LogicalResult verifyEvalPipelines(EmitPipelineOp op) {
  if (op.getComputeContext().empty())
    return success();
  SmallVector<EvalPipelineOp> evals;
  op.getComputeContext().front().walk(
      [&](EvalPipelineOp eval) { evals.push_back(eval); });
  Block &context = op.getComputeContext().front().front();
  if (evals.size() > 1)
    return evals[1].emitOpError()
           << "Cannot call pipeline more than once in `compute_context`";
  if (evals.empty()) {
    if (context.getNumArguments() == 0 && op.getInitCarry().empty())
      return op.emitOpError() << "Pipeline was not called in `compute_context`";
    return success();
  }
  if (!op.getInitCarry().empty()) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "has both init_carry and an "
                                 "mgpu.eval_pipeline in its compute_context";
    diag.attachNote(evals[0].getLoc())
        << "the carry's initial values are eval_pipeline's operands";
    return diag;
  }
  if (op.getNumResults())
    return op.emitOpError() << "returns values, but its compute_context "
                               "calls mgpu.eval_pipeline: the pipeline "
                               "returns nothing";
  if (context.getNumArguments())
    return op.emitOpError()
           << "compute_context calls mgpu.eval_pipeline, so it takes no "
              "arguments, got ("
           << context.getArgumentTypes() << ")";
  return success();
}

LogicalResult mlir::mgpu::verifyPipelineCarries(EmitPipelineOp op) {
  if (failed(verifyEvalPipelines(op)))
    return failure();
  EvalPipelineOp eval = op.getEvalPipeline();
  TypeRange carried = eval ? TypeRange(eval.getInitCarry().getTypes())
                           : TypeRange(op.getInitCarry().getTypes());
  if (!eval && op.getResultTypes() != carried)
    return op.emitOpError()
           << "returns (" << op.getResultTypes()
           << "), but carries values of types (" << carried << ")";
  Block &body = op.getBody().front();
  if (body.getNumArguments() < carried.size() ||
      TypeRange(body.getArguments().take_back(carried.size())) != carried)
    return op.emitOpError() << "body must end with one argument per carried "
                               "value, of types ("
                            << carried << ")";
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().getTypes() != carried)
    return yield.emitOpError()
           << "yields (" << yield.getValues().getTypes()
           << "), but its emit_pipeline carries (" << carried << ")";
  if (op.getComputeContext().empty())
    return success();
  // JAX's compute_context: the compute threads' code after their steps.
  if (!op.getWarpSpecializationAttr()) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "has a compute_context, which only a "
                                 "warp-specialized pipeline has";
    diag.attachNote() << "add warp_specialization, or move the region's "
                         "code after the pipeline";
    return diag;
  }
  Block &context = op.getComputeContext().front().front();
  if (!eval && TypeRange(context.getArgumentTypes()) != carried)
    return op.emitOpError()
           << "compute_context must take one argument per carried value, "
              "of types ("
           << carried << "), got (" << context.getArgumentTypes() << ")";
  auto contextYield = cast<YieldOp>(context.getTerminator());
  if (!contextYield.getValues().empty())
    return contextYield.emitOpError()
           << "yields " << contextYield.getValues().size()
           << " values out of a compute_context, which yields nothing";
  return success();
}

EvalPipelineOp EmitPipelineOp::getEvalPipeline() {
  if (getComputeContext().empty())
    return {};
  EvalPipelineOp found;
  getComputeContext().front().walk([&](EvalPipelineOp eval) {
    found = eval;
    return WalkResult::interrupt();
  });
  return found;
}

//===----------------------------------------------------------------------===//
// EvalPipelineOp
//===----------------------------------------------------------------------===//

LogicalResult EvalPipelineOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

/// JAX's pipeline_callback runs the pipeline where compute_context calls
/// it, once: inside the compute_context itself or a pl.run_scoped there.
LogicalResult EvalPipelineOp::verify() {
  Operation *enclosing = nullptr;
  for (Operation *parent = (*this)->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto pipeline = dyn_cast<EmitPipelineOp>(parent);
    if (pipeline && !pipeline.getComputeContext().empty() &&
        pipeline.getComputeContext().front().isAncestor(
            (*this)->getParentRegion())) {
      if (!enclosing)
        return success();
      InFlightDiagnostic diag =
          emitOpError() << "runs the pipeline once, so only mgpu.run_scoped "
                           "may enclose it inside the compute_context, got '"
                        << enclosing->getName() << "'";
      diag.attachNote(enclosing->getLoc())
          << "the memory thread runs the steps once; a loop or a condition "
             "here would run the compute threads' steps another number of "
             "times";
      return diag;
    }
    if (!enclosing && !isa<RunScopedOp>(parent))
      enclosing = parent;
  }
  return emitOpError() << "must be inside the compute_context of a "
                          "warp-specialized mgpu.emit_pipeline";
}

LogicalResult YieldOp::verify() {
  // What a run_scoped, emit_pipeline, persistent loop or trace_scope
  // yields is checked with its region.
  if (isa<RunScopedOp, EmitPipelineOp, NdLoopOp, DynamicSchedulingLoopOp,
          TraceScopeOp>((*this)->getParentOp()) ||
      getValues().empty())
    return success();
  return emitOpError() << "yields values out of a '"
                       << (*this)->getParentOp()->getName()
                       << "', which returns through its output refs";
}
