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
// (the bytes the group's shares deliver on the GPU). A wgmma is computed at
// the wait that completes it (WgmmaDeferral.h), and the runtime picks when
// copies land and read (lib/Runtime/EmuAsync.cpp).
//
// With checks on (the `checks` option), shared-memory accesses, fences, CTA
// barriers and wgmma operand reads also call the runtime's checker
// (lib/Runtime/EmuChecks.cpp), each with its op's location.
//
// Host-side gpu ops become their memref equivalents (alloc, copy, fill,
// dealloc), async tokens disappear, and workgroup memory becomes one host
// buffer with a slice per CTA slot of the pool.
//
//===----------------------------------------------------------------------===//

#include "ClusterMemory.h"
#include "EmulateSync.h"
#include "MmaSyncEmulation.h"
#include "PairOnHost.h"

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/GPU/WarpgroupDistribution.h"
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

#include "mlir/Dialect/Arith/IR/Arith.h"
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
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::emulation;

namespace {

struct Emulator {
  /// Barrier slots per CTA: 16 named barriers, then one per warp (32 warps),
  /// then the cluster's (in its first CTA's slots).
  static constexpr int64_t kSlotsPerCta = 64;
  static constexpr int64_t kFirstWarpSlot = 16;
  static constexpr int64_t kClusterSlot = 48;

  ModuleOp module;
  func::FuncOp yield, barrier;
  /// The checks (EmuChecks.h bits; 0: none).
  int64_t checks = 0;
  /// Location strings by location: a kernel has thousands of checked ops.
  DenseMap<Location, LLVM::GlobalOp> locationStrings;

  Value where(OpBuilder &b, Operation *op);
  void checkAccess(OpBuilder &b, Operation *op);

  LogicalResult emulate(gpu::LaunchOp launch);
};

Value Emulator::where(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  LLVM::GlobalOp &global = locationStrings[loc];
  if (!global) {
    // getLocationString makes (or finds) the global; later uses of the
    // same location take its address directly.
    Value address = getLocationString(b, op);
    auto addressOf = address.getDefiningOp<LLVM::AddressOfOp>();
    global = module.lookupSymbol<LLVM::GlobalOp>(addressOf.getGlobalName());
    return address;
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// A call of the checker before a shared-memory load or store: its address,
/// its bytes, whether it writes, and where.
void Emulator::checkAccess(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Value memref;
  ValueRange indices;
  Type value;
  bool write = false;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemref();
    indices = load.getIndices();
    value = load.getType();
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemref();
    indices = store.getIndices();
    value = store.getValueToStore().getType();
    write = true;
  } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
    memref = load.getBase();
    indices = load.getIndices();
    value = load.getVectorType();
  } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
    memref = store.getBase();
    indices = store.getIndices();
    value = store.getVectorType();
    write = true;
  }
  int64_t count = 1;
  Type element = value;
  if (auto vector = dyn_cast<VectorType>(value)) {
    count = vector.getNumElements();
    element = vector.getElementType();
  }
  int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  callHostRuntime(b, op, "mgpuEmuCheckAccess",
                  {getElementPointer(b, loc, memref, indices),
                   getI64(b, loc, count * ((bits + 7) / 8)),
                   getI64(b, loc, write), where(b, op)});
}

LogicalResult Emulator::emulate(gpu::LaunchOp launch) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  if (launch.getBody().getBlocks().size() != 1)
    return launch.emitOpError() << "cannot be emulated: its body must be one "
                                   "block (run before scf is lowered)";
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
    callHostRuntime(b, launch, "mgpuEmuCheckLaunch",
                    {getElementPointer(b, loc, outerSmem), total,
                     asI64(outerStride), asI64(smemBytes), asI64(outerPerCta),
                     getI64(b, loc, checks)});
  }
  callHostRuntime(b, launch, "mgpuEmuRunGrid",
                  {fn, lanes->pointer, dims[0], dims[1], dims[2], dims[3],
                   dims[4], dims[5], asI64(outerPerCta),
                   getElementPointer(b, loc, outerSync),
                   getI64(b, loc, 2 * kSlotsPerCta)});
  if (checks)
    callHostRuntime(b, launch, "mgpuEmuCheckLaunchEnd", {});
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
    // The slot of the cluster's first CTA: the group's CTAs have slots in
    // x-innermost order from the group's first (EmuScheduler.cpp), and the
    // cluster's first CTA is this one less its place in the cluster.
    auto clusterLeaderSlot = [&](OpBuilder &nb, Location l) -> Value {
      Value rx = arith::RemUIOp::create(nb, l, bxId, cx);
      Value ry = arith::RemUIOp::create(nb, l, byId, cy);
      Value rz = arith::RemUIOp::create(nb, l, bzId, cz);
      Value shift = arith::AddIOp::create(
          nb, l, rx,
          arith::MulIOp::create(
              nb, l, groupX,
              arith::AddIOp::create(nb, l, ry,
                                    arith::MulIOp::create(nb, l, groupY, rz))));
      return arith::SubIOp::create(nb, l, slot, shift);
    };

    auto pick = [](gpu::Dimension d, Value x, Value y, Value z) {
      return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
    };
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
    auto callBarrier = [&](OpBuilder &nb, Location l, Value slot, Value count,
                           Value checked = Value()) {
      if (!checked)
        checked = arith::ConstantIntOp::create(nb, l, -1, 64);
      func::CallOp::create(
          nb, l, barrier,
          ValueRange{sync, arith::AddIOp::create(nb, l, slotBase, slot), count,
                     checked});
    };
    // A CTA barrier the checker sees (shuffles' warp barriers are not: the
    // checker does not compare a warp with itself).
    auto callCheckedBarrier = [&](OpBuilder &nb, Operation *op, Value slot,
                                  Value count) {
      Location l = op->getLoc();
      auto i64 = [&](Value v) -> Value {
        return arith::IndexCastOp::create(nb, l, nb.getI64Type(), v);
      };
      if (!checks) {
        callBarrier(nb, l, slot, count);
        return;
      }
      // A barrier of every thread of the CTA is checked once, by the last
      // thread to arrive; others by every thread as it arrives and leaves.
      Value everyThread =
          arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, count, perCta);
      scf::IfOp::create(
          nb, l, everyThread,
          [&](OpBuilder &tb, Location tl) {
            callBarrier(tb, tl, slot, count, i64(slot));
            scf::YieldOp::create(tb, tl);
          },
          [&](OpBuilder &eb, Location el) {
            callHostRuntime(eb, op, "mgpuEmuCheckSyncArrive",
                            {i64(slot), i64(count)});
            callBarrier(eb, el, slot, count);
            callHostRuntime(eb, op, "mgpuEmuCheckSyncLeave", {i64(slot)});
            scf::YieldOp::create(eb, el);
          });
    };
    // The ops that access shared memory, known by their types before the
    // rewrites below give them host types.
    llvm::DenseSet<Operation *> sharedAccesses;
    // Visit a snapshot of the ops: the rewrites below erase ops.
    SmallVector<Operation *> ops;
    for (Operation *top : cloned)
      top->walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
    auto isShared = [](Value memref) {
      auto type = dyn_cast<MemRefType>(memref.getType());
      auto space =
          type ? dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())
               : nullptr;
      return space && space.getValue() == gpu::AddressSpace::Workgroup;
    };
    if (checks)
      for (Operation *op : ops) {
        Value memref;
        if (auto load = dyn_cast<memref::LoadOp>(op))
          memref = load.getMemref();
        else if (auto store = dyn_cast<memref::StoreOp>(op))
          memref = store.getMemref();
        else if (auto load = dyn_cast<vector::LoadOp>(op))
          memref = load.getBase();
        else if (auto store = dyn_cast<vector::StoreOp>(op))
          memref = store.getBase();
        if (memref && isShared(memref))
          sharedAccesses.insert(op);
      }
    llvm::SmallPtrSet<Operation *, 16> erased;
    // cluster_ref results and their bytes from this CTA's shared memory.
    DenseMap<Value, Value> peerOffsets;
    // The fragments of the deferred MMAs (placeholders until their wait).
    SmallVector<Value> mmaResults;
    for (Operation *op : ops) {
      if (erased.contains(op))
        continue;
      auto rewrite = [&]() -> WalkResult {
        OpBuilder nb(op);
        Location l = op->getLoc();
        Value replacement;
        if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
          replacement = pick(id.getDimension(), tx, ty, tz);
        else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
          replacement = pick(id.getDimension(), bxId, byId, bzId);
        else if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
          replacement = pick(dim.getDimension(), bx, by, bz);
        else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
          replacement = pick(dim.getDimension(), gx, gy, gz);
        else if (auto read = dyn_cast<SemaphoreReadOp>(op))
          // Host atomics are sequentially consistent: an atomic read.
          replacement = memref::AtomicRMWOp::create(
              nb, l, arith::AtomicRMWKind::ori,
              arith::ConstantIntOp::create(nb, l, 0, 32), read.getSem(),
              read.getIndices());
        else if (auto id = dyn_cast<gpu::ClusterBlockIdOp>(op))
          replacement = arith::RemUIOp::create(
              nb, l, pick(id.getDimension(), bxId, byId, bzId),
              pick(id.getDimension(), cx, cy, cz));
        else if (auto id = dyn_cast<gpu::ClusterIdOp>(op))
          replacement = arith::DivUIOp::create(
              nb, l, pick(id.getDimension(), bxId, byId, bzId),
              pick(id.getDimension(), cx, cy, cz));
        else if (isa<gpu::DynamicSharedMemoryOp>(op)) {
          // Views into this CTA's slice of the host buffer.
          for (Operation *user : llvm::make_early_inc_range(op->getUsers())) {
            auto view = dyn_cast<memref::ViewOp>(user);
            if (!view)
              return user->emitOpError()
                     << "cannot be emulated: dynamic shared memory is only "
                        "used through memref.view";
            OpBuilder vb(view);
            Value shift =
                arith::AddIOp::create(vb, l, view.getByteShift(), ctaBase);
            auto hostView = memref::ViewOp::create(
                vb, l, cast<MemRefType>(toHostType(view.getType())), smem,
                shift, view.getSizes());
            view.replaceAllUsesWith(hostView.getResult());
            erased.insert(view);
            view.erase();
          }
          op->erase();
          return WalkResult::skip();
        } else if (sharedAccesses.contains(op)) {
          checkAccess(nb, op);
        } else if (isa<gpu::BarrierOp>(op)) {
          callCheckedBarrier(nb, op, indexConstant(nb, l, 0), perCta);
          op->erase();
          return WalkResult::skip();
        } else if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
          Value id = bar.getBarrierId()
                         ? Value(arith::IndexCastOp::create(
                               nb, l, nb.getIndexType(), bar.getBarrierId()))
                         : indexConstant(nb, l, 0);
          Value count =
              bar.getNumberOfThreads()
                  ? Value(arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                     bar.getNumberOfThreads()))
                  : perCta;
          callCheckedBarrier(nb, op, id, count);
          op->erase();
          return WalkResult::skip();
        } else if (auto test = dyn_cast<BarrierTestOp>(op)) {
          FailureOr<Value> any = emulateBarrierTest(
              nb, test, tid, t, exchange,
              [&](Value id, Value n) { callCheckedBarrier(nb, op, id, n); });
          if (failed(any))
            return WalkResult::interrupt();
          test.getDone().replaceAllUsesWith(*any);
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (auto arrive = dyn_cast<BarrierArriveOp>(op);
                   arrive &&
                   isa<ClusterBarrierType>(arrive.getBarrier().getType())) {
          if (failed(emulateClusterArrive(nb, arrive, slot, stride, tid,
                                          {bxId, byId, bzId}, {cx, cy, cz},
                                          {groupX, groupY})))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (auto ref = dyn_cast<ClusterRefOp>(op)) {
          // The peer's slice of the host shared memory (ClusterMemory.h).
          Value bytes =
              ref.getClusterDims()
                  ? emulatePeerBytes(nb, ref, stride, {bxId, byId, bzId},
                                     {cx, cy, cz}, {groupX, groupY})
                  : Value();
          Value peer =
              bytes ? viewInPeer(nb, l, ref.getSmem(), bytes) : Value();
          if (!peer) {
            ref.emitOpError() << "cannot be emulated: needs its cluster_dims "
                                 "and a view of shared memory";
            return WalkResult::interrupt();
          }
          Value view = memref::CastOp::create(
              nb, l, cast<MemRefType>(toHostType(ref.getType())), peer);
          ref.getResult().replaceAllUsesWith(view);
          peerOffsets[view] = bytes;
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (auto store = dyn_cast<AsyncStoreSmemOp>(op)) {
          // Lane 0 copies and arrives on the peer's barrier.
          Value bytes = peerOffsets.lookup(store.getDst());
          Value words = barrierStorage(store.getBarrier());
          if (!bytes || !words) {
            store.emitOpError() << "cannot be emulated: needs its cluster_ref "
                                   "and its barrier's storage";
            return WalkResult::interrupt();
          }
          Value lane = arith::RemUIOp::create(
              nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
          LogicalResult stored = success();
          onLaneZero(nb, l, lane, [&](OpBuilder &lb) {
            stored =
                storeToPeerOnHost(lb, store, store.getSrc(), store.getDst(),
                                  words, store.getIndex(), bytes);
          });
          if (failed(stored))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (isa<ClusterSyncOp>(op)) {
          // Counter and phase at the first CTA's cluster slot.
          Value at = arith::MulIOp::create(
              nb, l,
              arith::AddIOp::create(
                  nb, l,
                  arith::MulIOp::create(nb, l, clusterLeaderSlot(nb, l),
                                        indexConstant(nb, l, kSlotsPerCta)),
                  indexConstant(nb, l, kClusterSlot)),
              indexConstant(nb, l, 2));
          Value threads = arith::MulIOp::create(
              nb, l, perCta,
              arith::MulIOp::create(nb, l, cx,
                                    arith::MulIOp::create(nb, l, cy, cz)));
          callHostRuntime(
              nb, op, "mgpuHostClusterSync",
              {getElementPointer(nb, l, sync, at),
               arith::IndexCastOp::create(nb, l, nb.getI64Type(), threads),
               getLocationString(nb, op)});
          op->erase();
          return WalkResult::skip();
        } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
          if (shuffle.getMode() != gpu::ShuffleMode::XOR)
            return op->emitOpError() << "cannot be emulated: only xor "
                                        "shuffles are";
          Value warpSlot = arith::AddIOp::create(
              nb, l, indexConstant(nb, l, kFirstWarpSlot),
              arith::DivUIOp::create(nb, l, tid, indexConstant(nb, l, 32)));
          memref::StoreOp::create(nb, l, toBits(nb, l, shuffle.getValue()),
                                  exchange, t);
          callBarrier(nb, l, warpSlot, indexConstant(nb, l, 32));
          Value offset = arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                    shuffle.getOffset());
          Value peer = arith::XOrIOp::create(nb, l, t, offset);
          Value bits = memref::LoadOp::create(nb, l, exchange, peer);
          callBarrier(nb, l, warpSlot, indexConstant(nb, l, 32));
          shuffle.getShuffleResult().replaceAllUsesWith(
              fromBits(nb, l, bits, shuffle.getValue().getType()));
          shuffle.getValid().replaceAllUsesWith(
              arith::ConstantIntOp::create(nb, l, 1, 1).getResult());
          op->erase();
          return WalkResult::skip();
        } else if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
          // A warp-wide mma.sync: fragments exchanged like shuffles.
          Value laneInWarp =
              arith::RemUIOp::create(nb, l, tid, indexConstant(nb, l, 32));
          Value warpSlot = arith::AddIOp::create(
              nb, l, indexConstant(nb, l, kFirstWarpSlot),
              arith::DivUIOp::create(nb, l, tid, indexConstant(nb, l, 32)));
          if (failed(emulateMmaSync(
                  nb, mma, exchange, t,
                  arith::SubIOp::create(nb, l, t, laneInWarp), laneInWarp, [&] {
                    callBarrier(nb, l, warpSlot, indexConstant(nb, l, 32));
                  })))
            return WalkResult::interrupt();
          op->erase();
          return WalkResult::skip();
        } else if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
          // cp.async done at once: the wait that follows has nothing left
          // to wait for. Elements past srcElements are zero-filled.
          emulateAsyncCopy(nb, l, copy);
          erased.insert(op);
          op->dropAllUses();
          op->erase();
          return WalkResult::skip();
        } else if (isa<NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp>(
                       op)) {
          op->erase(); // the copies above completed when they were issued
          return WalkResult::skip();
        } else if (auto mma = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op)) {
          Value lane = arith::RemUIOp::create(
              nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
          if (checks)
            onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
              emitWgmmaReadChecks(cb, mma, smem, ctaBase, where(cb, op));
            });
          // Computed at the wait that completes its group (WgmmaDeferral.h).
          FailureOr<Value> result =
              issueDeferredWgmma(nb, mma, smem, ctaBase, lane, where(nb, op));
          if (failed(result))
            return WalkResult::interrupt();
          mma.getResult().replaceAllUsesWith(*result);
          mmaResults.push_back(*result);
          op->erase();
          return WalkResult::skip();
        } else if (isa<NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaGroupSyncAlignedOp,
                       NVVM::WgmmaWaitGroupSyncOp, NVVM::FenceProxyOp>(op)) {
          // Every lane keeps its own MMA groups in the runtime.
          if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op))
            callHostRuntime(nb, op, "mgpuEmuWgmmaCommit", {});
          else if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op))
            callHostRuntime(nb, op, "mgpuEmuWgmmaWait",
                            {getI64(nb, l, wait.getGroup())});
          if (checks) {
            Value lane = arith::RemUIOp::create(
                nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
            if (isa<NVVM::FenceProxyOp>(op))
              callHostRuntime(nb, op, "mgpuEmuCheckFence", {});
            else if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op))
              onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
                callHostRuntime(cb, op, "mgpuEmuCheckWgmmaCommit", {});
              });
            else if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op))
              onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
                callHostRuntime(cb, op, "mgpuEmuCheckWgmmaWait",
                                {getI64(cb, l, wait.getGroup())});
              });
          }
          // Host threads see shared memory through one proxy.
          op->erase();
          return WalkResult::skip();
        } else if (isEmulatedTcgen05Op(op)) {
          if (failed(emulateTcgen05Op(nb, op, smem, tmemBase, stride)))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (auto commit = dyn_cast<Tcgen05CommitArriveOp>(op)) {
          // A pair's commit (the others are arrivals by now).
          if (failed(emulatePairCommit(nb, commit, stride)))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (auto copy = dyn_cast<CopyGmemToSmemOp>(op);
                   copy && copy.getPartitioned()) {
          // The pair's first CTA (x index 0 in its cluster) copies both parts.
          Value leader = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::eq,
              arith::RemUIOp::create(nb, l, bxId, cx), indexConstant(nb, l, 0));
          Value lane = arith::RemUIOp::create(
              nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
          if (failed(emulatePartitionedCopy(nb, copy, lane, leader, stride)))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        } else if (isa<NVVM::MembarOp>(op)) {
          op->erase(); // host atomics are already sequentially consistent
          return WalkResult::skip();
        } else if (isa<NVVM::NanosleepOp>(op)) {
          func::CallOp::create(nb, l, yield, ValueRange());
          op->erase();
          return WalkResult::skip();
        }
        // wgmma was computed when issued; the register budget is the host's;
        // the host has no L2 to prefetch into; launches run one after
        // another, so a kernel has nothing to wait for or to release.
        if (isa<WgmmaWaitOp, SetMaxRegistersOp, AsyncPrefetchOp,
                GriddepcontrolWaitOp, GriddepcontrolLaunchDependentsOp>(op)) {
          if (auto wait = dyn_cast<WgmmaWaitOp>(op); wait && checks) {
            Value lane = arith::RemUIOp::create(
                nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
            onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
              callHostRuntime(cb, op, "mgpuEmuCheckWgmmaWait",
                              {getI64(cb, l, wait.getPending())});
            });
          }
          op->erase();
          return WalkResult::skip();
        }
        if (isa<BarrierInitOp, BarrierArriveOp, BarrierWaitOp, CopyGmemToSmemOp,
                CopySmemToGmemOp, CommitSmemOp, CommitSmemToGmemGroupOp,
                WaitSmemToGmemOp, WaitGmemToSmemOp, SemaphoreWaitOp,
                GlobalTimerOp>(op)) {
          Value lane = arith::RemUIOp::create(
              nb, l, tid, indexConstant(nb, l, kWarpgroupLanes));
          if (failed(emulatePrimitive(nb, op, lane)))
            return WalkResult::interrupt();
          erased.insert(op);
          op->erase();
          return WalkResult::skip();
        }
        if (replacement) {
          op->getResult(0).replaceAllUsesWith(replacement);
          op->erase();
          return WalkResult::skip();
        }
        // debug_print: C printf, by --mgpu-host-printf.
        if (op->getDialect() && !isa<gpu::PrintfOp>(op) &&
            isa<gpu::GPUDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect>(
                op->getDialect()))
          return op->emitOpError() << "cannot be emulated on the host";
        setHostTypes(op);
        return WalkResult::advance();
      };
      if (rewrite().wasInterrupted())
        return failure();
    }
    resolveDeferredResults(mmaResults, [&](OpBuilder &nb, Operation *op) {
      return where(nb, op);
    });
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
    Emulator emulator{module, *yield, createEmuBarrier(module, *yield)};
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
