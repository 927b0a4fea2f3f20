//===- EmulateLaneOps.cpp - One CUDA thread's ops on the host -------------===//
//
// See the header. Each op keeps its GPU semantics: ids are the thread's,
// barriers count on the runtime's barrier words (a shuffle or an mma.sync
// goes through the exchange words between two warp barriers), cluster ops
// reach the peer CTAs' slices of the host shared memory, and the
// kernel-level ops call the runtime (EmulatePrimitives.h).
//
//===----------------------------------------------------------------------===//

#include "EmulateLaneOps.h"
#include "ClusterMemory.h"
#include "EmulateSync.h"
#include "MmaSyncEmulation.h"
#include "PairOnHost.h"

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

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::emulation;

Value LocationStrings::get(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  LLVM::GlobalOp &global = globals[loc];
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
void LaneOpRewriter::checkAccess(OpBuilder &b, Operation *op) {
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
  callHostRuntime(b, op,
                  peerAccesses.contains(op)     ? "mgpuEmuCheckPeerAccess"
                  : globalAccesses.contains(op) ? "mgpuEmuCheckGlobalAccess"
                                                : "mgpuEmuCheckAccess",
                  {getElementPointer(b, loc, memref, indices),
                   getI64(b, loc, count * ((bits + 7) / 8)),
                   getI64(b, loc, write), where(b, op)});
}

void LaneOpRewriter::callBarrier(OpBuilder &nb, Location l, Value slot,
                                 Value count, Value checked) {
  if (!checked)
    checked = arith::ConstantIntOp::create(nb, l, -1, 64);
  func::CallOp::create(nb, l, barrier,
                       ValueRange{sync,
                                  arith::AddIOp::create(nb, l, slotBase, slot),
                                  count, checked});
}

/// A CTA barrier the checker sees (shuffles' warp barriers are not: the
/// checker does not compare a warp with itself).
void LaneOpRewriter::callCheckedBarrier(OpBuilder &nb, Operation *op,
                                        Value slot, Value count) {
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
}

/// The slot of the cluster's first CTA: the group's CTAs have slots in
/// x-innermost order from the group's first (EmuScheduler.cpp), and the
/// cluster's first CTA is this one less its place in the cluster.
Value LaneOpRewriter::clusterLeaderSlot(OpBuilder &nb, Location l) {
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
}

LaneOpRewriter::LaneOpRewriter(const LaneValues &values, func::FuncOp yield,
                               func::FuncOp barrier, int64_t checks,
                               LocationStrings &strings,
                               ArrayRef<Operation *> ops, bool globalChecks)
    : LaneValues(values), yield(yield), barrier(barrier), checks(checks),
      strings(strings) {
  auto isShared = [](Value memref) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    auto space =
        type ? dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())
             : nullptr;
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  };
  // A view of a peer CTA's buffer (generic addresses, no memory space).
  auto isPeer = [](Value memref) {
    while (Operation *def = memref.getDefiningOp()) {
      if (isa<ClusterRefOp>(def))
        return true;
      if (!isa<memref::SubViewOp, memref::CastOp, memref::TransposeOp,
               memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
        return false;
      memref = def->getOperand(0);
    }
    return false;
  };
  if (!checks)
    return;
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
    if (memref && isPeer(memref)) {
      sharedAccesses.insert(op);
      peerAccesses.insert(op);
    } else if (memref && globalChecks && !isShared(memref)) {
      globalAccesses.insert(op);
    }
  }
}

/// The thread's ids and sizes, and a semaphore's value: what replaces the
/// result of `op` (null for other ops).
Value LaneOpRewriter::getThreadValue(OpBuilder &nb, Operation *op) {
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
    replacement =
        memref::AtomicRMWOp::create(nb, l, arith::AtomicRMWKind::ori,
                                    arith::ConstantIntOp::create(nb, l, 0, 32),
                                    read.getSem(), read.getIndices());
  else if (auto id = dyn_cast<gpu::ClusterBlockIdOp>(op))
    replacement =
        arith::RemUIOp::create(nb, l, pick(id.getDimension(), bxId, byId, bzId),
                               pick(id.getDimension(), cx, cy, cz));
  else if (auto id = dyn_cast<gpu::ClusterIdOp>(op))
    replacement =
        arith::DivUIOp::create(nb, l, pick(id.getDimension(), bxId, byId, bzId),
                               pick(id.getDimension(), cx, cy, cz));
  return replacement;
}

/// Shared memory, barriers, cluster ops and shuffles; std::nullopt for
/// other ops.
std::optional<WalkResult> LaneOpRewriter::rewriteMemoryAndSync(OpBuilder &nb,
                                                               Operation *op) {
  Location l = op->getLoc();
  if (isa<gpu::DynamicSharedMemoryOp>(op)) {
    // Views into this CTA's slice of the host buffer.
    for (Operation *user : llvm::make_early_inc_range(op->getUsers())) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view)
        return WalkResult(
            user->emitOpError()
            << "cannot be emulated: dynamic shared memory is only "
               "used through memref.view");
      OpBuilder vb(view);
      Value shift = arith::AddIOp::create(vb, l, view.getByteShift(), ctaBase);
      auto hostView = memref::ViewOp::create(
          vb, l, cast<MemRefType>(toHostType(view.getType())), smem, shift,
          view.getSizes());
      view.replaceAllUsesWith(hostView.getResult());
      erased.insert(view);
      view.erase();
    }
    op->erase();
    return WalkResult::skip();
  } else if (sharedAccesses.contains(op) || globalAccesses.contains(op)) {
    checkAccess(nb, op);
  } else if (isa<gpu::BarrierOp>(op)) {
    callCheckedBarrier(nb, op, indexConstant(nb, l, 0), perCta);
    op->erase();
    return WalkResult::skip();
  } else if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
    Value id = bar.getBarrierId()
                   ? Value(arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                      bar.getBarrierId()))
                   : indexConstant(nb, l, 0);
    Value count = bar.getNumberOfThreads()
                      ? Value(arith::IndexCastOp::create(
                            nb, l, nb.getIndexType(), bar.getNumberOfThreads()))
                      : perCta;
    callCheckedBarrier(nb, op, id, count);
    op->erase();
    return WalkResult::skip();
  } else if (isa<WarpgroupBarrierOp>(op)) {
    // The warpgroup's named barrier, as the GPU lowering's.
    Value width = indexConstant(nb, l, kWarpgroupLanes);
    Value id =
        arith::AddIOp::create(nb, l, arith::DivUIOp::create(nb, l, tid, width),
                              indexConstant(nb, l, 1));
    callCheckedBarrier(nb, op, id, width);
    op->erase();
    return WalkResult::skip();
  } else if (auto wait = dyn_cast<BarrierWaitOp>(op);
             wait && op->hasAttr(MGPUDialect::getWarpgroupUniformAttrName())) {
    // A Pallas thread's wait: its warpgroup's lanes see the phase complete
    // together, as the warps of a warpgroup stay close on the GPU: lane 0
    // waits between two meetings of the lanes (barriers the checks do not
    // see), the others then take the wait's ordering. Lanes waiting alone
    // could let the first one pass two phases of the barrier before the
    // others saw the first and leave them waiting for a parity that no
    // longer comes (copy, wait, copy, wait on one barrier).
    Value width = indexConstant(nb, l, kWarpgroupLanes);
    Value lane = arith::RemUIOp::create(nb, l, tid, width);
    Value id =
        arith::AddIOp::create(nb, l, arith::DivUIOp::create(nb, l, tid, width),
                              indexConstant(nb, l, 1));
    callBarrier(nb, l, id, width);
    LogicalResult waited = success();
    onLaneZero(nb, l, lane,
               [&](OpBuilder &lb) { waited = emulatePrimitive(lb, op, lane); });
    if (failed(waited))
      return WalkResult::interrupt();
    callBarrier(nb, l, id, width);
    if (checks) {
      Value storage = barrierStorage(wait.getBarrier());
      Value pointer = getElementPointer(nb, l, storage, wait.getIndex());
      Value parity =
          arith::ExtUIOp::create(nb, l, nb.getI64Type(), wait.getParity());
      callHostRuntime(nb, op, "mgpuEmuBarrierObserved", {pointer, parity});
    }
    erased.insert(op);
    op->erase();
    return WalkResult::skip();
  } else if (auto test = dyn_cast<BarrierTestOp>(op)) {
    FailureOr<Value> any =
        emulateBarrierTest(nb, test, tid, t, exchange, [&](Value id, Value n) {
          callCheckedBarrier(nb, op, id, n);
        });
    if (failed(any))
      return WalkResult::interrupt();
    test.getDone().replaceAllUsesWith(*any);
    erased.insert(op);
    op->erase();
    return WalkResult::skip();
  } else if (auto arrive = dyn_cast<BarrierArriveOp>(op);
             arrive && isa<ClusterBarrierType>(arrive.getBarrier().getType())) {
    if (failed(emulateClusterArrive(nb, arrive, tid, stride, {bxId, byId, bzId},
                                    {cx, cy, cz}, {groupX, groupY})))
      return WalkResult::interrupt();
    erased.insert(op);
    op->erase();
    return WalkResult::skip();
  } else if (auto ref = dyn_cast<ClusterRefOp>(op)) {
    // The peer's slice of the host shared memory (ClusterMemory.h).
    Value bytes = ref.getClusterDims()
                      ? emulatePeerBytes(nb, ref, stride, {bxId, byId, bzId},
                                         {cx, cy, cz}, {groupX, groupY})
                      : Value();
    Value peer = bytes ? viewInPeer(nb, l, ref.getSmem(), bytes) : Value();
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
    Value lane = arith::RemUIOp::create(nb, l, tid,
                                        indexConstant(nb, l, kWarpgroupLanes));
    LogicalResult stored = success();
    onLaneZero(nb, l, lane, [&](OpBuilder &lb) {
      // The checks see the peer's bytes written by the async proxy before
      // the arrival that publishes them.
      if (checks) {
        auto type = cast<MemRefType>(store.getSrc().getType());
        int64_t size =
            type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
        callHostRuntime(
            lb, op, "mgpuEmuCheckPeerAccess",
            {getElementPointer(lb, l, store.getDst()), getI64(lb, l, size),
             getI64(lb, l, int64_t(CheckedAccess::AsyncWrite)), where(lb, op)});
      }
      stored = storeToPeerOnHost(lb, store, store.getSrc(), store.getDst(),
                                 words, store.getIndex(), bytes,
                                 "mgpuEmuPeerBarrierArrive");
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
        arith::MulIOp::create(nb, l, cx, arith::MulIOp::create(nb, l, cy, cz)));
    callHostRuntime(
        nb, op, "mgpuHostClusterSync",
        {getElementPointer(nb, l, sync, at),
         arith::IndexCastOp::create(nb, l, nb.getI64Type(), threads),
         getLocationString(nb, op)});
    op->erase();
    return WalkResult::skip();
  } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    if (shuffle.getMode() != gpu::ShuffleMode::XOR)
      return WalkResult(op->emitOpError() << "cannot be emulated: only xor "
                                             "shuffles are");
    Value warpSlot = arith::AddIOp::create(
        nb, l, indexConstant(nb, l, kFirstWarpSlot),
        arith::DivUIOp::create(nb, l, tid, indexConstant(nb, l, 32)));
    memref::StoreOp::create(nb, l, toBits(nb, l, shuffle.getValue()), exchange,
                            t);
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
  }
  return std::nullopt;
}

/// mma.sync, cp.async, wgmma, tcgen05 and a pair's ops, fences and
/// sleeps; std::nullopt for other ops.
std::optional<WalkResult> LaneOpRewriter::rewriteMmaAndAsync(OpBuilder &nb,
                                                             Operation *op) {
  Location l = op->getLoc();
  if (auto mma = dyn_cast<MmaSyncOp>(op)) {
    // A warp-wide mma.sync: fragments exchanged like shuffles.
    Value laneInWarp =
        arith::RemUIOp::create(nb, l, tid, indexConstant(nb, l, 32));
    Value warpSlot = arith::AddIOp::create(
        nb, l, indexConstant(nb, l, kFirstWarpSlot),
        arith::DivUIOp::create(nb, l, tid, indexConstant(nb, l, 32)));
    emulateMmaSync(
        nb, mma, exchange, t, arith::SubIOp::create(nb, l, t, laneInWarp),
        laneInWarp,
        [&] { callBarrier(nb, l, warpSlot, indexConstant(nb, l, 32)); });
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
  } else if (isa<NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp>(op)) {
    op->erase(); // the copies above completed when they were issued
    return WalkResult::skip();
  } else if (auto mma = dyn_cast<WgmmaSharedOp>(op)) {
    Value lane = arith::RemUIOp::create(nb, l, tid,
                                        indexConstant(nb, l, kWarpgroupLanes));
    if (checks)
      onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
        emitWgmmaReadChecks(cb, mma, smem, ctaBase, where(cb, op));
      });
    // Computed at the wait that completes its group (WgmmaDeferral.h).
    Value result =
        issueDeferredWgmma(nb, mma, smem, ctaBase, lane, where(nb, op));
    mma.getResult().replaceAllUsesWith(result);
    mmaResults.push_back(result);
    op->erase();
    return WalkResult::skip();
  } else if (auto mma = dyn_cast<WgmmaRegisterAOp>(op)) {
    // a from the registers of the lane's quad, traded as mma.sync's are.
    Value lane = arith::RemUIOp::create(nb, l, tid,
                                        indexConstant(nb, l, kWarpgroupLanes));
    Value laneInWarp =
        arith::RemUIOp::create(nb, l, tid, indexConstant(nb, l, 32));
    Value warpSlot = arith::AddIOp::create(
        nb, l, indexConstant(nb, l, kFirstWarpSlot),
        arith::DivUIOp::create(nb, l, tid, indexConstant(nb, l, 32)));
    SmallVector<Value> aRows = exchangeRegisterA(
        nb, l, mma.getA(), exchange, t,
        arith::SubIOp::create(nb, l, t, laneInWarp), laneInWarp,
        [&] { callBarrier(nb, l, warpSlot, indexConstant(nb, l, 32)); });
    if (checks)
      onLaneZero(nb, l, lane, [&](OpBuilder &cb) {
        emitWgmmaReadChecks(cb, mma, smem, ctaBase, where(cb, op));
      });
    Value result = issueDeferredRegisterAWgmma(nb, mma, aRows, smem, ctaBase,
                                               lane, where(nb, op));
    mma.getResult().replaceAllUsesWith(result);
    mmaResults.push_back(result);
    op->erase();
    return WalkResult::skip();
  } else if (isa<WgmmaFenceOp, WgmmaCommitGroupOp, WgmmaWaitGroupOp,
                 NVVM::FenceProxyOp>(op)) {
    // Every lane keeps its own MMA groups in the runtime.
    if (isa<WgmmaCommitGroupOp>(op))
      callHostRuntime(nb, op, "mgpuEmuWgmmaCommit", {});
    else if (auto wait = dyn_cast<WgmmaWaitGroupOp>(op))
      callHostRuntime(nb, op, "mgpuEmuWgmmaWait",
                      {getI64(nb, l, wait.getPending())});
    if (checks) {
      if (isa<NVVM::FenceProxyOp>(op))
        callHostRuntime(nb, op, "mgpuEmuCheckFence", {});
      else if (isa<WgmmaCommitGroupOp>(op))
        // Each warp's part of an MMA completes at that warp's wait: the
        // first lane of every warp counts its groups and reports its waits.
        onLaneZero(nb, l,
                   arith::RemUIOp::create(nb, l, tid, indexConstant(nb, l, 32)),
                   [&](OpBuilder &cb) {
                     callHostRuntime(cb, op, "mgpuEmuCheckWgmmaCommit", {});
                   });
      else if (auto wait = dyn_cast<WgmmaWaitGroupOp>(op))
        onLaneZero(nb, l,
                   arith::RemUIOp::create(nb, l, tid, indexConstant(nb, l, 32)),
                   [&](OpBuilder &cb) {
                     callHostRuntime(cb, op, "mgpuEmuCheckWgmmaWait",
                                     {getI64(cb, l, wait.getPending())});
                   });
    }
    // Host threads see shared memory through one proxy.
    op->erase();
    return WalkResult::skip();
  } else if (isEmulatedTcgen05Op(op)) {
    if (failed(emulateTcgen05Op(nb, op, smem, tmemBase, stride, checks != 0)))
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
    Value lane = arith::RemUIOp::create(nb, l, tid,
                                        indexConstant(nb, l, kWarpgroupLanes));
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
  return std::nullopt;
}

WalkResult LaneOpRewriter::rewrite(Operation *op) {
  OpBuilder nb(op);
  Location l = op->getLoc();
  if (Value replacement = getThreadValue(nb, op)) {
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
    return WalkResult::skip();
  }
  if (std::optional<WalkResult> result = rewriteMemoryAndSync(nb, op))
    return *result;
  if (std::optional<WalkResult> result = rewriteMmaAndAsync(nb, op))
    return *result;
  // wgmma was computed when issued; the register budget is the host's;
  // the host has no L2 to prefetch into; launches run one after
  // another, so a kernel has nothing to wait for or to release.
  if (isa<WgmmaWaitOp>(op) || op->hasTrait<NoEffectOnHost>()) {
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
  // A multicast: its share's overwrite of the peers' buffers is checked
  // at its issue; the copy is emulated as every CTA's of the whole window.
  if (auto copy = dyn_cast<CopyGmemToSmemOp>(op);
      copy && checks && copy.getCollectiveAxes() && copy.getBarrier() &&
      !copy.getPartitioned())
    if (failed(emulateMulticastChecks(nb, copy, tid, stride, {bxId, byId, bzId},
                                      {cx, cy, cz}, {groupX, groupY})))
      return WalkResult::interrupt();
  if (isa<BarrierInitOp, BarrierArriveOp, BarrierWaitOp, CopyGmemToSmemOp,
          CopySmemToGmemOp, CommitSmemOp, CommitSmemToGmemGroupOp,
          WaitSmemToGmemOp, WaitGmemToSmemOp, SemaphoreSignalOp,
          SemaphoreWaitOp, GlobalTimerOp>(op)) {
    Value lane = arith::RemUIOp::create(nb, l, tid,
                                        indexConstant(nb, l, kWarpgroupLanes));
    if (failed(emulatePrimitive(nb, op, lane)))
      return WalkResult::interrupt();
    erased.insert(op);
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
}
