//===- FormLaunches.cpp - --mgpu-form-launches ----------------------------===//
//
// Writes each kernel in kernel form (an expanded pallas_call, an mpmd_map)
// as one mgpu.launch: the program model and the scratch plan, decided once
// for every backend.
//
// pallas_call: its parallel grid axes are the launch's grid (a mesh's
// cluster axes its cluster, its thread axis the warpgroups); the
// sequential axes are already loops in the body, so their program ids are 0.
//
// mpmd_map: the regions share one launch. When all meshes have the same
// grid and cluster and their threads fit in a CTA, the pairs are
// warp-specialized (each region its own range of warpgroups in every CTA);
// otherwise they are CTA-partitioned (each region its own range of a 1-D
// grid of CTAs). Each region runs under a guard of its range. Global
// scratch is one buffer for all regions (they communicate through it);
// shared scratch is one copy per region.
//
// The body's queries (program_id, num_programs, axis_index, axis_size)
// become the launch's arguments, arithmetic on them, or constants.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"
#include "mgpu/KernelForm/MoveBody.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUFORMLAUNCHES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// How the pairs of an mpmd_map share the launch.
enum class MpmdForm { Auto, WarpSpecialized, CtaPartitioned };

/// What the body's queries stand for in one Pallas thread.
struct Bindings {
  SmallVector<Value> programIds, numPrograms;
  llvm::StringMap<Value> axisIndex;
  llvm::StringMap<int64_t> axisSize;
};

/// Replaces the query ops of `body` (at any depth) by their values; axis
/// sizes become constants at `b`'s insertion point.
void bindQueries(OpBuilder &b, Block &body, const Bindings &bindings) {
  SmallVector<Operation *> queries;
  body.walk([&](Operation *op) {
    if (isa<ProgramIdOp, NumProgramsOp, AxisIndexOp, AxisSizeOp>(op))
      queries.push_back(op);
  });
  for (Operation *op : queries) {
    Value value;
    if (auto id = dyn_cast<ProgramIdOp>(op))
      value = bindings.programIds[id.getAxis()];
    else if (auto num = dyn_cast<NumProgramsOp>(op))
      value = bindings.numPrograms[num.getAxis()];
    else if (auto axis = dyn_cast<AxisIndexOp>(op))
      value = bindings.axisIndex.lookup(axis.getAxisName());
    else
      value = arith::ConstantIndexOp::create(
          b, op->getLoc(),
          bindings.axisSize.lookup(cast<AxisSizeOp>(op).getAxisName()));
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

void bindAxisSizes(ArrayRef<MeshAttr> meshes, Bindings &bindings) {
  for (MeshAttr mesh : meshes)
    for (auto [name, size] : mesh.getNamedAxes())
      bindings.axisSize.try_emplace(name.getValue(), size);
}

/// Binds the named axes of `mesh` to `gridIds`, `clusterIds` and `thread`.
void bindMeshAxes(MeshAttr mesh, ValueRange gridIds, ValueRange clusterIds,
                  Value thread, Bindings &bindings) {
  for (auto [name, id] : llvm::zip(mesh.getGridNames(), gridIds))
    bindings.axisIndex[name.getValue()] = id;
  for (auto [name, id] : llvm::zip(mesh.getClusterNames(), clusterIds))
    bindings.axisIndex[name.getValue()] = id;
  if (mesh.getThreadName())
    bindings.axisIndex[mesh.getThreadName().getValue()] = thread;
}

/// The backends take the kernel form.
LogicalResult verifyKernelForm(Operation *kernel) {
  if (kernel->getNumResults())
    return kernel->emitOpError() << "must be bufferized before "
                                    "--mgpu-form-launches (run "
                                    "--mgpu-bufferize)";
  auto call = dyn_cast<PallasCallOp>(kernel);
  if (call && !call.getExpanded())
    return kernel->emitOpError()
           << "must be in kernel form before --mgpu-form-launches (run "
              "--mgpu-expand-pipelines)";
  WalkResult result = kernel->walk([&](Operation *op) {
    if (isa<EmitPipelineOp>(op)) {
      op->emitOpError() << "must be expanded before --mgpu-form-launches (run "
                           "--mgpu-expand-pipelines)";
      return WalkResult::interrupt();
    }
    auto wait = dyn_cast<BarrierWaitOp>(op);
    auto test = dyn_cast<BarrierTestOp>(op);
    if ((wait && !wait.getParity()) || (test && !test.getParity())) {
      op->emitOpError() << "needs the parity of its phase before "
                           "--mgpu-form-launches (run "
                           "--mgpu-track-barrier-phases)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The scratch of a kernel op split into global buffers (one per launch) and
/// shared entries (one copy per CTA, or per region of an mpmd_map).
struct ScratchPlan {
  SmallVector<Type> global, shared;
  SmallVector<int64_t> offsets;
  int64_t end = 0;

  /// Places a copy of the shared entries of `scratch`; returns, per entry,
  /// its index among the global (>= 0) or shared (< 0: ~index) entries.
  SmallVector<int64_t> place(std::optional<ArrayAttr> scratch,
                             bool globalPlaced) {
    SmallVector<int64_t> where;
    if (!scratch)
      return where;
    int64_t globalIndex = 0;
    for (Attribute attr : *scratch) {
      Type type = cast<TypeAttr>(attr).getValue();
      if (!isa<BarrierLikeType, TmemType>(type) && !isWorkgroupMemRef(type)) {
        if (!globalPlaced)
          global.push_back(type);
        where.push_back(globalIndex++);
        continue;
      }
      int64_t bytes = 0;
      if (auto barrier = dyn_cast<BarrierLikeType>(type))
        bytes = barrier.getSharedMemoryBytes();
      else if (isa<TmemType>(type))
        bytes = kTmemSlotBytes;
      else
        bytes = getBufferBytes(cast<MemRefType>(type).getShape(),
                               cast<MemRefType>(type).getElementType())
                    .value_or(0);
      // Buffers of a KiB or more (pipeline arenas among them) start on a
      // swizzle atom, which 128-byte swizzled slots need.
      int64_t start = llvm::alignTo(end, bytes >= TargetInfo::kSwizzleAtomBytes
                                             ? TargetInfo::kSwizzleAtomBytes
                                             : TargetInfo::kSharedAlignment);
      where.push_back(~static_cast<int64_t>(shared.size()));
      shared.push_back(type);
      offsets.push_back(start);
      end = start + bytes;
    }
    return where;
  }
};

/// Builds the launch at `b`'s insertion point (the kernel op) and returns
/// it with an empty body block of the right arguments; `b` is left at the
/// start of that block.
LaunchOp createLaunch(OpBuilder &b, Location loc, ArrayRef<int64_t> staticGrid,
                      ValueRange dynamicGrid, ArrayRef<int64_t> cluster,
                      int64_t warpgroups, ValueRange scalars, ValueRange ins,
                      ValueRange outs, const ScratchPlan &plan) {
  auto typeList = [&](ArrayRef<Type> types) -> ArrayAttr {
    if (types.empty())
      return nullptr;
    return b.getTypeArrayAttr(types);
  };
  auto launch = LaunchOp::create(
      b, loc, dynamicGrid, b.getDenseI64ArrayAttr(staticGrid),
      cluster.empty() ? nullptr : b.getDenseI64ArrayAttr(cluster),
      b.getI64IntegerAttr(warpgroups), /*lanes=*/nullptr, scalars, ins, outs,
      /*write_only_outs=*/nullptr, typeList(plan.global), typeList(plan.shared),
      plan.shared.empty() ? nullptr : b.getDenseI64ArrayAttr(plan.offsets));
  launch.createBody(b);
  return launch;
}

/// The region arguments of a kernel op's body in the launch: the arrays,
/// then each scratch entry's global or shared buffer (`where`, from
/// ScratchPlan::place).
SmallVector<Value> regionArgs(LaunchOp launch, ArrayRef<int64_t> where) {
  SmallVector<Value> args(launch.getArrayArgs());
  for (int64_t w : where)
    args.push_back(w >= 0 ? Value(launch.getGlobalScratchArgs()[w])
                          : Value(launch.getSharedScratchArgs()[~w]));
  return args;
}

/// True when a kernel body only writes `ref` (a global-memory array of
/// its body) or its views, by async copies out of shared memory or by
/// stores (a block written in place): its old contents need not reach the
/// device. Output blocks of a pallas_call are never read unless the output
/// aliases an input (Pallas semantics).
bool isOnlyWritten(Value ref) {
  SmallVector<Value> worklist = {ref};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() != value)
          return false;
        worklist.push_back(view->getResult(0));
        continue;
      }
      // A reduce-store reads what it combines into.
      if (auto copy = dyn_cast<CopySmemToGmemOp>(user);
          copy && copy.getDst() == value && !copy.getReduction())
        continue;
      if (auto write = dyn_cast<vector::TransferWriteOp>(user);
          write && write.getBase() == value)
        continue;
      if (auto store = dyn_cast<vector::StoreOp>(user);
          store && store.getBase() == value)
        continue;
      return false;
    }
  }
  return true;
}

/// Gives every arrival on a cluster barrier, every multicast copy and every
/// cluster_ref in `body` the launch's cluster dimensions of their axes
/// (names of `mesh`'s cluster axes, which the launch no longer has).
void setClusterDims(Block &body, MeshAttr mesh) {
  body.walk([&](BarrierArriveOp arrive) {
    auto type = dyn_cast<ClusterBarrierType>(arrive.getBarrier().getType());
    if (!type || !mesh)
      return;
    SmallVector<int64_t> dims;
    for (StringAttr axis : type.getAxes())
      dims.push_back(llvm::find(mesh.getClusterNames(), axis) -
                     mesh.getClusterNames().begin());
    arrive.setClusterDimsAttr(
        DenseI64ArrayAttr::get(arrive.getContext(), dims));
  });
  body.walk([&](CopyGmemToSmemOp copy) {
    std::optional<ArrayAttr> axes = copy.getCollectiveAxes();
    if (!axes || !mesh)
      return;
    SmallVector<int64_t> dims;
    for (StringAttr axis : axes->getAsRange<StringAttr>())
      dims.push_back(llvm::find(mesh.getClusterNames(), axis) -
                     mesh.getClusterNames().begin());
    copy.setClusterDimsAttr(DenseI64ArrayAttr::get(copy.getContext(), dims));
  });
  body.walk([&](ClusterRefOp ref) {
    if (!mesh)
      return;
    SmallVector<int64_t> dims;
    for (StringAttr axis : ref.getAxes().getAsRange<StringAttr>())
      dims.push_back(llvm::find(mesh.getClusterNames(), axis) -
                     mesh.getClusterNames().begin());
    ref.setClusterDimsAttr(DenseI64ArrayAttr::get(ref.getContext(), dims));
  });
}

LogicalResult formPallasLaunch(PallasCallOp op) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  MeshAttr mesh = op.getMeshAttrOrNull();
  ArrayRef<int64_t> grid = op.getStaticGrid();
  size_t rank = grid.size();
  SmallVector<Value> dynamicSizes(rank);
  unsigned dynamicIndex = 0;
  for (auto [d, size] : llvm::enumerate(grid))
    if (ShapedType::isDynamic(size))
      dynamicSizes[d] = op.getGrid()[dynamicIndex++];
  SmallVector<bool> sequential(rank, false);
  if (CompilerParamsAttr params = op.getParamsAttr())
    for (auto [d, semantics] : llvm::enumerate(params.getDimensionSemantics()))
      sequential[d] = semantics == DimensionSemantics::sequential;

  // The launch's grid: the parallel axes, but a mesh's cluster and thread
  // axes, which are its cluster and warpgroups.
  ArrayRef<int64_t> cluster;
  int64_t warpgroups = 1;
  size_t gridAxes = rank;
  if (mesh) {
    cluster = mesh.getCluster();
    warpgroups = mesh.getNumThreads().value_or(1);
    gridAxes = mesh.getGrid().size();
  }
  SmallVector<size_t> launchAxes;
  SmallVector<int64_t> staticGrid;
  SmallVector<Value> dynamicGrid;
  for (size_t d = 0; d < gridAxes; ++d) {
    if (sequential[d])
      continue;
    launchAxes.push_back(d);
    staticGrid.push_back(grid[d]);
    if (dynamicSizes[d])
      dynamicGrid.push_back(dynamicSizes[d]);
  }

  ScratchPlan plan;
  SmallVector<int64_t> where = plan.place(op.getScratch(), false);
  // The dynamic sizes come in as scalars, for num_programs.
  LaunchOp launch =
      createLaunch(b, loc, staticGrid, dynamicGrid, cluster, warpgroups,
                   op.getGrid(), op.getIns(), op.getOuts(), plan);

  Bindings bindings;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  unsigned sizeArg = 0;
  for (auto [d, size] : llvm::enumerate(grid))
    bindings.numPrograms.push_back(
        dynamicSizes[d] ? Value(launch.getScalarArgs()[sizeArg++])
                        : Value(arith::ConstantIndexOp::create(b, loc, size)));
  bindings.programIds.assign(rank, zero);
  for (auto [id, d] : llvm::zip(launch.getGridIds(), launchAxes))
    bindings.programIds[d] = id;
  if (mesh) {
    for (auto [i, id] : llvm::enumerate(launch.getClusterIds()))
      bindings.programIds[gridAxes + i] = id;
    if (mesh.getNumThreads())
      bindings.programIds[rank - 1] = launch.getWarpgroupId();
    SmallVector<Value> meshGridIds(bindings.programIds.begin(),
                                   bindings.programIds.begin() + gridAxes);
    bindMeshAxes(mesh, meshGridIds, launch.getClusterIds(),
                 launch.getWarpgroupId(), bindings);
    bindAxisSizes({mesh}, bindings);
  }
  Block &body = op.getBody().front();
  // An output that is also an input (input_output_aliases) or passed twice
  // is read through its other ref: never write-only.
  SmallVector<int64_t> writeOnly;
  auto arrays = llvm::to_vector(llvm::concat<Value>(op.getIns(), op.getOuts()));
  for (auto [i, ref] : llvm::enumerate(
           body.getArguments().slice(op.getIns().size(), op.getOuts().size())))
    if (llvm::count(arrays, op.getOuts()[i]) == 1 && isOnlyWritten(ref))
      writeOnly.push_back(i);
  if (!writeOnly.empty())
    launch.setWriteOnlyOutsAttr(b.getDenseI64ArrayAttr(writeOnly));
  bindQueries(b, body, bindings);
  setClusterDims(body, mesh);
  moveBody(b, body, regionArgs(launch, where));
  op.erase();
  return success();
}

/// Where region `i` of an mpmd_map runs: a range of CTAs and a range of
/// warpgroups in each.
struct RegionPlacement {
  int64_t firstCta, numCtas, firstWarpgroup, numWarpgroups;
};

int64_t gridCount(MeshAttr mesh) {
  int64_t count = 1;
  for (int64_t size : mesh.getGrid())
    count *= size;
  return count;
}

LogicalResult formMpmdLaunch(MpmdMapOp op, MpmdForm requested) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned numRegions = op.getBodies().size();
  SmallVector<MeshAttr> meshes;
  for (unsigned i = 0; i < numRegions; ++i)
    meshes.push_back(op.getMeshAttrOrNull(i));

  // Warp-specialized needs one grid and cluster and at most 8 warpgroups.
  int64_t maxWarpgroups = TargetInfo::kMaxThreadsPerCta / kWarpgroupLanes;
  bool sameGeometry = true, sameCluster = true;
  int64_t sumThreads = 0, maxThreads = 0;
  for (MeshAttr mesh : meshes) {
    sameCluster &= mesh.getCluster() == meshes[0].getCluster();
    sameGeometry &= mesh.getGrid() == meshes[0].getGrid();
    int64_t t = mesh.getNumThreads().value_or(1);
    sumThreads += t;
    maxThreads = std::max(maxThreads, t);
  }
  sameGeometry &= sameCluster;
  bool canSpecialize = sameGeometry && sumThreads <= maxWarpgroups;
  MpmdForm form = requested;
  if (form == MpmdForm::Auto)
    form = canSpecialize ? MpmdForm::WarpSpecialized : MpmdForm::CtaPartitioned;
  if (form == MpmdForm::WarpSpecialized && !canSpecialize) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "cannot be warp-specialized: ";
    if (!sameGeometry)
      diag << "its meshes do not all have the same grid and cluster";
    else
      diag << "its regions need " << sumThreads << " warpgroups in one CTA, "
           << "at most " << maxWarpgroups << " ("
           << TargetInfo::kMaxThreadsPerCta << " threads) fit";
    diag.attachNote() << "use mpmd-form=cta-partitioned";
    return diag;
  }
  if (form == MpmdForm::CtaPartitioned && !sameCluster) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "cannot be CTA-partitioned: its meshes have "
                                 "different clusters, and one launch has one "
                                 "cluster shape";
    diag.attachNote() << "give every mesh the same cluster";
    return diag;
  }

  SmallVector<RegionPlacement> placements;
  SmallVector<int64_t> staticGrid;
  int64_t warpgroups = 0;
  if (form == MpmdForm::WarpSpecialized) {
    for (MeshAttr mesh : meshes) {
      int64_t t = mesh.getNumThreads().value_or(1);
      placements.push_back({0, gridCount(mesh), warpgroups, t});
      warpgroups += t;
    }
    staticGrid = llvm::to_vector(meshes[0].getGrid());
  } else {
    int64_t ctas = 0;
    for (MeshAttr mesh : meshes) {
      placements.push_back(
          {ctas, gridCount(mesh), 0, mesh.getNumThreads().value_or(1)});
      ctas += gridCount(mesh);
    }
    warpgroups = maxThreads;
    staticGrid = {ctas};
  }

  // One global copy of the scratch, one shared copy per region.
  ScratchPlan plan;
  SmallVector<SmallVector<int64_t>> where;
  for (unsigned i = 0; i < numRegions; ++i)
    where.push_back(plan.place(op.getScratch(), /*globalPlaced=*/i > 0));
  LaunchOp launch =
      createLaunch(b, loc, staticGrid, ValueRange(), meshes[0].getCluster(),
                   warpgroups, ValueRange(), op.getIns(), op.getOuts(), plan);

  SmallVector<MeshAttr> superMesh(meshes);
  if (ArrayAttr external = op.getExternalMeshesAttr())
    for (Attribute attr : external)
      superMesh.push_back(cast<MeshAttr>(attr));

  Value wg = launch.getWarpgroupId();
  for (unsigned i = 0; i < numRegions; ++i) {
    const RegionPlacement &place = placements[i];
    MeshAttr mesh = meshes[i];
    OpBuilder::InsertionGuard guard(b);
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // A region that does not cover the whole launch runs under a guard of
    // its range (unsigned compares: values below it wrap around).
    Value ctaInRegion = launch.getGridIds().front(), wgInRegion = wg;
    Value mine;
    auto inRange = [&](Value x, int64_t first, int64_t n, int64_t all) {
      if (first == 0 && n == all)
        return x;
      if (first)
        x = arith::SubIOp::create(b, loc, x, constant(first));
      Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                       constant(n));
      mine = mine ? Value(arith::AndIOp::create(b, loc, mine, in)) : in;
      return x;
    };
    if (form == MpmdForm::CtaPartitioned)
      ctaInRegion =
          inRange(ctaInRegion, place.firstCta, place.numCtas, staticGrid[0]);
    wgInRegion = inRange(wgInRegion, place.firstWarpgroup, place.numWarpgroups,
                         warpgroups);
    if (mine) {
      auto ifMine = scf::IfOp::create(b, loc, mine, false);
      b.setInsertionPointToStart(ifMine.thenBlock());
    }

    Bindings bindings;
    bindAxisSizes(superMesh, bindings);
    for (int64_t size : mesh.getGrid())
      bindings.numPrograms.push_back(constant(size));
    if (form == MpmdForm::WarpSpecialized) {
      bindings.programIds.assign(launch.getGridIds().begin(),
                                 launch.getGridIds().end());
    } else if (!mesh.getGrid().empty()) {
      auto ids = affine::AffineDelinearizeIndexOp::create(
          b, loc, ctaInRegion, mesh.getGrid(), /*hasOuterBound=*/true);
      bindings.programIds.assign(ids.getResults().begin(),
                                 ids.getResults().end());
    }
    bindMeshAxes(mesh, bindings.programIds, launch.getClusterIds(), wgInRegion,
                 bindings);
    Block &body = op.getBodies()[i].front();
    bindQueries(b, body, bindings);
    setClusterDims(body, mesh);
    moveBody(b, body, regionArgs(launch, where[i]));
  }
  op.erase();
  return success();
}

struct FormLaunchesPass
    : public mgpu::impl::MGPUFormLaunchesBase<FormLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<MpmdForm> form =
        llvm::StringSwitch<std::optional<MpmdForm>>(mpmdForm)
            .Case("auto", MpmdForm::Auto)
            .Case("warp-specialized", MpmdForm::WarpSpecialized)
            .Case("cta-partitioned", MpmdForm::CtaPartitioned)
            .Default(std::nullopt);
    if (!form) {
      getOperation()->emitError()
          << "mgpu-form-launches: unknown mpmd-form '" << mpmdForm
          << "' (expected auto, warp-specialized or cta-partitioned)";
      return signalPassFailure();
    }
    SmallVector<Operation *> kernels;
    getOperation()->walk([&](Operation *op) {
      if (isa<PallasCallOp, MpmdMapOp>(op))
        kernels.push_back(op);
    });
    for (Operation *kernel : kernels) {
      LogicalResult result =
          isa<PallasCallOp>(kernel)
              ? formPallasLaunch(cast<PallasCallOp>(kernel))
              : formMpmdLaunch(cast<MpmdMapOp>(kernel), *form);
      if (failed(result))
        return signalPassFailure();
    }
  }
};

} // namespace
