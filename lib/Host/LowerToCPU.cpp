//===- LowerToCPU.cpp - --mgpu-lower-to-cpu (interpret mode) --------------===//
//
// Runs mgpu.launch ops (the launch form, --mgpu-form-launches) on the host.
// A launch's CTAs run in grid order (last axis innermost, cluster axes
// after the grid's), each running its Pallas threads; the body is inlined
// once, its arguments bound to loop indices, between a stack save and
// restore so that its allocas do not grow the stack with the grid.
//
// Global scratch is allocated once and zeroed. A CTA's shared scratch is a
// slice of one host arena at the offsets the launch planned, poisoned when
// the CTA starts (the GPU's is undefined) but for its barriers (a zero
// word is a barrier in phase 0). Kernel-level ops and
// semaphores become host code (PrimitivesToCPU).
//
// CTAs run one after another and their Pallas threads too, unless they may
// wait for each other: the Pallas threads of a CTA that waits on a barrier
// run on their own host threads (an OpenMP team per CTA), a launch with
// cluster ops (cluster_sync, cluster barriers) runs its clusters one after
// another, every Pallas thread of the cluster's CTAs on its own host
// thread, and a launch that waits on a semaphore runs every Pallas thread
// of every CTA on its own host thread. A cluster_sync is one arrival on a host
// barrier word of its cluster, counting every Pallas thread of the cluster, and
// a wait for that phase (mgpuHostClusterSync); an arrival on a cluster barrier
// is one on the barrier in each CTA of its group, found in the arena slices of
// the cluster's CTAs; so clusters give the GPU's numbers whatever the host
// threads' order. Multicast copies are plain copies of the whole window.
//
//===----------------------------------------------------------------------===//

#include "ClusterMemory.h"
#include "PairOnHost.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/HostThreads.h"
#include "mgpu/Host/HostTypes.h"
#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/KernelForm/LaunchForm.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOCPU
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The ops that need the CTAs of a cluster to run at the same time.
bool isClusterOp(Operation *op) {
  if (auto arrive = dyn_cast<BarrierArriveOp>(op))
    return isa<ClusterBarrierType>(arrive.getBarrier().getType());
  if (auto wait = dyn_cast<BarrierWaitOp>(op))
    return isa<ClusterBarrierType>(wait.getBarrier().getType());
  return isa<ClusterSyncOp, ClusterRefOp, AsyncStoreSmemOp>(op) || isPairOp(op);
}

bool waitsOn(Operation *op, function_ref<bool(Operation *)> isWait) {
  return op
      ->walk([&](Operation *inner) {
        return isWait(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Lowers one launch.
class LaunchLowering {
public:
  LaunchLowering(LaunchOp launch, bool smemLayouts)
      : launch(launch), b(launch), loc(launch.getLoc()),
        smemLayouts(smemLayouts),
        smemBytes(llvm::alignTo(launch.getSharedMemoryBytes(),
                                TargetInfo::kSharedAlignment)),
        arenaBytes(smemBytes +
                   getTmemHostBytes(launch.getSharedScratchTypes())) {}

  LogicalResult lower();

private:
  /// Host threads one synchronizing launch may start in interpret mode: far
  /// more than any test needs, few enough that thread creation cannot fail.
  static constexpr int64_t kMaxHostThreads = 1024;

  LaunchOp launch;
  OpBuilder b;
  Location loc;
  bool smemLayouts;
  /// A CTA's slice of the arena: its shared memory, then its tensor memory
  /// (TMEM scratch at 512 bytes per column).
  int64_t smemBytes;
  int64_t arenaBytes;
  /// The body's arguments that are the same for every thread: scalars,
  /// arrays and global scratch (the shared scratch is per CTA).
  SmallVector<Value> common;
  SmallVector<Value> toFree;
  /// cluster_ref results (host views of a peer's buffer) and their bytes
  /// from the viewing CTA's in the arena.
  DenseMap<Value, Value> peerOffsets;
  /// The host values that replaced the results of lowered cluster_refs: a
  /// later op of the body, cloned after a top-level cluster_ref was
  /// rewritten, must map its operand to these, not to the erased result.
  DenseMap<Value, Value> replacedResults;
  /// Whether the body's cluster ops could be lowered.
  LogicalResult status = success();
  /// Where a Pallas thread's cluster meets: the host barrier word of its
  /// cluster_syncs (a memref<?xi64> and the index of the cluster's word)
  /// and the Pallas threads of the cluster, which it counts.
  struct ClusterContext {
    Value words, index;
    int64_t threads;
  };

  int64_t clusterCtas() {
    int64_t ctas = 1;
    for (int64_t size : launch.getClusterShape())
      ctas *= size;
    return ctas;
  }

  /// An arrival on a cluster barrier of the CTA at `clusterIds`: one on
  /// the barrier of that index in each CTA of its group, the same view of
  /// the arena whole CTA slices away (CTA k of a cluster, k linear in the
  /// cluster indices with the last innermost, has the slice k CTAs after
  /// the cluster's first).
  LogicalResult lowerClusterArrive(BarrierArriveOp arrive,
                                   ValueRange clusterIds) {
    auto cast = arrive.getBarrier().getDefiningOp<UnrealizedConversionCastOp>();
    auto view = cast ? cast.getInputs().front().getDefiningOp<memref::ViewOp>()
                     : memref::ViewOp();
    std::optional<ArrayRef<int64_t>> dims = arrive.getClusterDims();
    if (!view || !dims)
      return arrive.emitOpError() << "on a cluster barrier needs the "
                                     "barrier's storage and its cluster_dims";
    OpBuilder ab(arrive);
    Location l = arrive.getLoc();
    ArrayRef<int64_t> shape = launch.getClusterShape();
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];
    SmallVector<Value> lower, upper, steps;
    for (int64_t d : *dims) {
      lower.push_back(constant(ab, 0));
      upper.push_back(constant(ab, shape[d]));
      steps.push_back(constant(ab, 1));
    }
    BarrierLikeType type = arrive.getBarrier().getType();
    scf::buildLoopNest(
        ab, l, lower, upper, steps,
        [&](OpBuilder &lb, Location, ValueRange ivs) {
          Value ctas = constant(lb, 0);
          for (auto [d, iv] : llvm::zip(*dims, ivs))
            ctas = arith::AddIOp::create(
                lb, l, ctas,
                arith::MulIOp::create(
                    lb, l, arith::SubIOp::create(lb, l, iv, clusterIds[d]),
                    constant(lb, strides[d])));
          Value shift = arith::AddIOp::create(
              lb, l, view.getByteShift(),
              arith::MulIOp::create(lb, l, ctas, constant(lb, arenaBytes)));
          Value peer = memref::ViewOp::create(
              lb, l, view.getType(), view.getSource(), shift, view.getSizes());
          Value word = getCheckedBarrier(lb, arrive, peer, arrive.getIndex(),
                                         type.getCount());
          arriveOnHostBarrier(lb, arrive, word, type.getArrivals());
        });
    arrive.erase();
    return success();
  }

  /// The bytes from the CTA at `clusterIds` to the one `ref` names, in the
  /// arena (CTA slices in the order lowerClusterArrive describes).
  Value peerBytes(OpBuilder &rb, ClusterRefOp ref, ValueRange clusterIds) {
    ArrayRef<int64_t> shape = launch.getClusterShape();
    Value ctas = constant(rb, 0);
    for (auto [d, index] : llvm::zip(*ref.getClusterDims(), ref.getCtas())) {
      int64_t stride = 1;
      for (int64_t inner = d + 1; inner < static_cast<int64_t>(shape.size());
           ++inner)
        stride *= shape[inner];
      ctas = arith::AddIOp::create(
          rb, loc, ctas,
          arith::MulIOp::create(
              rb, loc, arith::SubIOp::create(rb, loc, index, clusterIds[d]),
              constant(rb, stride)));
    }
    return arith::MulIOp::create(rb, loc, ctas, constant(rb, arenaBytes));
  }

  /// cluster_ref: the same views of the peer's arena slice. Each result is
  /// remembered with its bytes from this CTA for the async_store_smem ops
  /// that copy into it.
  LogicalResult lowerClusterRef(ClusterRefOp ref, ValueRange clusterIds) {
    if (!ref.getClusterDims())
      return ref.emitOpError() << "needs its cluster_dims";
    OpBuilder rb(ref);
    Value bytes = peerBytes(rb, ref, clusterIds);
    Value peer = viewInPeer(rb, ref.getLoc(), ref.getSmem(), bytes);
    if (!peer)
      return ref.emitOpError() << "cannot run in interpret mode: its buffer is "
                                  "not a view of the CTA's shared scratch";
    Value cast = memref::CastOp::create(rb, ref.getLoc(),
                                        ref.getResult().getType(), peer);
    ref.getResult().replaceAllUsesWith(cast);
    replacedResults[ref.getResult()] = cast;
    peerOffsets[cast] = bytes;
    ref.erase();
    return success();
  }

  /// async_store_smem into a cluster_ref's result: a copy, then an arrival
  /// on the peer's barrier.
  LogicalResult lowerAsyncStore(AsyncStoreSmemOp store) {
    Value bytes = peerOffsets.lookup(store.getDst());
    auto cast = store.getBarrier().getDefiningOp<UnrealizedConversionCastOp>();
    if (!bytes || !cast)
      return store.emitOpError() << "cannot run in interpret mode: needs its "
                                    "cluster_ref and its barrier's storage";
    OpBuilder sb(store);
    if (failed(storeToPeerOnHost(sb, store, store.getSrc(), store.getDst(),
                                 cast.getInputs().front(), store.getIndex(),
                                 bytes)))
      return failure();
    store.erase();
    return success();
  }

  /// The cluster ops of the copy `op` of the body, as host code.
  LogicalResult lowerClusterOps(Operation *op, const ClusterContext &cluster,
                                ValueRange clusterIds) {
    // They are collected before any is rewritten: `op` may be one of them,
    // and is gone once rewritten.
    SmallVector<BarrierArriveOp> arrives;
    SmallVector<ClusterSyncOp> syncs;
    SmallVector<Operation *> peerOps;
    op->walk([&](Operation *inner) {
      if (auto arrive = dyn_cast<BarrierArriveOp>(inner);
          arrive && isa<ClusterBarrierType>(arrive.getBarrier().getType()))
        arrives.push_back(arrive);
      else if (auto sync = dyn_cast<ClusterSyncOp>(inner))
        syncs.push_back(sync);
      else if (isa<ClusterRefOp, AsyncStoreSmemOp>(inner) || isPairOp(inner))
        peerOps.push_back(inner);
    });
    // In program order: a cluster_ref before the stores into it.
    for (Operation *peerOp : peerOps) {
      // A pair's op runs on the pair's first CTA (cluster x index 0), whose
      // peer is the next arena slice (the cluster is the pair).
      if (isPairOp(peerOp)) {
        OpBuilder pb(peerOp);
        Value leader =
            arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::eq,
                                  clusterIds.front(), constant(pb, 0));
        if (failed(lowerPairOpOnCPU(peerOp, leader, constant(pb, arenaBytes),
                                    smemLayouts)))
          return failure();
        continue;
      }
      if (auto ref = dyn_cast<ClusterRefOp>(peerOp)) {
        if (failed(lowerClusterRef(ref, clusterIds)))
          return failure();
      } else if (failed(lowerAsyncStore(cast<AsyncStoreSmemOp>(peerOp)))) {
        return failure();
      }
    }
    for (BarrierArriveOp arrive : arrives)
      if (failed(lowerClusterArrive(arrive, clusterIds)))
        return failure();
    for (ClusterSyncOp sync : syncs) {
      OpBuilder cb(sync);
      Location l = sync.getLoc();
      callHostRuntime(cb, sync, "mgpuHostClusterSync",
                      {getElementPointer(cb, l, cluster.words, cluster.index),
                       getI64(cb, l, cluster.threads),
                       getLocationString(cb, sync)});
      sync.erase();
    }
    return success();
  }

  Value constant(OpBuilder &nb, int64_t value) {
    return arith::ConstantIndexOp::create(nb, loc, value);
  }

  void allocateGlobalScratch() {
    for (Type type : launch.getGlobalScratchTypes()) {
      auto memref = cast<MemRefType>(type);
      Value buffer = memref::AllocOp::create(b, loc, memref);
      Value zero = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(memref.getElementType())));
      linalg::FillOp::create(b, loc, zero, buffer);
      common.push_back(buffer);
      toFree.push_back(buffer);
    }
  }

  /// An arena for `ctas` CTAs' shared scratch.
  Value allocateArena(Value ctas) {
    auto type = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    Value size = arith::MulIOp::create(b, loc, ctas, constant(b, arenaBytes));
    // An empty arena still needs an address.
    size = arith::MaxUIOp::create(b, loc, size, constant(b, 1));
    Value arena = memref::AllocOp::create(
        b, loc, type, ValueRange{size},
        b.getI64IntegerAttr(TargetInfo::kSharedAlignment));
    toFree.push_back(arena);
    return arena;
  }

  /// Fresh shared memory for the first `ctas` CTA slices of `arena`:
  /// poison (0xff bytes: NaN or negative numbers), as the GPU's holds
  /// anything, so that a read of what no one wrote gives wrong numbers;
  /// each CTA's barriers in phase 0 (zero words).
  void freshArena(OpBuilder &nb, Value arena, Value ctas) {
    if (!arenaBytes)
      return;
    Value bytes =
        arith::MulIOp::create(nb, loc, ctas, constant(nb, arenaBytes));
    Value slices = memref::SubViewOp::create(
        nb, loc, arena, ArrayRef<OpFoldResult>{nb.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{bytes},
        ArrayRef<OpFoldResult>{nb.getIndexAttr(1)});
    linalg::FillOp::create(
        nb, loc, Value(arith::ConstantIntOp::create(nb, loc, 0xff, 8)), slices);
    Value zeroWord = arith::ConstantIntOp::create(nb, loc, 0, 64);
    for (auto [type, offset] : llvm::zip(launch.getSharedScratchTypes(),
                                         launch.getSharedScratchOffsets())) {
      auto barrier = dyn_cast<BarrierLikeType>(type);
      if (!barrier)
        continue;
      auto words = MemRefType::get({barrier.getCount()}, nb.getI64Type());
      auto loop =
          scf::ForOp::create(nb, loc, constant(nb, 0), ctas, constant(nb, 1));
      OpBuilder::InsertionGuard guard(nb);
      nb.setInsertionPointToStart(loop.getBody());
      Value shift = arith::AddIOp::create(
          nb, loc,
          arith::MulIOp::create(nb, loc, loop.getInductionVar(),
                                constant(nb, arenaBytes)),
          constant(nb, offset));
      Value view =
          memref::ViewOp::create(nb, loc, words, arena, shift, ValueRange());
      linalg::FillOp::create(nb, loc, zeroWord, view);
    }
  }

  /// The shared scratch of the CTA whose slice starts at byte `base`.
  SmallVector<Value> sharedScratch(OpBuilder &nb, Value arena, Value base) {
    SmallVector<Value> views;
    SmallVector<Type> types = launch.getSharedScratchTypes();
    int64_t columns = 0;
    SmallVector<int64_t> columnOffsets = getTmemColumnOffsets(types, columns);
    for (auto [i, type, offset] :
         llvm::enumerate(types, launch.getSharedScratchOffsets())) {
      if (auto tmem = dyn_cast<TmemType>(type)) {
        Value shift = arith::AddIOp::create(
            nb, loc, base,
            constant(nb, smemBytes + columnOffsets[i] * 128 * 4));
        Value view = memref::ViewOp::create(nb, loc, tmem.getMemRefType(),
                                            arena, shift, ValueRange());
        view = memref::CastOp::create(nb, loc, tmem.getHostMemRefType(), view);
        views.push_back(UnrealizedConversionCastOp::create(nb, loc, type, view)
                            .getResult(0));
        continue;
      }
      Value shift = arith::AddIOp::create(nb, loc, base, constant(nb, offset));
      if (auto barrier = dyn_cast<BarrierLikeType>(type)) {
        auto words = MemRefType::get({barrier.getCount()}, nb.getI64Type());
        Value view =
            memref::ViewOp::create(nb, loc, words, arena, shift, ValueRange());
        views.push_back(UnrealizedConversionCastOp::create(nb, loc, type, view)
                            .getResult(0));
        continue;
      }
      views.push_back(memref::ViewOp::create(nb, loc,
                                             cast<MemRefType>(toHostType(type)),
                                             arena, shift, ValueRange()));
    }
    return views;
  }

  /// Inlines a copy of the body for the Pallas thread `thread` of the CTA
  /// at `gridIds` and `clusterIds`, whose shared scratch is `shared`. The
  /// host stack is saved before and restored after it (what
  /// memref.alloca_scope would do, without a region that must keep a single
  /// block once scf is lowered to cf).
  LogicalResult
  runThread(OpBuilder &nb, ValueRange gridIds, ValueRange clusterIds,
            Value thread, ArrayRef<Value> shared,
            std::optional<ClusterContext> cluster = std::nullopt) {
    IRMapping mapping;
    mapping.map(launch.getGridIds(), gridIds);
    mapping.map(launch.getClusterIds(), clusterIds);
    mapping.map(launch.getWarpgroupId(), thread);
    Block &body = launch.getBody().front();
    ValueRange rest = body.getArguments().drop_front(
        launch.getWarpgroupId().getArgNumber() + 1);
    mapping.map(rest.take_front(common.size()), common);
    mapping.map(rest.drop_front(common.size()), shared);
    Value stack = LLVM::StackSaveOp::create(
        nb, loc, LLVM::LLVMPointerType::get(nb.getContext()));
    for (Operation &op : body.without_terminator()) {
      Operation *copy = nb.clone(op, mapping);
      Operation *before = copy->getPrevNode();
      Block *block = copy->getBlock();
      if (cluster && failed(lowerClusterOps(copy, *cluster, clusterIds)))
        return failure();
      for (Value result : op.getResults())
        if (Value replaced = replacedResults.lookup(mapping.lookup(result))) {
          replacedResults.erase(mapping.lookup(result));
          mapping.map(result, replaced);
        }
      // The copy, or what a top-level cluster op became in its place.
      for (Operation &made : llvm::make_range(
               before ? std::next(before->getIterator()) : block->begin(),
               nb.getInsertionPoint()))
        made.walk(setHostTypes);
    }
    LLVM::StackRestoreOp::create(nb, loc, stack);
    return success();
  }

  SmallVector<Value> sizesOf(ArrayRef<int64_t> shape, ValueRange dynamic) {
    SmallVector<Value> sizes;
    unsigned next = 0;
    for (int64_t size : shape)
      sizes.push_back(ShapedType::isDynamic(size) ? dynamic[next++]
                                                  : constant(b, size));
    return sizes;
  }

  void runInOrder(ArrayRef<Value> gridSizes, ArrayRef<Value> clusterSizes);
  void runClusters(ArrayRef<Value> gridSizes, ArrayRef<Value> clusterSizes);
  void runConcurrently(ArrayRef<Value> gridSizes, ArrayRef<Value> clusterSizes);
};

void LaunchLowering::runInOrder(ArrayRef<Value> gridSizes,
                                ArrayRef<Value> clusterSizes) {
  // One CTA at a time, in grid order; its scratch is one arena slice.
  Value zero = constant(b, 0), one = constant(b, 1);
  Value arena = allocateArena(one);
  SmallVector<Value> sizes(gridSizes);
  llvm::append_range(sizes, clusterSizes);
  size_t gridRank = gridSizes.size();
  bool teams = launch.getWarpgroups() > 1 && waitsOn(launch, [](Operation *op) {
                 return isa<BarrierWaitOp, BarrierTestOp>(op);
               });
  scf::buildLoopNest(
      b, loc, SmallVector<Value>(sizes.size(), zero), sizes,
      SmallVector<Value>(sizes.size(), one),
      [&](OpBuilder &nb, Location, ValueRange ids) {
        freshArena(nb, arena, one);
        SmallVector<Value> shared = sharedScratch(nb, arena, zero);
        ValueRange gridIds = ids.take_front(gridRank);
        ValueRange clusterIds = ids.drop_front(gridRank);
        Value threads = constant(nb, launch.getWarpgroups());
        if (teams) {
          forEachOnOwnThread(nb, loc, threads, [&](OpBuilder &tb, Value t) {
            (void)runThread(tb, gridIds, clusterIds, t, shared);
          });
          return;
        }
        auto loop = scf::ForOp::create(nb, loc, zero, threads, one);
        OpBuilder::InsertionGuard guard(nb);
        nb.setInsertionPoint(loop.getBody()->getTerminator());
        (void)runThread(nb, gridIds, clusterIds, loop.getInductionVar(),
                        shared);
      });
}

void LaunchLowering::runClusters(ArrayRef<Value> gridSizes,
                                 ArrayRef<Value> clusterSizes) {
  // One cluster at a time, in grid order; every Pallas thread of its CTAs
  // on its own host thread, CTA r's scratch the arena's slice r.
  Value zero = constant(b, 0), one = constant(b, 1);
  int64_t ctas = clusterCtas();
  int64_t perCta = launch.getWarpgroups();
  Value arena = allocateArena(constant(b, ctas));
  auto wordsType = MemRefType::get({1}, b.getI64Type());
  Value words = memref::AllocOp::create(b, loc, wordsType);
  toFree.push_back(words);
  Value zeroWord = arith::ConstantIntOp::create(b, loc, 0, 64);
  ClusterContext cluster{words, zero, ctas * perCta};
  scf::buildLoopNest(
      b, loc, SmallVector<Value>(gridSizes.size(), zero), gridSizes,
      SmallVector<Value>(gridSizes.size(), one),
      [&](OpBuilder &nb, Location, ValueRange gridIds) {
        freshArena(nb, arena, constant(nb, ctas));
        memref::StoreOp::create(nb, loc, zeroWord, words, zero);
        forEachOnOwnThread(
            nb, loc, constant(nb, ctas * perCta), [&](OpBuilder &tb, Value t) {
              Value cta =
                  arith::DivUIOp::create(tb, loc, t, constant(tb, perCta));
              Value thread =
                  arith::RemUIOp::create(tb, loc, t, constant(tb, perCta));
              Value base =
                  arith::MulIOp::create(tb, loc, cta, constant(tb, arenaBytes));
              SmallVector<Value> clusterIds;
              if (!clusterSizes.empty())
                llvm::append_range(clusterIds,
                                   affine::AffineDelinearizeIndexOp::create(
                                       tb, loc, cta, clusterSizes,
                                       /*hasOuterBound=*/true)
                                       .getResults());
              if (failed(runThread(tb, gridIds, clusterIds, thread,
                                   sharedScratch(tb, arena, base), cluster)))
                status = failure();
            });
      });
}

void LaunchLowering::runConcurrently(ArrayRef<Value> gridSizes,
                                     ArrayRef<Value> clusterSizes) {
  // Every Pallas thread of every CTA at once.
  SmallVector<Value> sizes(gridSizes);
  llvm::append_range(sizes, clusterSizes);
  Value ctas = constant(b, 1);
  for (Value size : sizes)
    ctas = arith::MulIOp::create(b, loc, ctas, size);
  Value perCta = constant(b, launch.getWarpgroups());
  Value threads = arith::MulIOp::create(b, loc, ctas, perCta);
  Value arena = allocateArena(ctas);
  freshArena(b, arena, ctas);
  // The cluster axes are the innermost: the CTAs of a cluster are
  // consecutive, and its first one's word is its cluster's.
  Value words = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI64Type()),
      ValueRange{ctas});
  toFree.push_back(words);
  linalg::FillOp::create(
      b, loc, Value(arith::ConstantIntOp::create(b, loc, 0, 64)), words);
  forEachOnOwnThread(b, loc, threads, [&](OpBuilder &nb, Value t) {
    Value cta = arith::DivUIOp::create(nb, loc, t, perCta);
    Value inCluster = constant(nb, clusterCtas());
    Value first = arith::MulIOp::create(
        nb, loc, arith::DivUIOp::create(nb, loc, cta, inCluster), inCluster);
    ClusterContext cluster{words, first,
                           clusterCtas() *
                               static_cast<int64_t>(launch.getWarpgroups())};
    Value thread = arith::RemUIOp::create(nb, loc, t, perCta);
    Value base = arith::MulIOp::create(nb, loc, cta, constant(nb, arenaBytes));
    SmallVector<Value> ids;
    if (!sizes.empty()) {
      auto delinearized = affine::AffineDelinearizeIndexOp::create(
          nb, loc, cta, sizes, /*hasOuterBound=*/true);
      llvm::append_range(ids, delinearized.getResults());
    }
    ValueRange idRange(ids);
    status = runThread(nb, idRange.take_front(gridSizes.size()),
                       idRange.drop_front(gridSizes.size()), thread,
                       sharedScratch(nb, arena, base), cluster);
  });
}

LogicalResult LaunchLowering::lower() {
  if (launch.getLanes())
    return launch.emitOpError()
           << "is per-lane code (--mgpu-distribute-warpgroups), which "
              "interpret mode does not run: --mgpu-lower-to-cpu takes a "
              "launch at the level of Pallas threads";
  // Programs that wait on semaphores may wait for each other: each runs on
  // its own host thread, so their number must be known and bounded.
  bool concurrently =
      waitsOn(launch, [](Operation *op) { return isa<SemaphoreWaitOp>(op); });
  if (concurrently) {
    int64_t total = launch.getWarpgroups();
    bool bounded = true;
    SmallVector<int64_t> shape(launch.getStaticGrid());
    llvm::append_range(shape, launch.getClusterShape());
    for (int64_t size : shape) {
      bounded = bounded && !ShapedType::isDynamic(size) &&
                total * size <= kMaxHostThreads;
      total = bounded ? total * size : total;
    }
    if (!bounded) {
      InFlightDiagnostic diag =
          launch.emitOpError()
          << "waits on a semaphore: interpret mode runs each of its Pallas "
             "threads on its own host thread, at most "
          << kMaxHostThreads << ", for a static grid";
      diag.attachNote() << "use a smaller static grid to run it on the CPU";
      return diag;
    }
  }

  common.assign(launch.getScalars().begin(), launch.getScalars().end());
  llvm::append_range(common, launch.getIns());
  llvm::append_range(common, launch.getOuts());
  allocateGlobalScratch();
  SmallVector<Value> gridSizes =
      sizesOf(launch.getStaticGrid(), launch.getGrid());
  SmallVector<Value> clusterSizes =
      sizesOf(launch.getClusterShape(), ValueRange());
  if (concurrently)
    runConcurrently(gridSizes, clusterSizes);
  else if (waitsOn(launch, isClusterOp))
    runClusters(gridSizes, clusterSizes);
  else
    runInOrder(gridSizes, clusterSizes);
  if (failed(status))
    return failure();
  for (Value buffer : toFree)
    memref::DeallocOp::create(b, loc, buffer);
  launch.erase();
  return success();
}

struct LowerToCPUPass : public mgpu::impl::MGPULowerToCPUBase<LowerToCPUPass> {
  using Base::Base;
  void runOnOperation() override {
    // GPU kernels already lowered have no interpret lowering.
    auto refuseGPUCode = [](Operation *op) -> LogicalResult {
      if (!isa<gpu::LaunchFuncOp, gpu::LaunchOp>(op))
        return success();
      return op->emitOpError()
             << "is GPU code, which interpret mode does not run: --mgpu-to-cpu "
                "takes mgpu kernels (pallas_call, mpmd_map); mgpu-run "
                "--backend=emulate runs GPU kernels on the host";
    };
    FailureOr<SmallVector<LaunchOp>> launches =
        collectLaunches(getOperation(), "--mgpu-lower-to-cpu",
                        "--mgpu-form-launches", refuseGPUCode);
    if (failed(launches))
      return signalPassFailure();
    SetVector<Operation *> hosts;
    for (LaunchOp launch : *launches) {
      hosts.insert(launch->getParentOp());
      if (failed(LaunchLowering(launch, smemLayouts).lower()))
        return signalPassFailure();
    }
    // The kernel-level ops and semaphores, now in host code.
    TypeConverter converter;
    populateBarrierTypeConversion(converter);
    RewritePatternSet patterns(&getContext());
    populatePrimitivesToCPUPatterns(converter, patterns, smemLayouts);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configurePrimitivesToCPULegality(target);
    populateProfileToCPUPatterns(converter, patterns, target);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (Operation *host : hosts)
      if (failed(applyPartialConversion(host, target, frozen)))
        return signalPassFailure();
    for (Operation *host : hosts)
      accessThroughLayouts(host, smemLayouts);
    // The host holds every vector whole, so the lane layouts that kernels
    // record (`mgpu.out_layouts`) mean nothing here; left on, they would
    // follow ops that --mgpu-vectors-to-loops splits into pieces no layout
    // fits.
    for (Operation *host : hosts)
      host->walk([](Operation *op) { op->removeAttr(kOutLayoutsAttrName); });
  }
};

} // namespace
