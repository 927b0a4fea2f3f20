//===- WarpSpecialization.cpp - Rules of warp-specialized pipelines -------===//
//
// A warp-specialized emit_pipeline (JAX's emit_pipeline_warp_specialized)
// gives the last Pallas thread of a program the copies in and the others the
// body. What makes one well formed: a program of at least two Pallas
// threads, no array both read and written by the pipeline (the compute
// threads could not see the memory thread's reads in order), and register
// budgets that setmaxnreg can move between the warpgroups: the memory
// thread gives registers up, the compute threads take them, and all of them
// fit the 64K-register file of the multiprocessor.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

static bool isRegisterBudget(int64_t count) {
  return count >= 24 && count <= 256 && count % 8 == 0;
}

LogicalResult
WarpSpecializationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               std::optional<int64_t> memoryRegisters,
                               std::optional<int64_t> computeRegisters,
                               bool manualReadyBarriers,
                               bool manualConsumedBarriers) {
  for (auto [name, count] : {std::pair{"memory_registers", memoryRegisters},
                             std::pair{"compute_registers", computeRegisters}})
    if (count && !isRegisterBudget(*count))
      return emitError() << name
                         << " must be a multiple of 8 in [24, 256] "
                            "(setmaxnreg), got "
                         << *count;
  if (computeRegisters && !memoryRegisters) {
    InFlightDiagnostic diag = emitError()
                              << "compute_registers needs memory_registers";
    diag.attachNote() << "the compute threads grow into the registers the "
                         "memory thread gives up";
    return diag;
  }
  return success();
}

/// The registers of one lane slot of the register file (each of a CTA's
/// lanes takes one of each warpgroup slot's registers).
static int64_t getRegistersPerLaneSlot(const TargetInfo &target) {
  return target.registersPerMultiprocessor / kWarpgroupLanes;
}

int64_t mlir::mgpu::getComputeRegisters(const TargetInfo &target,
                                        WarpSpecializationAttr ws,
                                        int64_t pallasThreads) {
  if (std::optional<int64_t> count = ws.getComputeRegisters())
    return *count;
  int64_t memory = ws.getMemoryRegisters().value_or(0);
  int64_t share =
      (getRegistersPerLaneSlot(target) - memory) / (pallasThreads - 1);
  return std::min<int64_t>(256, share / 8 * 8);
}

MeshAttr mlir::mgpu::getEnclosingMesh(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (auto call = dyn_cast<PallasCallOp>(parent))
      return call.getMeshAttrOrNull();
    if (auto map = dyn_cast<MpmdMapOp>(parent))
      return map.getMeshAttrOrNull(region->getRegionNumber());
  }
  return {};
}

/// JAX's manual_consumed_barriers and manual_ready_barriers, as far as
/// mgpu follows them (`option` names which): every input has a slot ring
/// whose barriers the body uses (JAX's memory thread uses the barriers of
/// every input, global ones too), in one CTA (a multicast input's slot is
/// filled and released across its cluster group, barriers the body cannot
/// name yet); consumed slots are released at their own step (JAX would
/// index them at step - delay_release, negative at the first steps).
static LogicalResult verifyManualBarriers(EmitPipelineOp op, StringRef option) {
  bool consumed = option == "manual_consumed_barriers";
  for (auto [i, spec] :
       llvm::enumerate(op.getInSpecs().getAsRange<BlockSpecAttr>())) {
    if (!spec.isStaged()) {
      InFlightDiagnostic diag = op.emitOpError()
                                << option
                                << " needs every input staged in shared "
                                   "memory, but ins["
                                << i << "] stays in global memory";
      diag.attachNote() << "JAX's memory thread still uses its "
                        << (consumed ? "consumed" : "ready")
                        << " barrier; stage the block (memory_space = smem)";
      return diag;
    }
    if (int64_t delay = spec.getDelayRelease(); delay && consumed) {
      InFlightDiagnostic diag = op.emitOpError()
                                << "manual_consumed_barriers with "
                                   "delay_release = "
                                << delay << " is not supported";
      diag.attachNote() << "JAX would pass barrier.at[(step - " << delay
                        << ") % max_concurrent_steps], a negative index at "
                           "the first "
                        << delay << " steps";
      return diag;
    }
    if (spec.getCollectiveAxes()) {
      InFlightDiagnostic diag =
          op.emitOpError() << option << " with a multicast input (in_specs["
                           << i << "] has collective_axes) is not supported";
      diag.attachNote() << "its slot is filled and released by every CTA of "
                           "the cluster group: let the pipeline synchronize "
                           "it (drop "
                        << option << ")";
      return diag;
    }
  }
  return success();
}

/// The ready and consumed barriers of a pipeline with manual barriers are
/// only waited on, respectively arrived on (JAX: "the user must arrive on
/// all the consumed barriers from all compute warpgroups at each pipeline
/// step"): the memory thread arrives on the first and waits on the others,
/// and the expansion gives each use its slot.
LogicalResult mlir::mgpu::verifyPipelineBarrierUses(EmitPipelineOp op,
                                                    ValueRange barriers,
                                                    bool ready) {
  StringRef kind = ready ? "ready" : "consumed";
  for (auto [i, barrier] : llvm::enumerate(barriers)) {
    bool used = false;
    for (OpOperand &use : barrier.getUses()) {
      Operation *user = use.getOwner();
      bool allowed =
          ready ? isa<BarrierWaitOp>(user) &&
                      use.get() == cast<BarrierWaitOp>(user).getBarrier()
                : isa<BarrierArriveOp>(user) &&
                      use.get() == cast<BarrierArriveOp>(user).getBarrier();
      if (!allowed) {
        InFlightDiagnostic diag =
            user->emitOpError() << "uses the " << kind << " barrier of ins["
                                << i << "], which may only be "
                                << (ready ? "waited on (mgpu.barrier_wait)"
                                          : "arrived on (mgpu.barrier_arrive)");
        diag.attachNote(op.getLoc())
            << (ready ? "the pipeline's memory thread's copy arrives on it"
                      : "the pipeline's memory thread waits on it before "
                        "refilling the slot");
        return diag;
      }
      used = true;
    }
    if (used)
      continue;
    if (ready) {
      InFlightDiagnostic diag = op.emitOpError() << "ready barrier of ins[" << i
                                                 << "] is never waited on";
      diag.attachNote() << "with manual_ready_barriers the body waits for "
                           "each block's copy before reading it";
      return diag;
    }
    InFlightDiagnostic diag = op.emitOpError() << "consumed barrier of ins["
                                               << i << "] is never arrived on";
    diag.attachNote()
        << "When manual_consumed_barriers is True, the user must arrive on "
           "all the consumed barriers from all compute warpgroups at each "
           "pipeline step.";
    return diag;
  }
  return success();
}

LogicalResult mlir::mgpu::verifyWarpSpecialization(EmitPipelineOp op) {
  WarpSpecializationAttr ws = op.getWarpSpecializationAttr();
  if (!ws)
    return success();
  MeshAttr mesh = getEnclosingMesh(op);
  int64_t threads = mesh ? mesh.getNumThreads().value_or(1) : 1;
  if (threads < 2) {
    InFlightDiagnostic diag =
        op.emitOpError() << "is warp-specialized, but its program runs "
                         << threads
                         << " Pallas thread: it needs a memory thread and at "
                            "least one compute thread";
    diag.attachNote() << "give the enclosing kernel's mesh num_threads >= 2 "
                         "and a thread_name (the last thread copies, the "
                         "others compute)";
    return diag;
  }
  for (auto [i, in] : llvm::enumerate(op.getIns()))
    if (llvm::is_contained(op.getOuts(), in)) {
      InFlightDiagnostic diag = op.emitOpError()
                                << "is warp-specialized, but ins[" << i
                                << "] is also an output: the memory thread "
                                   "cannot read it in step order";
      diag.attachNote() << "drop warp_specialization, or pass separate "
                           "input and output arrays";
      return diag;
    }
  if ((ws.getManualReadyBarriers() &&
       failed(verifyManualBarriers(op, "manual_ready_barriers"))) ||
      (ws.getManualConsumedBarriers() &&
       failed(verifyManualBarriers(op, "manual_consumed_barriers"))))
    return failure();
  std::optional<int64_t> memory = ws.getMemoryRegisters();
  if (!memory)
    return success();
  const TargetInfo &target = getTargetInfo(op);
  int64_t entry = target.getEntryRegisters(threads);
  int64_t compute = getComputeRegisters(target, ws, threads);
  int64_t registerFile = getRegistersPerLaneSlot(target);
  if (*memory > entry)
    return op.emitOpError()
           << "gives the memory thread " << *memory
           << " registers, more than the " << entry << " each of the "
           << threads << " Pallas threads starts with: setmaxnreg can only "
           << "lower it";
  if (compute < entry)
    return op.emitOpError()
           << "gives each compute thread " << compute
           << " registers, fewer than the " << entry << " each of the "
           << threads << " Pallas threads starts with: setmaxnreg can only "
           << "raise them";
  if (*memory + compute * (threads - 1) > registerFile)
    return op.emitOpError()
           << "needs " << *memory << " + " << threads - 1 << " x " << compute
           << " registers per lane, more than the register file's "
           << registerFile;
  return success();
}
