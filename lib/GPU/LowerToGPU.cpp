//===- LowerToGPU.cpp - --mgpu-lower-to-gpu -------------------------------===//
//
// Maps each per-lane mgpu.launch (--mgpu-distribute-warpgroups) to a
// `gpu.launch` over device copies of its arrays. The launch form decided
// everything else; what is left is the GPU's numbering:
//
// - the launch's grid is numbered row-major onto a one-dimensional grid of
//   CTAs (of clusters, with a cluster), so that no axis meets the 65535
//   limit of y and z; the cluster is the launch cluster;
// - a CTA is `warpgroups` x 128 threads: thread t is lane t mod 128 of
//   warpgroup t / 128;
// - the shared scratch lives in dynamic shared memory at its planned
//   offsets: buffers undefined until the kernel writes them (as JAX's),
//   barriers initialized by thread 0, then one CTA barrier; global scratch
//   is a device buffer zeroed before the launch;
// - tensor memory (`!mgpu.tmem` scratch) is one allocation by the first
//   warp, whose address lands in the first entry's shared slot before the
//   CTA barrier; after it every thread takes its buffers at their column
//   offsets, and the first warp frees it once every thread is done.
//
// Kernel-level ops stay in the launch body for a backend to lower
// (--mgpu-primitives-to-nvvm for the GPU, --mgpu-emulate-gpu for the
// emulator); --mgpu-outline-kernels then makes gpu.module kernels.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"
#include "mgpu/GPU/DeviceBuffers.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/LaunchForm.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOGPU
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The product of `sizes`, folded to a constant where they are constants
/// (so that outlining sinks it into the kernel rather than passing it).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  int64_t known = 1;
  Value result;
  for (Value size : sizes) {
    APInt value;
    if (matchPattern(size, m_ConstantInt(&value))) {
      known *= value.getSExtValue();
      continue;
    }
    result = result ? Value(arith::MulIOp::create(b, loc, result, size)) : size;
  }
  if (!result)
    return indexConstant(b, loc, known);
  if (known != 1)
    result =
        arith::MulIOp::create(b, loc, result, indexConstant(b, loc, known));
  return result;
}

/// Programs that wait on each other need every CTA resident at once.
LogicalResult verifyCoResident(LaunchOp launch) {
  bool waits =
      launch->walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (!waits)
    return success();
  int64_t ctas = 1;
  for (int64_t size : launch.getStaticGrid())
    ctas = ShapedType::isDynamic(size) || ctas < 0 ? -1 : ctas * size;
  for (int64_t size : launch.getClusterShape())
    ctas = ctas < 0 ? -1 : ctas * size;
  const TargetInfo &target = getTargetInfo(launch);
  if (ctas >= 0 && ctas <= target.guaranteedResidentCtas)
    return success();
  InFlightDiagnostic diag = launch.emitOpError()
                            << "waits on a semaphore, so all its CTAs must be "
                               "resident at once, but ";
  if (ctas < 0)
    diag << "its grid is dynamic";
  else
    diag << "it launches " << ctas << " CTAs and only "
         << target.guaranteedResidentCtas
         << " are guaranteed to be resident on " << target.chip;
  diag.attachNote() << "a launch that waits for CTAs that cannot start "
                       "would deadlock; use fewer programs";
  return diag;
}

LogicalResult lowerLaunch(LaunchOp launch, bool copyWriteOnlyOuts) {
  if (!launch.getLanes())
    return launch.emitOpError()
           << "must be per-lane code before --mgpu-lower-to-gpu (run "
              "--mgpu-distribute-warpgroups)";
  if (failed(verifyCoResident(launch)))
    return failure();
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  MLIRContext *ctx = b.getContext();
  Block &body = launch.getBody().front();

  // Device copies of the arrays (a write-only output starts uninitialized)
  // and zeroed global scratch.
  DeviceBuffers device(b, loc);
  IRMapping mapping;
  ValueRange refs = launch.getArrayArgs();
  for (auto [array, ref] : llvm::zip(launch.getIns(), refs))
    mapping.map(ref, device.copyIn(array));
  ArrayRef<int64_t> writeOnly =
      copyWriteOnlyOuts
          ? ArrayRef<int64_t>()
          : launch.getWriteOnlyOuts().value_or(ArrayRef<int64_t>());
  for (auto [i, array] : llvm::enumerate(launch.getOuts()))
    mapping.map(refs[launch.getIns().size() + i],
                device.copyIn(array, !llvm::is_contained(writeOnly, i)));
  for (auto [type, arg] :
       llvm::zip(launch.getGlobalScratchTypes(), launch.getGlobalScratchArgs()))
    mapping.map(arg, device.zeroedScratch(cast<MemRefType>(type)));
  mapping.map(launch.getScalarArgs(), launch.getScalars());

  // The launch: one row-major x dimension of CTAs, or of clusters times
  // the cluster's x.
  SmallVector<Value> gridSizes = getValueOrCreateConstantIndexOp(
      b, loc, getMixedValues(launch.getStaticGrid(), launch.getGrid(), b));
  ArrayRef<int64_t> cluster = launch.getClusterShape();
  Value one = indexConstant(b, loc, 1);
  Value ctas = product(b, loc, gridSizes);
  Value gx = ctas, gy = one, gz = one;
  Value cx, cy, cz;
  if (!cluster.empty()) {
    cx = indexConstant(b, loc, cluster[0]);
    cy = indexConstant(b, loc, cluster.size() > 1 ? cluster[1] : 1);
    cz = indexConstant(b, loc, cluster.size() > 2 ? cluster[2] : 1);
    gx = arith::MulIOp::create(b, loc, ctas, cx);
    gy = cy;
    gz = cz;
  }
  int64_t threads = launch.getWarpgroups() * kWarpgroupLanes;
  auto smemBytes =
      arith::ConstantIntOp::create(b, loc, launch.getSharedMemoryBytes(), 32);
  auto gpuLaunch = gpu::LaunchOp::create(
      b, loc, gx, gy, gz, indexConstant(b, loc, threads), one, one, smemBytes,
      gpu::AsyncTokenType::get(ctx), ValueRange{device.getToken()}, TypeRange(),
      TypeRange(), cx, cy, cz);
  Block &kernel = gpuLaunch.getBody().front();
  // LaunchOp::build leaves out the cluster id and size arguments that the
  // op (and its parser) have when a cluster is given.
  if (!cluster.empty() && kernel.getNumArguments() == 12)
    for (int i = 0; i < 6; ++i)
      kernel.addArgument(b.getIndexType(), loc);
  b.setInsertionPointToStart(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);

  // Grid sizes as the kernel sees them: constants made inside it (so that
  // outlining does not pass them), SSA sizes from the host.
  SmallVector<Value> kernelSizes;
  for (auto [size, value] : llvm::zip(launch.getStaticGrid(), gridSizes))
    kernelSizes.push_back(
        ShapedType::isDynamic(size) ? value : indexConstant(b, loc, size));
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lanes = indexConstant(b, loc, kWarpgroupLanes);
  mapping.map(launch.getWarpgroupId(),
              arith::DivUIOp::create(b, loc, tid, lanes));
  mapping.map(launch.getLaneId(), arith::RemUIOp::create(b, loc, tid, lanes));
  Value linear =
      cluster.empty()
          ? Value(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x))
          : Value(gpu::ClusterIdOp::create(b, loc, gpu::Dimension::x));
  if (!kernelSizes.empty()) {
    auto ids = affine::AffineDelinearizeIndexOp::create(
        b, loc, linear, kernelSizes, /*hasOuterBound=*/true);
    mapping.map(launch.getGridIds(), ids.getResults());
  }
  gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                           gpu::Dimension::z};
  for (auto [d, id] : llvm::enumerate(launch.getClusterIds()))
    mapping.map(id, gpu::ClusterBlockIdOp::create(b, loc, dims[d]));

  // Shared scratch in dynamic shared memory.
  auto smemType = MemRefType::get(
      {ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  Value smem = gpu::DynamicSharedMemoryOp::create(b, loc, smemType);
  SmallVector<Type> sharedTypes = launch.getSharedScratchTypes();
  int64_t tmemColumns = 0;
  SmallVector<int64_t> columnOffsets =
      getTmemColumnOffsets(sharedTypes, tmemColumns);
  tmemColumns = tmemColumns ? getTmemAllocationColumns(tmemColumns) : 0;
  // Collective TMEM (all of it, by the scratch rule) is allocated by both
  // CTAs of a pair together.
  bool collectiveTmem = llvm::any_of(sharedTypes, [](Type type) {
    auto tmem = dyn_cast<TmemType>(type);
    return tmem && tmem.getCollective();
  });
  Value tmemSlot;
  SmallVector<std::pair<Value, int64_t>> tmemArgs;
  auto inFirstWarp = [&](function_ref<void()> body) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                        indexConstant(b, loc, 32));
    auto ifFirst = scf::IfOp::create(b, loc, first, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    body();
  };
  for (auto [i, type, offset, arg] :
       llvm::enumerate(sharedTypes, launch.getSharedScratchOffsets(),
                       launch.getSharedScratchArgs())) {
    Value at = indexConstant(b, loc, offset);
    if (isa<TmemType>(type)) {
      if (!tmemSlot) {
        auto slotType =
            MemRefType::get({1}, b.getI32Type(), MemRefLayoutAttrInterface(),
                            smemType.getMemorySpace());
        tmemSlot =
            memref::ViewOp::create(b, loc, slotType, smem, at, ValueRange());
        inFirstWarp([&] {
          TmemAllocOp::create(b, loc, tmemSlot, tmemColumns, collectiveTmem);
        });
      }
      tmemArgs.push_back({arg, columnOffsets[i]});
      continue;
    }
    if (auto barrier = dyn_cast<BarrierLikeType>(type)) {
      auto words = MemRefType::get({barrier.getCount()}, b.getI64Type(),
                                   MemRefLayoutAttrInterface(),
                                   smemType.getMemorySpace());
      Value storage =
          memref::ViewOp::create(b, loc, words, smem, at, ValueRange());
      Value bound = UnrealizedConversionCastOp::create(b, loc, type, storage)
                        .getResult(0);
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                          indexConstant(b, loc, 0));
      auto ifFirst = scf::IfOp::create(b, loc, first, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      BarrierInitOp::create(b, loc, bound);
      mapping.map(arg, bound);
      continue;
    }
    // Undefined until the kernel writes it, as JAX's scratch is.
    Value buffer = memref::ViewOp::create(b, loc, cast<MemRefType>(type), smem,
                                          at, ValueRange());
    mapping.map(arg, buffer);
  }
  if (!launch.getSharedScratchTypes().empty())
    gpu::BarrierOp::create(b, loc);
  for (auto [arg, columnOffset] : tmemArgs)
    mapping.map(
        arg, TmemRefOp::create(b, loc, arg.getType(), tmemSlot, columnOffset));
  // Other CTAs arrive on a cluster barrier (or complete a multicast copy's
  // or a peer's async_store_smem's bytes on a barrier): only once every CTA
  // of the cluster has initialized its barriers, and a CTA exits only once
  // no other may still arrive on its own or access its shared memory
  // (cluster_ref).
  bool clusterBarriers =
      collectiveTmem ||
      llvm::any_of(launch.getSharedScratchTypes(),
                   llvm::IsaPred<ClusterBarrierType>) ||
      launch.getBody()
          .walk([](Operation *op) {
            auto copy = dyn_cast<CopyGmemToSmemOp>(op);
            return (copy && copy.getCollectiveAxes()) ||
                           isa<ClusterRefOp, AsyncStoreSmemOp>(op)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  if (clusterBarriers)
    ClusterSyncOp::create(b, loc);

  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  // A pair's tensor memory is freed only once the peer is done with it
  // too (its MMAs write both CTAs' accumulators).
  if (tmemSlot) {
    gpu::BarrierOp::create(b, loc);
    if (collectiveTmem)
      ClusterSyncOp::create(b, loc);
    inFirstWarp([&] {
      TmemDeallocOp::create(b, loc, tmemSlot, tmemColumns, collectiveTmem);
    });
  }
  if (clusterBarriers && !(tmemSlot && collectiveTmem))
    ClusterSyncOp::create(b, loc);
  b.setInsertionPointAfter(gpuLaunch);
  device.finish(gpuLaunch.getAsyncToken(), launch.getOuts());
  launch.erase();
  return success();
}

struct LowerToGPUPass : public mgpu::impl::MGPULowerToGPUBase<LowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<LaunchOp>> launches = collectLaunches(
        module, "--mgpu-lower-to-gpu",
        "--mgpu-form-launches and --mgpu-distribute-warpgroups");
    if (failed(launches))
      return signalPassFailure();
    for (LaunchOp launch : *launches) {
      // The GPU pipeline compiles the gpu.modules of the top-level module.
      if (launch->getParentOfType<ModuleOp>() != module) {
        launch.emitOpError()
            << "is in a nested module, which the GPU pipeline does not "
               "compile: move its function to the top-level module";
        return signalPassFailure();
      }
      if (failed(lowerLaunch(launch, copyWriteOnlyOuts)))
        return signalPassFailure();
    }
  }
};

} // namespace
