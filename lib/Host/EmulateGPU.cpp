//===- EmulateGPU.cpp - Kernels run on host threads ----------------------===//
//
// Runs the kernels that --mgpu-lower-to-gpu produces (before outlining), and
// outlined upstream-style ones (EmulateHostSide.cpp inlines them first), on
// the host, every CUDA thread with its own control flow, so that the GPU
// lowering itself (block staging, lane distribution, named barriers,
// shuffles, semaphores) is checked with numbers on machines without a GPU.
// Each launch body becomes a lane function that the host runtime calls once
// per CUDA thread (lib/Runtime/EmuScheduler.cpp): CTAs in groups that must
// run together (a cluster; every CTA for kernels that wait on semaphores)
// on a pool of one host thread per core, the threads of a group as fibers
// that switch only where a lane waits. Barriers are counters spun on, each
// step letting the next lane run (mgpuEmuYield), and a warp shuffle goes
// through a host array between two warp-wide barriers. A cluster_sync
// counts every thread of the cluster on a barrier word of the cluster's
// first CTA (mgpuHostClusterSync), and an arrival on a cluster barrier is
// one on the barrier words of each CTA of its group; the CTAs of a group
// have consecutive slots, so a CTA finds its cluster's others from its
// own. A multicast copy lands the whole window in each CTA's own buffer
// (the bytes the group's shares deliver on the GPU); with checks on, its
// issue is also checked as a write of the peers' buffers. A wgmma is computed
// at the wait that completes it (WgmmaDeferral.h), and the runtime picks when
// copies land and read (lib/Runtime/EmuAsync.cpp).
//
// With checks on (the `checks` option), shared-memory accesses, fences, CTA
// barriers and wgmma operand reads also call the runtime's checker
// (lib/Runtime/EmuChecks.cpp), each with its op's location.
//
// Host-side gpu ops become their memref equivalents (alloc, copy, fill,
// dealloc), async tokens disappear, and workgroup memory becomes one host
// buffer with a slice per CTA slot of the pool. This file builds the lane
// function and its launch; EmulateLaneOps.cpp rewrites its ops.
//
//===----------------------------------------------------------------------===//

#include "EmulateLaneOps.h"
#include "EmulateSync.h"

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Host/CapturedCall.h"
#include "mgpu/Host/EmulateHostSide.h"
#include "mgpu/Host/EmulatePrimitives.h"
#include "mgpu/Host/EmulatorChecks.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/HostTypes.h"
#include "mgpu/Host/Tcgen05Emulation.h"
#include "mgpu/Host/WgmmaDeferral.h"
#include "mgpu/Host/WgmmaEmulation.h"
#include "mgpu/KernelForm/CopyWindows.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Passes.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUEMULATEGPU
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::emulation;

namespace {

struct Emulator {
  Emulator(ModuleOp module, func::FuncOp yield, func::FuncOp barrier)
      : module(module), yield(yield), barrier(barrier), strings(module) {}

  ModuleOp module;
  func::FuncOp yield, barrier;
  /// The checks (EmuChecks.h bits; 0: none).
  int64_t checks = 0;
  LocationStrings strings;

  LogicalResult emulate(gpu::LaunchOp launch);
};

/// CUDA's limits on a launch (blocks of 1 to 1024 threads, at most 64
/// along z; grids of at most 2^31 - 1 blocks along x and 65535 along y and
/// z): an error at the launch where its sizes are constants, else a check
/// at run time (reported at the launch), where the emulator would otherwise
/// try to run the threads.
static LogicalResult checkLaunchLimits(OpBuilder &b, gpu::LaunchOp launch) {
  Location loc = launch.getLoc();
  constexpr int64_t kMaxGridYZ = 65535, kMaxBlockZ = 64;
  struct Limit {
    Value size;
    int64_t max;
  };
  Limit limits[] = {{launch.getBlockSizeX(), TargetInfo::kMaxThreadsPerCta},
                    {launch.getBlockSizeY(), TargetInfo::kMaxThreadsPerCta},
                    {launch.getBlockSizeZ(), kMaxBlockZ},
                    {launch.getGridSizeX(), TargetInfo::kMaxCtasX},
                    {launch.getGridSizeY(), kMaxGridYZ},
                    {launch.getGridSizeZ(), kMaxGridYZ}};
  // The block's threads, once each dimension is known to be in range.
  int64_t threads = 1;
  bool constant = true;
  for (auto [i, limit] : llvm::enumerate(limits)) {
    std::optional<int64_t> size = getConstantIntValue(limit.size);
    if (!size) {
      constant = false;
      continue;
    }
    if (*size < 1 || *size > limit.max)
      return launch.emitOpError()
             << "cannot run: its " << (i < 3 ? "block" : "grid") << " size "
             << "xyz"[i % 3] << " is " << *size << ", and CUDA allows 1 to "
             << limit.max;
    if (i < 3)
      threads *= *size;
  }
  if (constant && threads > TargetInfo::kMaxThreadsPerCta)
    return launch.emitOpError() << "cannot run: its blocks have " << threads
                                << " threads, and CUDA allows at most "
                                << TargetInfo::kMaxThreadsPerCta;
  if (constant)
    return success();
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto inRange = [&](Value size, int64_t max) {
    Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size,
                                      indexConstant(b, loc, 1));
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, size,
                                       indexConstant(b, loc, max));
    ok = arith::AndIOp::create(b, loc, ok,
                               arith::AndIOp::create(b, loc, low, high));
  };
  for (Limit limit : limits)
    inRange(limit.size, limit.max);
  // Each block dimension is at most 1024 where `ok` holds: no overflow.
  inRange(arith::MulIOp::create(b, loc,
                                arith::MulIOp::create(b, loc,
                                                      launch.getBlockSizeX(),
                                                      launch.getBlockSizeY()),
                                launch.getBlockSizeZ()),
          TargetInfo::kMaxThreadsPerCta);
  cf::AssertOp::create(b, loc, ok,
                       "^ a launch past CUDA's limits: blocks of 1 to 1024 "
                       "threads (at most 64 along z), grids of at most "
                       "2^31 - 1 blocks along x and 65535 along y and z");
  return success();
}

LogicalResult Emulator::emulate(gpu::LaunchOp launch) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  if (launch.getBody().getBlocks().size() != 1)
    return launch.emitOpError() << "cannot be emulated: its body must be one "
                                   "block (run before scf is lowered)";
  if (failed(checkLaunchLimits(b, launch)))
    return failure();
  // Folded where they can be, so that the lane function gets constants.
  auto mul = [&](Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  };
  Value one = indexConstant(b, loc, 1);
  Value outerGx = launch.getGridSizeX(), outerGy = launch.getGridSizeY(),
        outerGz = launch.getGridSizeZ();
  Value outerBx = launch.getBlockSizeX(), outerBy = launch.getBlockSizeY(),
        outerBz = launch.getBlockSizeZ();
  Value outerCx = launch.getClusterSizeX() ? launch.getClusterSizeX() : one;
  Value outerCy = launch.getClusterSizeY() ? launch.getClusterSizeY() : one;
  Value outerCz = launch.getClusterSizeZ() ? launch.getClusterSizeZ() : one;
  Value outerPerCta = mul(mul(outerBx, outerBy), outerBz);
  Value smemBytes = indexConstant(b, loc, 0);
  if (Value dynamic = launch.getDynamicSharedMemorySize())
    smemBytes =
        b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), dynamic);
  // Keep every CTA's slice 128-byte aligned, like shared memory; its
  // tensor memory follows its shared memory (Tcgen05Emulation.h).
  int64_t tmemBytes = getEmulatedTmemBytes(launch);
  replaceTcgen05Commits(launch);
  Value outerStride = b.createOrFold<arith::AddIOp>(
      loc,
      mul(b.createOrFold<arith::CeilDivUIOp>(loc, smemBytes,
                                             indexConstant(b, loc, 128)),
          indexConstant(b, loc, 128)),
      indexConstant(b, loc, tmemBytes));

  // The runtime runs groups of CTAs (EmuScheduler.cpp), one group per
  // pool thread at a time: a cluster, or every CTA at once for a kernel
  // that waits on semaphores (lower-to-gpu checked that they fit on the
  // chip), as such CTAs wait for each other. It says how many CTA slots
  // of shared memory and barrier words that takes.
  bool coResident =
      launch.getBody()
          .walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  // The CTAs of a kernel that uses semaphores order their global memory
  // accesses through them, those of a cluster through cluster_sync: the
  // checks see races between them.
  bool globalChecks =
      checks &&
      (coResident || launch.getBody()
                         .walk([](Operation *op) {
                           return isa<SemaphoreSignalOp, ClusterSyncOp>(op)
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted());
  SmallVector<Value> group = {outerCx, outerCy, outerCz};
  if (coResident)
    group = {outerGx, outerGy, outerGz};
  auto asI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  };
  SmallVector<Value> dims = {asI64(outerGx),  asI64(outerGy),  asI64(outerGz),
                             asI64(group[0]), asI64(group[1]), asI64(group[2])};
  Value slots = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      callHostRuntime(b, launch, "mgpuEmuCtaSlots", dims, b.getI64Type())
          ->getResult(0));
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  auto wordsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  Value outerSmem = memref::AllocOp::create(
      b, loc, bytesType,
      ValueRange{arith::AddIOp::create(b, loc, mul(slots, outerStride),
                                       indexConstant(b, loc, 128))},
      b.getI64IntegerAttr(128));
  Value outerSync = memref::AllocOp::create(
      b, loc, wordsType,
      ValueRange{mul(slots, indexConstant(b, loc, 2 * kSlotsPerCta))});
  Value outerExchange = memref::AllocOp::create(
      b, loc, wordsType, ValueRange{mul(slots, outerPerCta)});

  // The body becomes a lane function the runtime calls once per CUDA
  // thread: (captures, CTA slot, thread in the CTA, block ids).
  llvm::SetVector<Value> captures;
  getUsedValuesDefinedAbove(launch.getBody(), captures);
  captures.insert_range(
      ValueRange{outerGx, outerGy, outerGz, outerBx, outerBy, outerBz, outerCx,
                 outerCy, outerCz, outerPerCta, outerStride, outerSmem,
                 outerSync, outerExchange, group[0], group[1]});
  IRMapping mapping;
  Type index = b.getIndexType();
  FailureOr<CapturedFunction> lanes = createCapturedFunction(
      b, launch, module, "__mgpu_emu_lanes", captures.getArrayRef(),
      {index, index, index, index, index}, mapping);
  if (failed(lanes))
    return failure();
  Value fn = func::ConstantOp::create(
      b, loc, lanes->func.getFunctionType(),
      FlatSymbolRefAttr::get(lanes->func.getSymNameAttr()));
  if (checks) {
    Value total = arith::IndexCastOp::create(
        b, loc, b.getI64Type(), memref::DimOp::create(b, loc, outerSmem, 0));
    // The checked slice of a CTA: its shared memory, and its tensor memory
    // after it (whose accesses are checked as shared memory's are).
    Value checkedBytes = tmemBytes ? outerStride : smemBytes;
    // The threads of a cluster are ordered against each other's (a peer's
    // multicast, arrivals, cluster_ref accesses) where the cluster is the
    // group its CTAs run in.
    Value clusterCtas =
        coResident ? getI64(b, loc, 1)
                   : asI64(mul(outerCx, arith::MulIOp::create(b, loc, outerCy,
                                                              outerCz)));
    callHostRuntime(b, launch, "mgpuEmuCheckLaunch",
                    {getElementPointer(b, loc, outerSmem), total, asI64(slots),
                     asI64(outerStride), asI64(checkedBytes),
                     getI64(b, loc, tmemBytes), asI64(outerPerCta), clusterCtas,
                     getI64(b, loc, checks)});
  }
  // CTAs that use semaphores order themselves through them: their global
  // memory is checked for races between them (EmuGlobalChecks.cpp).
  if (globalChecks)
    callHostRuntime(b, launch, "mgpuEmuCheckGlobalLaunch",
                    {dims[0], dims[1], dims[2], asI64(outerCx), asI64(outerCy),
                     asI64(outerCz)});
  callHostRuntime(b, launch, "mgpuEmuRunGrid",
                  {fn, lanes->pointer, dims[0], dims[1], dims[2], dims[3],
                   dims[4], dims[5], asI64(outerPerCta),
                   getElementPointer(b, loc, outerSync),
                   getI64(b, loc, 2 * kSlotsPerCta),
                   getElementPointer(b, loc, outerSmem), asI64(outerStride)});
  if (checks)
    callHostRuntime(b, launch, "mgpuEmuCheckLaunchEnd", {});
  if (globalChecks)
    callHostRuntime(b, launch, "mgpuEmuCheckGlobalLaunchEnd", {});
  LLVM::StackRestoreOp::create(b, loc, lanes->stack);
  memref::DeallocOp::create(b, loc, outerExchange);
  memref::DeallocOp::create(b, loc, outerSync);
  memref::DeallocOp::create(b, loc, outerSmem);

  {
    OpBuilder::InsertionGuard guard(b);
    Block *entry = &lanes->func.getBody().front();
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);
    b.setInsertionPoint(entry->getTerminator());
    Value gx = mapping.lookup(outerGx), gy = mapping.lookup(outerGy),
          gz = mapping.lookup(outerGz), bx = mapping.lookup(outerBx),
          by = mapping.lookup(outerBy), bz = mapping.lookup(outerBz),
          cx = mapping.lookup(outerCx), cy = mapping.lookup(outerCy),
          cz = mapping.lookup(outerCz), perCta = mapping.lookup(outerPerCta),
          stride = mapping.lookup(outerStride),
          smem = mapping.lookup(outerSmem), sync = mapping.lookup(outerSync),
          exchange = mapping.lookup(outerExchange),
          groupX = mapping.lookup(group[0]), groupY = mapping.lookup(group[1]);
    Value slot = entry->getArgument(1), tid = entry->getArgument(2);
    Value bxId = entry->getArgument(3), byId = entry->getArgument(4),
          bzId = entry->getArgument(5);
    // t: the thread among all the slots (the shuffle exchange's index).
    Value t = arith::AddIOp::create(b, loc, mul(slot, perCta), tid);
    // Thread ids, x innermost.
    SmallVector<Value> threadIds = delinearize(b, loc, tid, {bz, by, bx});
    Value tx = threadIds[2], ty = threadIds[1], tz = threadIds[0];
    Value ctaBase = arith::MulIOp::create(b, loc, slot, stride);
    Value tmemBase = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, ctaBase, stride),
        indexConstant(b, loc, tmemBytes));
    Value slotBase = arith::MulIOp::create(b, loc, slot,
                                           indexConstant(b, loc, kSlotsPerCta));
    Block &kernel = launch.getBody().front();
    auto mapDims = [&](gpu::KernelDim3 dims, Value x, Value y, Value z) {
      mapping.map(dims.x, x);
      mapping.map(dims.y, y);
      mapping.map(dims.z, z);
    };
    mapDims(launch.getBlockIds(), bxId, byId, bzId);
    mapDims(launch.getThreadIds(), tx, ty, tz);
    mapDims(launch.getGridSize(), gx, gy, gz);
    mapDims(launch.getBlockSize(), bx, by, bz);
    SmallVector<Operation *> cloned;
    for (Operation &op : kernel.without_terminator())
      cloned.push_back(b.clone(op, mapping));
    // Visit a snapshot of the ops: the rewrites erase ops.
    SmallVector<Operation *> ops;
    for (Operation *top : cloned)
      top->walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
    LaneValues values{gx,   gy,       gz,       bx,      by,     bz,
                      cx,   cy,       cz,       perCta,  stride, smem,
                      sync, exchange, groupX,   groupY,  slot,   tid,
                      bxId, byId,     bzId,     t,       tx,     ty,
                      tz,   ctaBase,  tmemBase, slotBase};
    LaneOpRewriter rewriter(values, yield, barrier, checks, strings, ops,
                            globalChecks);
    for (Operation *op : ops) {
      if (rewriter.erased.contains(op))
        continue;
      if (rewriter.rewrite(op).wasInterrupted())
        return failure();
    }
    resolveDeferredResults(
        rewriter.mmaResults,
        [&](OpBuilder &nb, Operation *op) { return strings.get(nb, op); });
  }
  return success();
}

struct EmulateGPUPass : public mgpu::impl::MGPUEmulateGPUBase<EmulateGPUPass> {
  using MGPUEmulateGPUBase::MGPUEmulateGPUBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(prepareLaunches(module)))
      return signalPassFailure();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    if (launches.empty()) {
      // Device memory without kernels is host memory all the same.
      if (failed(emulateHostOps(module)))
        signalPassFailure();
      return;
    }
    FailureOr<func::FuncOp> yield = getOrCreateEmuYield(module);
    if (failed(yield))
      return signalPassFailure();
    std::string error;
    std::optional<int64_t> mask = parseEmulatorChecks(checks, error);
    if (!mask) {
      module.emitError() << "--mgpu-emulate-gpu: " << error;
      return signalPassFailure();
    }
    Emulator emulator(module, *yield, createEmuBarrier(module, *yield));
    emulator.checks = *mask;
    for (gpu::LaunchOp launch : launches)
      if (failed(emulator.emulate(launch)))
        return signalPassFailure();
    if (failed(emulateHostOps(module)))
      return signalPassFailure();
    // The attribute means "kernels live in gpu.modules": true again once
    // the launches are host loops, unless the module still has some.
    bool keepsGpuModules = false;
    module.walk([&](gpu::GPUModuleOp) {
      keepsGpuModules = true;
      return WalkResult::interrupt();
    });
    if (!keepsGpuModules)
      module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace

std::optional<int64_t> mlir::mgpu::parseEmulatorChecks(StringRef spec,
                                                       std::string &error) {
  // The bits of lib/Runtime/EmuChecks.h.
  static const std::pair<StringRef, int64_t> kinds[] = {
      {"races", 1}, {"async", 2}, {"barriers", 4}, {"init", 8}, {"bounds", 16}};
  if (spec == "all")
    return 31;
  if (spec == "none" || spec.empty())
    return 0;
  SmallVector<StringRef> names;
  spec.split(names, ',');
  int64_t mask = 0;
  for (StringRef name : names) {
    const auto *kind = llvm::find_if(
        kinds, [&](const auto &k) { return k.first == name.trim(); });
    if (kind == std::end(kinds)) {
      error = ("unknown check '" + name.trim() +
               "' (all, none, or a list of races, async, barriers, init, "
               "bounds)")
                  .str();
      return std::nullopt;
    }
    mask |= kind->second;
  }
  return mask;
}
