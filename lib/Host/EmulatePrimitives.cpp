//===- EmulatePrimitives.cpp - The emulator's kernel-level ops ------------===//
//
// The host code the GPU emulator (EmulateGPU.cpp) puts in place of one
// thread's kernel-level ops: TMA copies, barrier arrivals and waits, copies
// out and their groups, semaphores, cp.async, and the cluster ops that reach
// a peer CTA's slice of the emulated shared memory. Each keeps its real
// semantics through the host runtime (HostRuntime.cpp), so that the
// emulator sees what hardware would: copies land at waits, arrivals count.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/EmulatePrimitives.h"
#include "ClusterMemory.h"
#include "EmulateSync.h"

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Host/CapturedCall.h"
#include "mgpu/Host/EmulateHostSide.h"
#include "mgpu/Host/EmulatorChecks.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/HostTypes.h"
#include "mgpu/Host/Tcgen05Emulation.h"
#include "mgpu/Host/WgmmaDeferral.h"
#include "mgpu/Host/WgmmaEmulation.h"
#include "mgpu/KernelForm/CopyWindows.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
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

namespace mlir::mgpu::emulation {

/// One thread's cp.async, synchronously: element k of the chunk comes from
/// the source when k < srcElements, else it is zero.
void emulateAsyncCopy(OpBuilder &b, Location loc,
                      nvgpu::DeviceAsyncCopyOp copy) {
  Type element = cast<MemRefType>(copy.getDst().getType()).getElementType();
  Value count = indexConstant(b, loc, copy.getDstElements().getZExtValue());
  Value available = copy.getSrcElements() ? copy.getSrcElements() : count;
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0), count,
                                 indexConstant(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  auto shifted = [&](ValueRange indices) {
    SmallVector<Value> result(indices);
    result.back() = arith::AddIOp::create(b, loc, result.back(), k);
    return result;
  };
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, available);
  auto ifInside = scf::IfOp::create(b, loc, element, inside, true);
  b.setInsertionPointToStart(ifInside.thenBlock());
  scf::YieldOp::create(b, loc,
                       memref::LoadOp::create(b, loc, copy.getSrc(),
                                              shifted(copy.getSrcIndices()))
                           .getResult());
  b.setInsertionPointToStart(ifInside.elseBlock());
  scf::YieldOp::create(
      b, loc,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(element)).getResult());
  b.setInsertionPointAfter(ifInside);
  memref::StoreOp::create(b, loc, ifInside.getResult(0), copy.getDst(),
                          shifted(copy.getDstIndices()));
}

/// A scalar as i64 bits and back (for the shuffle exchange array).
Value toBits(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  unsigned bits = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type))
    v = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
  if (bits < 64)
    v = arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
  return v;
}
Value fromBits(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, v);
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits < 64)
    v = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), v);
  if (isa<FloatType>(type))
    v = arith::BitcastOp::create(b, loc, type, v);
  return v;
}

/// The host storage of a barrier array bound by --mgpu-lower-to-gpu (a cast
/// of its shared-memory words).
Value barrierStorage(Value barrier) {
  auto cast = barrier.getDefiningOp<UnrealizedConversionCastOp>();
  return cast ? cast.getInputs().front() : Value();
}

/// Calls `name` with a pointer to the global side of a window copy, a
/// pointer to its shared side and the window's description (rank, element
/// bytes, sizes, offsets, array extents, array strides), in a stack scope.
static void callWithWindow(OpBuilder &b, Operation *op, StringRef name,
                           ValueRange before, const GlobalWindow &window,
                           Value shared, ValueRange after) {
  Location loc = op->getLoc();
  auto sharedType = cast<MemRefType>(shared.getType());
  int64_t rank = sharedType.getRank();
  Value stack = LLVM::StackSaveOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  auto descType = MemRefType::get({2 + 4 * rank}, b.getI64Type());
  Value desc = memref::AllocaOp::create(b, loc, descType);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, window.base);
  SmallVector<Value> words = {
      getI64(b, loc, rank),
      getI64(b, loc, (sharedType.getElementTypeBitWidth() + 7) / 8)};
  auto asI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  };
  for (int64_t size : sharedType.getShape())
    words.push_back(getI64(b, loc, size));
  for (Value offset : window.offsets)
    words.push_back(asI64(offset));
  for (Value size : metadata.getSizes())
    words.push_back(asI64(size));
  for (Value stride : metadata.getStrides())
    words.push_back(asI64(stride));
  for (auto [i, word] : llvm::enumerate(words))
    memref::StoreOp::create(b, loc, word, desc, indexConstant(b, loc, i));
  SmallVector<Value> args(before);
  args.push_back(getElementPointer(b, loc, window.base));
  args.push_back(getElementPointer(b, loc, shared));
  args.push_back(getElementPointer(b, loc, desc));
  llvm::append_range(args, after);
  callHostRuntime(b, op, name, args);
  LLVM::StackRestoreOp::create(b, loc, stack);
}

/// The element type of a reduce-store as mgpuEmuReduceToGlobal knows it
/// (the types the verifier lets a reduction take).
static int64_t getEmuReductionType(Type element) {
  if (element.isF16())
    return 0;
  if (element.isBF16())
    return 1;
  if (element.isF32())
    return 2;
  if (element.isInteger(32))
    return 3;
  return 4; // i64
}

/// Runs `body` where `lane` (the lane in the warpgroup) is 0.
void onLaneZero(OpBuilder &b, Location loc, Value lane,
                function_ref<void(OpBuilder &)> body) {
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                      indexConstant(b, loc, 0));
  buildIfThen(b, loc, first, [&] { body(b); });
}

/// barrier_test (with its parity): every lane asks mgpuEmuBarrierTest,
/// where lane 0 may land a pending copy first (BarrierTest.cpp); then the
/// warpgroup ORs its lanes' answers between two meetings on its named
/// barrier (1 + warpgroup, 128 threads), as bar.red.or.pred does.
FailureOr<Value>
emulateBarrierTest(OpBuilder &b, BarrierTestOp test, Value tid, Value t,
                   Value exchange,
                   function_ref<void(Value id, Value count)> namedBarrier) {
  Location loc = test.getLoc();
  Value storage = barrierStorage(test.getBarrier());
  if (!storage || !test.getParity())
    return test.emitOpError() << "cannot be emulated: needs its barrier's "
                                 "storage and the parity of its phase";
  Value width = indexConstant(b, loc, kWarpgroupLanes);
  Value lane = arith::RemUIOp::create(b, loc, tid, width);
  Value pointer = getCheckedBarrier(b, test, storage, test.getIndex(),
                                    test.getBarrier().getType().getCount());
  Value parity =
      arith::ExtUIOp::create(b, loc, b.getI64Type(), test.getParity());
  Value first = arith::ExtUIOp::create(
      b, loc, b.getI64Type(),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                            indexConstant(b, loc, 0)));
  Value done = callHostRuntime(b, test, "mgpuEmuBarrierTest",
                               {pointer, parity, first}, b.getI64Type())
                   ->getResult(0);
  Value mine = arith::TruncIOp::create(b, loc, b.getI1Type(), done);
  Value id =
      arith::AddIOp::create(b, loc, arith::DivUIOp::create(b, loc, tid, width),
                            indexConstant(b, loc, 1));
  return emitWarpgroupOr(b, loc, mine, exchange, t, lane,
                         [&] { namedBarrier(id, width); });
}

/// The destination layout of copy `copy`: its tiling where its transforms
/// tile and swizzle it (std::nullopt: row-major); failure with a
/// diagnostic at the op for other transforms.
static FailureOr<std::optional<SwizzledTiling>>
getCopyTiling(CopyGmemToSmemOp copy) {
  ArrayAttr transforms = copy.getTransformsAttr();
  if (!transforms)
    return std::optional<SwizzledTiling>();
  FailureOr<SwizzledTiling> t =
      getSwizzledTiling(copy, "the destination", transforms,
                        cast<MemRefType>(copy.getDst().getType()));
  if (failed(t))
    return failure();
  return std::optional<SwizzledTiling>(*t);
}

/// Queues the copy of `window` into `dst` (laid out by `tiling`) on the
/// barrier word `pointer`, one of its `arrivals` (0: no arrival).
static void queueCopyIn(OpBuilder &b, CopyGmemToSmemOp copy, Value pointer,
                        Value arrivals, const GlobalWindow &window, Value dst,
                        const std::optional<SwizzledTiling> &tiling) {
  Location loc = copy.getLoc();
  if (tiling)
    callWithWindow(b, copy, "mgpuEmuCopyToSharedSwizzled", {pointer, arrivals},
                   window, dst,
                   {getI64(b, loc, tiling->rows), getI64(b, loc, tiling->cols),
                    getLocationString(b, copy)});
  else
    callWithWindow(b, copy, "mgpuEmuCopyToShared", {pointer, arrivals}, window,
                   dst, {getLocationString(b, copy)});
}

/// The emulator's kernel-level ops, with their real semantics (see
/// HostRuntime.cpp): copies in wait on their barrier until a thread waits
/// for it, copies out wait in their bulk group until it is waited for.
LogicalResult emulatePrimitive(OpBuilder &b, Operation *op, Value lane) {
  Location loc = op->getLoc();
  // The host word of barrier `at` of `barrier`, its index checked; null
  // where the barrier's storage is unknown.
  auto barrierAt = [&](TypedValue<BarrierLikeType> barrier, Value at) -> Value {
    Value storage = barrierStorage(barrier);
    return storage ? getCheckedBarrier(b, op, storage, at,
                                       barrier.getType().getCount())
                   : Value();
  };
  if (auto init = dyn_cast<BarrierInitOp>(op)) {
    Value storage = barrierStorage(init.getBarrier());
    if (!storage)
      return op->emitOpError() << "cannot be emulated: unknown barrier storage";
    callHostRuntime(b, op, "mgpuHostBarrierInit",
                    {getElementPointer(b, loc, storage),
                     getI64(b, loc, init.getBarrier().getType().getCount())});
    return success();
  }
  if (auto arrive = dyn_cast<BarrierArriveOp>(op)) {
    Value pointer = barrierAt(arrive.getBarrier(), arrive.getIndex());
    if (!pointer)
      return op->emitOpError() << "cannot be emulated: unknown barrier storage";
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      // A tcgen05 commit: the issuing thread's MMAs complete at the wait.
      if (op->hasAttr(kCommitsMmasAttrName))
        callHostRuntime(nb, op, "mgpuEmuCheckMmaCommit", {pointer});
      callHostRuntime(
          nb, op, "mgpuEmuBarrierArrive",
          {pointer,
           getI64(nb, loc, arrive.getBarrier().getType().getArrivals()),
           getLocationString(nb, op)});
    });
    return success();
  }
  if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
    Value pointer = barrierAt(wait.getBarrier(), wait.getIndex());
    if (!pointer || !wait.getParity())
      return op->emitOpError() << "cannot be emulated: needs its barrier's "
                                  "storage and the parity of its phase";
    Value parity =
        arith::ExtUIOp::create(b, loc, b.getI64Type(), wait.getParity());
    callHostRuntime(b, op, "mgpuEmuBarrierWait",
                    {pointer, parity, getLocationString(b, op)});
    return success();
  }
  if (auto copy = dyn_cast<CopyGmemToSmemOp>(op); copy && !copy.getBarrier()) {
    // A pre-Hopper cp.async copy: one copy group of the Pallas thread, which
    // lands by the wait_gmem_to_smem that covers it (EmuCpAsync.cpp).
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      GlobalWindow window =
          resolveGlobalWindow(nb, loc, copy.getSrc(), copy.getMixedOffsets());
      callWithWindow(nb, op, "mgpuEmuCpAsyncCopy", {}, window, copy.getDst(),
                     {getLocationString(nb, op)});
    });
    return success();
  }
  if (auto wait = dyn_cast<WaitGmemToSmemOp>(op)) {
    // Lane 0 issued the copies and lands them; the warpgroup barrier the
    // distribution put after the wait lets the other lanes read them.
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      callHostRuntime(
          nb, op, "mgpuEmuCpAsyncWait",
          {getI64(nb, loc, wait.getPending()), getLocationString(nb, op)});
    });
    return success();
  }
  if (auto copy = dyn_cast<CopyGmemToSmemOp>(op)) {
    Value pointer = barrierAt(copy.getBarrier(), copy.getBarrierIndex());
    if (!pointer)
      return op->emitOpError() << "cannot be emulated: unknown barrier storage";
    FailureOr<std::optional<SwizzledTiling>> tiling = getCopyTiling(copy);
    if (failed(tiling))
      return failure();
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      GlobalWindow window =
          resolveGlobalWindow(nb, loc, copy.getSrc(), copy.getMixedOffsets());
      queueCopyIn(nb, copy, pointer,
                  getI64(nb, loc, copy.getBarrier().getType().getArrivals()),
                  window, copy.getDst(), *tiling);
    });
    return success();
  }
  if (auto copy = dyn_cast<CopySmemToGmemOp>(op)) {
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      GlobalWindow window =
          resolveGlobalWindow(nb, loc, copy.getDst(), copy.getMixedOffsets());
      Value commit = getI64(nb, loc, copy.getCommitGroup());
      if (ArrayAttr transforms = copy.getTransformsAttr()) {
        // Verified: a tiling the copy reads through.
        SwizzledTiling tiling =
            *getSwizzledTiling(copy, "the source", transforms,
                               cast<MemRefType>(copy.getSrc().getType()));
        std::optional<TmaReduction> kind = copy.getReduction();
        auto elementType =
            cast<MemRefType>(copy.getSrc().getType()).getElementType();
        callWithWindow(
            nb, op, "mgpuEmuCopyToGlobalTiled", {}, window, copy.getSrc(),
            {commit, getI64(nb, loc, kind ? static_cast<int64_t>(*kind) : -1),
             getI64(nb, loc, kind ? getEmuReductionType(elementType) : 0),
             getI64(nb, loc, tiling.rows), getI64(nb, loc, tiling.cols),
             getLocationString(nb, op)});
      } else if (std::optional<TmaReduction> kind = copy.getReduction())
        callWithWindow(nb, op, "mgpuEmuReduceToGlobal", {}, window,
                       copy.getSrc(),
                       {commit, getI64(nb, loc, static_cast<int64_t>(*kind)),
                        getI64(nb, loc,
                               getEmuReductionType(
                                   cast<MemRefType>(copy.getSrc().getType())
                                       .getElementType())),
                        getLocationString(nb, op)});
      else
        callWithWindow(nb, op, "mgpuEmuCopyToGlobal", {}, window, copy.getSrc(),
                       {commit, getLocationString(nb, op)});
    });
    return success();
  }
  if (isa<CommitSmemToGmemGroupOp>(op)) {
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      callHostRuntime(nb, op, "mgpuEmuCommitCopiesToGlobal", {});
    });
    return success();
  }
  if (isa<CommitSmemOp>(op)) {
    // The emulator's copies read shared memory when they are issued; the
    // checker counts the fence (an opaque call also keeps the stores
    // before it in place).
    callHostRuntime(b, op, "mgpuEmuCheckFence", {});
    return success();
  }
  if (auto wait = dyn_cast<WaitSmemToGmemOp>(op)) {
    onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
      callHostRuntime(nb, op, "mgpuEmuWaitCopiesToGlobal",
                      {getI64(nb, loc, wait.getPending()),
                       getI64(nb, loc, wait.getReadOnly())});
    });
    return success();
  }
  // The profiler's clock: the host's steady clock (ProfileTrace.cpp).
  if (auto timer = dyn_cast<GlobalTimerOp>(op)) {
    Operation *now =
        callHostRuntime(b, op, "mgpuHostClockNs", {}, b.getI64Type());
    timer.getResult().replaceAllUsesWith(now->getResult(0));
    return success();
  }
  // Run by each lane that reaches it (lane 0 of a warpgroup, every lane of
  // a per-lane launch): an atomic add, which releases on the host.
  // The checks of global memory order the signalling CTA's accesses before
  // the waiting CTA's (EmuGlobalChecks.cpp).
  if (auto signal = dyn_cast<SemaphoreSignalOp>(op)) {
    callHostRuntime(
        b, op, "mgpuEmuCheckSemaphoreSignal",
        {getCheckedElementPointer(b, loc, signal.getSem(), signal.getIndices()),
         signal.getValue()});
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                signal.getValue(), signal.getSem(),
                                signal.getIndices());
    return success();
  }
  if (auto wait = dyn_cast<SemaphoreWaitOp>(op)) {
    Value pointer =
        getCheckedElementPointer(b, loc, wait.getSem(), wait.getIndices());
    callHostRuntime(b, op,
                    wait.getDecrement() ? "mgpuHostSemaphoreWait"
                                        : "mgpuHostSemaphoreWaitNoDecrement",
                    {pointer, wait.getValue(), getLocationString(b, op)});
    callHostRuntime(
        b, op, "mgpuEmuCheckSemaphoreWaited",
        {pointer, wait.getValue(), getI64(b, loc, !wait.getDecrement())});
    return success();
  }
  return success();
}

/// The slots from this CTA's to that of the CTA at `ctas` along cluster
/// dimensions `dims` (its index in each), in its group: the group's CTAs
/// have slots in x-innermost order from the group's first (EmuScheduler.cpp,
/// groups of `group` CTAs).
static Value getSlotsTo(OpBuilder &b, Location loc, ArrayRef<int64_t> dims,
                        ValueRange ctas, ArrayRef<Value> block,
                        ArrayRef<Value> sizes, ArrayRef<Value> group) {
  // Slots between neighbours along each dimension of the group.
  Value groupStrides[3] = {indexConstant(b, loc, 1), group[0],
                           arith::MulIOp::create(b, loc, group[0], group[1])};
  Value slots = indexConstant(b, loc, 0);
  for (auto [d, index] : llvm::zip(dims, ctas)) {
    Value mine = arith::RemUIOp::create(b, loc, block[d], sizes[d]);
    slots = arith::AddIOp::create(
        b, loc, slots,
        arith::MulIOp::create(b, loc,
                              arith::SubIOp::create(b, loc, index, mine),
                              groupStrides[d]));
  }
  return slots;
}

/// Runs `body` for every CTA of this CTA's group along cluster dimensions
/// `dims`, with the bytes from this CTA's slice of the host shared memory
/// to that CTA's and whether it is this CTA. The group's CTAs have slots in
/// x-innermost order from the group's first (EmuScheduler.cpp, groups of
/// `group` CTAs): a peer's memory is this CTA's at a whole number of slot
/// strides away.
static void forEachCtaAlong(
    OpBuilder &b, Location loc, ArrayRef<int64_t> dims, Value stride,
    ArrayRef<Value> block, ArrayRef<Value> sizes, ArrayRef<Value> group,
    function_ref<void(OpBuilder &, Location, Value bytes, Value isSelf)> body) {
  SmallVector<Value> lower, upper, steps;
  for (int64_t d : dims) {
    lower.push_back(indexConstant(b, loc, 0));
    upper.push_back(sizes[d]);
    steps.push_back(indexConstant(b, loc, 1));
  }
  scf::buildLoopNest(
      b, loc, lower, upper, steps,
      [&](OpBuilder &lb, Location l, ValueRange ivs) {
        Value slots = getSlotsTo(lb, l, dims, ivs, block, sizes, group);
        Value isSelf = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq,
                                             slots, indexConstant(lb, l, 0));
        body(lb, l, arith::MulIOp::create(lb, l, slots, stride), isSelf);
      });
}

/// An arrival on a cluster barrier: lane 0 arrives on the barrier of every
/// CTA of its group.
LogicalResult emulateClusterArrive(OpBuilder &b, BarrierArriveOp arrive,
                                   Value tid, Value stride,
                                   ArrayRef<Value> block, ArrayRef<Value> sizes,
                                   ArrayRef<Value> group) {
  Location loc = arrive.getLoc();
  auto view =
      barrierStorage(arrive.getBarrier())
          ? barrierStorage(arrive.getBarrier()).getDefiningOp<memref::ViewOp>()
          : memref::ViewOp();
  std::optional<ArrayRef<int64_t>> dims = arrive.getClusterDims();
  if (!view || !dims)
    return arrive.emitOpError() << "cannot be emulated: needs its cluster "
                                   "barrier's storage and its cluster_dims";
  BarrierLikeType type = arrive.getBarrier().getType();
  Value lane = arith::RemUIOp::create(b, loc, tid,
                                      indexConstant(b, loc, kWarpgroupLanes));
  onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
    forEachCtaAlong(
        nb, loc, *dims, stride, block, sizes, group,
        [&](OpBuilder &lb, Location l, Value bytes, Value isSelf) {
          Value peer = memref::ViewOp::create(
              lb, l, view.getType(), view.getSource(),
              arith::AddIOp::create(lb, l, view.getByteShift(), bytes),
              view.getSizes());
          Value word = getCheckedBarrier(lb, arrive, peer, arrive.getIndex(),
                                         type.getCount());
          // Checked arrivals, so that a thread waiting on the barrier, in
          // this CTA or a peer, is ordered after what the arriving thread
          // did (its wgmma_wait before releasing a slot).
          auto self = scf::IfOp::create(lb, l, isSelf, /*withElse=*/true);
          OpBuilder::InsertionGuard guard(lb);
          for (bool other : {false, true}) {
            lb.setInsertionPointToStart(other ? self.elseBlock()
                                              : self.thenBlock());
            callHostRuntime(lb, arrive,
                            other ? "mgpuEmuPeerBarrierArrive"
                                  : "mgpuEmuBarrierArrive",
                            {word, getI64(lb, l, type.getArrivals()),
                             getLocationString(lb, arrive)});
          }
        });
  });
  return success();
}

LogicalResult emulateMulticastChecks(OpBuilder &b, CopyGmemToSmemOp copy,
                                     Value tid, Value stride,
                                     ArrayRef<Value> block,
                                     ArrayRef<Value> sizes,
                                     ArrayRef<Value> group) {
  Location loc = copy.getLoc();
  std::optional<ArrayRef<int64_t>> dims = copy.getClusterDims();
  if (!dims)
    return copy.emitOpError() << "cannot be emulated: a multicast needs its "
                                 "cluster_dims (run --mgpu-form-launches)";
  // The whole buffer: every CTA's share lands in it, and the release that
  // lets this CTA write its share is the buffer's.
  auto dstType = cast<MemRefType>(copy.getDst().getType());
  int64_t bytes =
      dstType.getNumElements() * ((dstType.getElementTypeBitWidth() + 7) / 8);
  Value lane = arith::RemUIOp::create(b, loc, tid,
                                      indexConstant(b, loc, kWarpgroupLanes));
  bool viewed = true;
  onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
    forEachCtaAlong(
        nb, loc, *dims, stride, block, sizes, group,
        [&](OpBuilder &lb, Location l, Value peerBytes, Value isSelf) {
          Value isPeer = arith::XOrIOp::create(
              lb, l, isSelf, arith::ConstantIntOp::create(lb, l, 1, 1));
          buildIfThen(lb, l, isPeer, [&] {
            Value peerDst = viewInPeer(lb, l, copy.getDst(), peerBytes);
            if (!peerDst) {
              viewed = false;
              return;
            }
            callHostRuntime(lb, copy, "mgpuEmuCheckMulticastShare",
                            {getElementPointer(lb, l, peerDst),
                             getI64(lb, l, bytes),
                             getLocationString(lb, copy)});
          });
        });
  });
  if (!viewed)
    return copy.emitOpError() << "cannot be emulated: its buffer is not a "
                                 "view of shared memory";
  return success();
}

LogicalResult emulatePartitionedCopy(OpBuilder &b, CopyGmemToSmemOp copy,
                                     Value lane, Value leader,
                                     Value peerBytes) {
  Location loc = copy.getLoc();
  Value storage = barrierStorage(copy.getBarrier());
  if (!storage)
    return copy.emitOpError() << "cannot be emulated: unknown barrier storage";
  FailureOr<std::optional<SwizzledTiling>> tiling = getCopyTiling(copy);
  if (failed(tiling))
    return failure();
  // Each CTA of the pair copies its part into its own buffer; both parts
  // complete on the first CTA's barrier (the peer's is `peerBytes` back).
  Value shift = arith::SelectOp::create(
      b, loc, leader, indexConstant(b, loc, 0),
      arith::SubIOp::create(b, loc, indexConstant(b, loc, 0), peerBytes));
  Value firstStorage = viewInPeer(b, loc, storage, shift);
  if (!firstStorage)
    return copy.emitOpError() << "cannot be emulated: its barrier is not a "
                                 "view of shared memory";
  Value pointer =
      getCheckedBarrier(b, copy, firstStorage, copy.getBarrierIndex(),
                        copy.getBarrier().getType().getCount());
  int64_t dim = *copy.getPartitioned();
  auto dstType = cast<MemRefType>(copy.getDst().getType());
  onLaneZero(b, loc, lane, [&](OpBuilder &nb) {
    SmallVector<OpFoldResult> at = copy.getMixedOffsets();
    if (at.empty())
      at.assign(dstType.getRank(), nb.getIndexAttr(0));
    Value part = arith::SelectOp::create(
        nb, loc, leader, indexConstant(nb, loc, 0),
        indexConstant(nb, loc, dstType.getDimSize(dim)));
    at[dim] = getAsOpFoldResult(arith::AddIOp::create(
        nb, loc, getValueOrCreateConstantIndexOp(nb, loc, at[dim]), part));
    GlobalWindow window = resolveGlobalWindow(nb, loc, copy.getSrc(), at);
    // The first CTA's part: minus the barrier's arrivals (its arrival waits
    // for the peer's part); the peer's: 0 (HostRuntime.cpp's queueCopyIn).
    Value arrivals = arith::SelectOp::create(
        nb, loc, leader,
        getI64(nb, loc, -copy.getBarrier().getType().getArrivals()),
        getI64(nb, loc, 0));
    queueCopyIn(nb, copy, pointer, arrivals, window, copy.getDst(), *tiling);
  });
  return success();
}

/// The bytes from this CTA's slice of the host shared memory to that of
/// the CTA `ref` names: its slot less this CTA's (slots as in
/// emulateClusterArrive) times the slice stride.
Value emulatePeerBytes(OpBuilder &b, ClusterRefOp ref, Value stride,
                       ArrayRef<Value> block, ArrayRef<Value> sizes,
                       ArrayRef<Value> group) {
  Location loc = ref.getLoc();
  Value slots = getSlotsTo(b, loc, *ref.getClusterDims(), ref.getCtas(), block,
                           sizes, group);
  return arith::MulIOp::create(b, loc, slots, stride);
}

} // namespace mlir::mgpu::emulation
