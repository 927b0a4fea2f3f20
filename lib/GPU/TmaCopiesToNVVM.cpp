//===- TmaCopiesToNVVM.cpp - TMA copies of kernel-level ops ---------------===//
//
// The copy patterns of --mgpu-primitives-to-nvvm: copy_gmem_to_smem with a
// barrier, copy_smem_to_gmem (plain and reducing) and async_prefetch. On a
// chip with TMA, lane 0 issues one cp.async.bulk.tensor per box of the
// window through tensor maps made in host code before the launch (shared by
// all the copies of a module); elsewhere, and for windows TMA cannot move,
// the warpgroup's lanes copy the elements themselves.
//
//===----------------------------------------------------------------------===//

#include "ClusterToNVVM.h"
#include "CpAsyncToNVVM.h"
#include "NVVMLowering.h"
#include "TmaBoxes.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/GPU/PrimitivesToNVVM.h"
#include "mgpu/KernelForm/CopyWindows.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/TmaReductions.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::nvvm_lowering;

namespace {

/// The warpgroup's own copy of a window (where TMA cannot move it): each
/// lane moves elements lane, lane + 128, ...; elements outside the array
/// read as zero and are not written.
void copyByLanes(OpBuilder &b, Location loc, const GlobalWindow &window,
                 Value shared, bool toShared,
                 std::optional<TmaReduction> reduction = std::nullopt) {
  auto sharedType = cast<MemRefType>(shared.getType());
  ArrayRef<int64_t> shape = sharedType.getShape();
  int64_t total = sharedType.getNumElements();
  auto loop = scf::ForOp::create(b, loc, laneIndex(b, loc),
                                 indexConstant(b, loc, total),
                                 indexConstant(b, loc, kWarpgroupLanes));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> local = delinearize(b, loc, loop.getInductionVar(), shape);
  SmallVector<Value> global = window.baseIndices(b, loc, local);
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [d, g] : llvm::enumerate(global)) {
    Value extent = memref::DimOp::create(b, loc, window.base, d);
    // Unsigned: a negative index wraps around past the extent.
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, g, extent));
  }
  Type element = sharedType.getElementType();
  if (toShared) {
    auto value = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &nb, Location l) {
          scf::YieldOp::create(
              nb, l, Value(memref::LoadOp::create(nb, l, window.base, global)));
        },
        [&](OpBuilder &nb, Location l) {
          scf::YieldOp::create(
              nb, l,
              Value(arith::ConstantOp::create(
                  nb, l, cast<TypedAttr>(nb.getZeroAttr(element)))));
        });
    memref::StoreOp::create(b, loc, value.getResult(0), shared, local);
    return;
  }
  auto ifInside = scf::IfOp::create(b, loc, inside, false);
  b.setInsertionPointToStart(ifInside.thenBlock());
  Value v = memref::LoadOp::create(b, loc, shared, local);
  if (reduction)
    emitTmaReductionAtomic(b, loc, *reduction, v, window.base, global);
  else
    memref::StoreOp::create(b, loc, v, window.base, global);
}

/// NVVM's name of a reduce-store kind.
NVVM::TMAReduxKind getReduxKind(TmaReduction kind) {
  switch (kind) {
  case TmaReduction::add:
    return NVVM::TMAReduxKind::ADD;
  case TmaReduction::min:
    return NVVM::TMAReduxKind::MIN;
  case TmaReduction::max:
    return NVVM::TMAReduxKind::MAX;
  case TmaReduction::inc:
    return NVVM::TMAReduxKind::INC;
  case TmaReduction::dec:
    return NVVM::TMAReduxKind::DEC;
  case TmaReduction::bit_and:
    return NVVM::TMAReduxKind::AND;
  case TmaReduction::bit_or:
    return NVVM::TMAReduxKind::OR;
  case TmaReduction::bit_xor:
    return NVVM::TMAReduxKind::XOR;
  case TmaReduction::smin:
  case TmaReduction::umin:
    return NVVM::TMAReduxKind::MIN;
  case TmaReduction::smax:
  case TmaReduction::umax:
    return NVVM::TMAReduxKind::MAX;
  }
  llvm_unreachable("unknown reduction");
}

/// mbarrier.arrive.expect_tx on `barrier` for all the bytes of `shared`: its
/// phase completes when the TMA loads into `shared` have landed.
void arriveExpectingAllOf(OpBuilder &b, Location loc, Value barrier,
                          MemRefType shared) {
  int64_t bytes =
      shared.getNumElements() * elementBytes(shared.getElementType());
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), barrier, i32(b, loc, bytes), NVVM::MemScopeKind::CTA,
      /*relaxed=*/false, Value());
}

/// One TMA load of the box at `coordinates` (innermost first) of tensor map
/// `map` to element `element` of `shared`, completing on `barrier`. With
/// `group` cta_group::2, `barrier` may be the peer CTA's (a partitioned
/// copy completes on the first CTA's barrier).
void loadBox(OpBuilder &b, Location loc, Value map, ValueRange coordinates,
             Value shared, Value element, Value barrier,
             NVVM::CTAGroupKindAttr group = {}) {
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, sharedPointer(b, loc, shared, element, kClusterSharedSpace), map,
      coordinates, barrier, ValueRange(), Value(), Value(),
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, group, Value());
}

/// One multicast TMA load: the box lands at `element` of `shared` in every
/// CTA of the cluster whose bit is set in `mask` (i16), each completing its
/// bytes on the barrier at `barrier`'s offset in its own shared memory.
void loadBoxMulticast(OpBuilder &b, Location loc, Value map,
                      ValueRange coordinates, Value shared, Value element,
                      Value barrier, Value mask) {
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, sharedPointer(b, loc, shared, element, kClusterSharedSpace), map,
      coordinates, barrier, ValueRange(), mask, Value(),
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(),
      Value());
}

/// Where a copy runs and what it moves.
struct CopySite {
  gpu::LaunchOp launch;
  /// The global side, and the shared side (converted) with its type.
  GlobalWindow window;
  Value shared;
  MemRefType sharedType;

  /// The shared side's shape as a window of the global array (a dimension
  /// that a rank-reducing view drops is one element).
  SmallVector<int64_t> windowShape(ArrayRef<int64_t> shape) const {
    return window.baseShape(shape);
  }
  SmallVector<int64_t> windowShape() const {
    return windowShape(sharedType.getShape());
  }
  /// Whether the window's rows run along the array's contiguous dimension,
  /// which TMA's swizzled boxes need.
  bool keepsInnermost() const {
    return window.windowDims.back() ==
           static_cast<int64_t>(window.offsets.size()) - 1;
  }
};

/// The copy patterns. Both directions find their site alike and share the
/// tensor maps they make; `rewriteCopy` says how each moves the window.
template <typename OpTy> struct CopyPattern : public ChipPattern<OpTy> {
  using OpAdaptor = typename OpTy::Adaptor;
  CopyPattern(const TypeConverter &converter, MLIRContext *ctx,
              const TargetInfo &target, std::shared_ptr<TensorMaps> maps)
      : ChipPattern<OpTy>(converter, ctx, target), maps(std::move(maps)) {}

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    // Tensor maps are made in the host code before the launch.
    auto launch = op->template getParentOfType<gpu::LaunchOp>();
    if (!launch)
      return rewriter.notifyMatchFailure(op, "not in a gpu.launch");
    constexpr bool in = std::is_same_v<OpTy, CopyGmemToSmemOp>;
    Value global = in ? adaptor.getSrc() : adaptor.getDst();
    Value shared = in ? adaptor.getDst() : adaptor.getSrc();
    CopySite site{
        launch,
        resolveGlobalWindow(rewriter, op.getLoc(), global, op.getMixedOffsets(),
                            /*throughRankReducing=*/true),
        shared, cast<MemRefType>((in ? op.getDst() : op.getSrc()).getType())};
    if (failed(rewriteCopy(rewriter, op.getLoc(), op, adaptor, site)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

  virtual LogicalResult rewriteCopy(ConversionPatternRewriter &rewriter,
                                    Location loc, OpTy op, OpAdaptor adaptor,
                                    const CopySite &site) const = 0;

  /// How TMA moves the window of `site` (the boxes, and the tensor map they
  /// are copied through); nothing where it cannot: a chip without TMA, a
  /// window that no plan splits, an array made inside the launch.
  std::optional<std::pair<TmaPlan, Value>>
  planTmaCopy(OpBuilder &b, Location loc, const CopySite &site,
              bool unsignedElements = false) const {
    if (!this->target.hasTma)
      return std::nullopt;
    std::optional<TmaPlan> plan = planTma(
        cast<MemRefType>(site.window.base.getType()), site.windowShape());
    if (!plan)
      return std::nullopt;
    FailureOr<Value> map =
        maps->get(b, loc, site.launch, site.window.base, plan->box,
                  nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE, unsignedElements);
    if (failed(map))
      return std::nullopt;
    return std::make_pair(*plan, *map);
  }

  std::shared_ptr<TensorMaps> maps;
};

/// copy_gmem_to_smem -> mbarrier.arrive.expect_tx and one
/// cp.async.bulk.tensor per box on lane 0; or the lanes' copy, a warpgroup
/// barrier and mbarrier.arrive on lane 0.
struct CopyGmemToSmemToNVVM : public CopyPattern<CopyGmemToSmemOp> {
  using CopyPattern::CopyPattern;
  LogicalResult rewriteCopy(ConversionPatternRewriter &rewriter, Location loc,
                            CopyGmemToSmemOp op, OpAdaptor adaptor,
                            const CopySite &site) const final {
    // Without a barrier: a pre-Hopper cp.async copy group.
    if (!op.getBarrier()) {
      copyWithCpAsync(rewriter, loc, site.window, site.shared);
      return success();
    }
    Value barrier = barrierPointer(rewriter, loc, adaptor.getBarrier(),
                                   adaptor.getBarrierIndex());
    if (std::optional<int64_t> dim = op.getPartitioned())
      return copyPartitioned(op, site, barrier, *dim, rewriter);
    if (ArrayAttr transforms = op.getTransformsAttr())
      return copyTiled(op, site, barrier, transforms, rewriter);
    if (op.getCollectiveAxes()) {
      FailureOr<bool> multicast = copyMulticast(op, site, barrier, rewriter);
      if (failed(multicast))
        return failure();
      if (*multicast)
        return success();
      // Without TMA each CTA loads the whole window itself: the same bytes
      // land in each buffer of the group.
    }
    if (auto tma = planTmaCopy(rewriter, loc, site)) {
      auto [plan, map] = *tma;
      onLaneZero(rewriter, loc, [&] {
        arriveExpectingAllOf(rewriter, loc, barrier, site.sharedType);
        forEachBox(rewriter, loc, plan, site.windowShape(), site.window.offsets,
                   [&](ValueRange coordinates, Value element) {
                     loadBox(rewriter, loc, map, coordinates, site.shared,
                             element, barrier);
                   });
      });
      return success();
    }
    copyByLanes(rewriter, loc, site.window, site.shared, /*toShared=*/true);
    warpgroupBarrier(rewriter, loc);
    onLaneZero(rewriter, loc, [&] {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), barrier, Value());
    });
    return success();
  }

  /// A partitioned copy (the pair's window, split along `dim`): this CTA
  /// loads its part, whose boxes complete on the first CTA's barrier
  /// (cta_group::2), where the first CTA expects both parts' bytes.
  LogicalResult copyPartitioned(CopyGmemToSmemOp op, const CopySite &site,
                                Value barrier, int64_t dim,
                                ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    CopySite part = site;
    Value rank =
        gpu::ClusterBlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    int64_t globalDim = site.window.windowDims[dim];
    part.window.offsets[globalDim] = arith::AddIOp::create(
        rewriter, loc, site.window.offsets[globalDim],
        arith::MulIOp::create(
            rewriter, loc, rank,
            indexConstant(rewriter, loc, site.sharedType.getDimSize(dim))));
    if (ArrayAttr transforms = op.getTransformsAttr())
      return copyTiled(op, part, barrier, transforms, rewriter,
                       /*pair=*/true);
    auto tma = planTmaCopy(rewriter, loc, part);
    if (!tma)
      return op.emitOpError()
             << "is partitioned, which needs TMA: an sm_100a target and a "
                "global array defined outside the kernel";
    auto [plan, map] = *tma;
    onLaneZero(rewriter, loc, [&] {
      PairShare pair = getPairShare(rewriter, loc, barrier);
      arriveExpectingPair(rewriter, loc, pair, barrier, part.sharedType);
      forEachBox(rewriter, loc, plan, part.windowShape(), part.window.offsets,
                 [&](ValueRange coordinates, Value element) {
                   loadBox(
                       rewriter, loc, map, coordinates, part.shared, element,
                       pair.leaderBarrier,
                       NVVM::CTAGroupKindAttr::get(rewriter.getContext(),
                                                   NVVM::CTAGroupKind::CTA_2));
                 });
    });
    return success();
  }

  /// A multicast copy: lane 0 expects the whole window on its barrier and
  /// loads its share (its place in the group along the leading dimension)
  /// into the buffer of every CTA of the group, whose cluster ranks make the
  /// multicast mask. False where TMA cannot move the share.
  /// The cluster's sizes and the number of CTAs a multicast reaches.
  struct Group {
    ArrayRef<int64_t> dims;
    int64_t sizes[3] = {1, 1, 1};
    int64_t count = 1;
  };
  FailureOr<Group> getGroup(CopyGmemToSmemOp op, const CopySite &site) const {
    std::optional<ArrayRef<int64_t>> dims = op.getClusterDims();
    if (!dims)
      return op.emitOpError() << "multicasts but has no cluster_dims (run "
                                 "--mgpu-form-launches)";
    Group group;
    group.dims = *dims;
    gpu::LaunchOp launch = site.launch;
    Value sizeOperands[3] = {launch.getClusterSizeX(), launch.getClusterSizeY(),
                             launch.getClusterSizeZ()};
    for (int d = 0; d < 3; ++d) {
      std::optional<int64_t> size = sizeOperands[d]
                                        ? getConstantIntValue(sizeOperands[d])
                                        : std::optional<int64_t>(1);
      if (!size)
        return op.emitOpError() << "multicasts in a launch whose cluster "
                                   "size is not a constant";
      group.sizes[d] = *size;
    }
    for (int64_t d : *dims)
      group.count *= group.sizes[d];
    return group;
  }

  FailureOr<bool> copyMulticast(CopyGmemToSmemOp op, const CopySite &site,
                                Value barrier,
                                ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    FailureOr<Group> groupOr = getGroup(op, site);
    if (failed(groupOr))
      return failure();
    Group &groupInfo = *groupOr;
    ArrayRef<int64_t> dims = groupInfo.dims;
    const int64_t(&sizes)[3] = groupInfo.sizes;
    int64_t group = groupInfo.count;
    gpu::LaunchOp launch = site.launch;
    SmallVector<int64_t> share(site.sharedType.getShape());
    share[0] /= group;
    std::optional<TmaPlan> plan;
    if (target.hasTma)
      plan = planTma(cast<MemRefType>(site.window.base.getType()),
                     site.windowShape(share));
    if (!plan)
      return false;
    FailureOr<Value> map =
        maps->get(rewriter, loc, launch, site.window.base, plan->box);
    if (failed(map))
      return false;
    onLaneZero(rewriter, loc, [&] {
      arriveExpectingAllOf(rewriter, loc, barrier, site.sharedType);
      auto [place, mask] = getMulticastGroup(rewriter, loc, dims, sizes);
      // The share: rows [place * rows, (place + 1) * rows) of the window.
      int64_t rowElements = 1;
      for (int64_t size : ArrayRef<int64_t>(share).drop_front())
        rowElements *= size;
      Value first = arith::MulIOp::create(
          rewriter, loc, place, indexConstant(rewriter, loc, share[0]));
      SmallVector<Value> offsets(site.window.offsets);
      int64_t rowDim = site.window.windowDims[0];
      offsets[rowDim] =
          arith::AddIOp::create(rewriter, loc, offsets[rowDim], first);
      Value start = arith::MulIOp::create(
          rewriter, loc, first, indexConstant(rewriter, loc, rowElements));
      forEachBox(rewriter, loc, *plan, site.windowShape(share), offsets,
                 [&](ValueRange coordinates, Value element) {
                   loadBoxMulticast(
                       rewriter, loc, *map, coordinates, site.shared,
                       arith::AddIOp::create(rewriter, loc, start, element),
                       barrier, mask);
                 });
    });
    return true;
  }

  /// A copy into a tiled, swizzled buffer: one TMA box per tile with the
  /// 128-byte swizzle, each tile at its place in the buffer. A multicast
  /// loads its share of whole tile rows into every CTA of its group. A buffer
  /// one tile wide holds its tiles one after another, as one taller box would
  /// write them (the swizzle follows the address), so its tiles go in
  /// boxes of up to 256 rows (TMA's limit): one box for a 128 x 64 block of
  /// JAX's (8, 64) tiles instead of 16.
  LogicalResult copyTiled(CopyGmemToSmemOp op, const CopySite &site,
                          Value barrier, ArrayAttr transforms,
                          ConversionPatternRewriter &rewriter,
                          bool pair = false) const {
    Location loc = op.getLoc();
    MemRefType shared = site.sharedType;
    FailureOr<SwizzledTiling> tiling =
        getSwizzledTiling(op, "the destination", transforms, shared);
    if (failed(tiling))
      return failure();
    // A multicast loads only this CTA's share of the rows, a whole number
    // of tile rows, into every CTA of its group.
    std::optional<Group> group;
    int64_t rows = shared.getDimSize(0);
    if (op.getCollectiveAxes() && !pair) {
      FailureOr<Group> found = getGroup(op, site);
      if (failed(found))
        return failure();
      group = *found;
      if (rows % (group->count * tiling->rows))
        return op.emitOpError()
               << "multicasts " << rows << " rows to " << group->count
               << " CTAs, which is not a whole number of " << tiling->rows
               << "-row tiles per CTA";
      rows /= group->count;
    }
    SwizzledBoxes boxes =
        planSwizzledBoxes(*tiling, rows, shared.getDimSize(1));
    FailureOr<Value> map = failure();
    if (target.hasTma && site.keepsInnermost())
      map = maps->get(rewriter, loc, site.launch, site.window.base,
                      site.windowShape(boxes.box()), swizzleKind(*tiling));
    if (failed(map))
      return op.emitOpError()
             << "stores its window tiled and swizzled, which needs TMA: an "
                "sm_90 target, a global array defined outside the kernel and "
                "a window along its innermost dimension";
    onLaneZero(rewriter, loc, [&] {
      // A partitioned copy's boxes complete on the first CTA's barrier.
      std::optional<PairShare> pairShare;
      NVVM::CTAGroupKindAttr ctaGroup;
      if (pair) {
        pairShare = getPairShare(rewriter, loc, barrier);
        arriveExpectingPair(rewriter, loc, *pairShare, barrier, shared);
        ctaGroup = NVVM::CTAGroupKindAttr::get(rewriter.getContext(),
                                               NVVM::CTAGroupKind::CTA_2);
      } else {
        arriveExpectingAllOf(rewriter, loc, barrier, shared);
      }
      Value completes = pair ? pairShare->leaderBarrier : barrier;
      // The first tile row this CTA loads (its share's), and the mask of
      // the CTAs its boxes land in.
      Value firstTileRow = indexConstant(rewriter, loc, 0), mask;
      if (group) {
        MulticastGroup members =
            getMulticastGroup(rewriter, loc, group->dims, group->sizes);
        firstTileRow =
            arith::MulIOp::create(rewriter, loc, members.place,
                                  indexConstant(rewriter, loc, boxes.tileRows));
        mask = members.mask;
      }
      forEachSwizzledBox(rewriter, loc, boxes, firstTileRow, site.window,
                         [&](ValueRange coordinates, Value element) {
                           if (group)
                             loadBoxMulticast(rewriter, loc, *map, coordinates,
                                              site.shared, element, barrier,
                                              mask);
                           else
                             loadBox(rewriter, loc, *map, coordinates,
                                     site.shared, element, completes, ctaGroup);
                         });
    });
    return success();
  }
};

/// copy_smem_to_gmem -> one TMA store per box and a commit on lane 0; or
/// the lanes' copy. With a reduction, cp.reduce.async.bulk.tensor per box
/// through a map whose element type is the reduction's PTX type, or the
/// lanes' atomics.
struct CopySmemToGmemToNVVM : public CopyPattern<CopySmemToGmemOp> {
  using CopyPattern::CopyPattern;
  LogicalResult rewriteCopy(ConversionPatternRewriter &rewriter, Location loc,
                            CopySmemToGmemOp op, OpAdaptor adaptor,
                            const CopySite &site) const final {
    std::optional<TmaReduction> reduction = op.getReduction();
    // The map's element type gives the reduction its PTX type. As in JAX,
    // integers are unsigned (.u32/.u64: inc and dec take only .u32, a 64-bit
    // add only .u64) except for the signed smin/smax (.s32/.s64).
    bool unsignedElements = reduction && *reduction != TmaReduction::smin &&
                            *reduction != TmaReduction::smax;
    if (ArrayAttr transforms = op.getTransformsAttr())
      return storeTiled(op, site, transforms, unsignedElements, rewriter);
    auto tma = planTmaCopy(rewriter, loc, site, unsignedElements);
    if (!tma) {
      copyByLanes(rewriter, loc, site.window, site.shared, /*toShared=*/false,
                  reduction);
      return success();
    }
    auto [plan, map] = *tma;
    onLaneZero(rewriter, loc, [&] {
      forEachBox(rewriter, loc, plan, site.windowShape(), site.window.offsets,
                 [&](ValueRange coordinates, Value element) {
                   storeBox(rewriter, loc, op, map, coordinates, site.shared,
                            element);
                 });
      if (op.getCommitGroup())
        NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    });
    return success();
  }

  /// One TMA store (or reduce-store) of the box at `coordinates` of `map`
  /// from element `element` of `shared`.
  static void storeBox(OpBuilder &b, Location loc, CopySmemToGmemOp op,
                       Value map, ValueRange coordinates, Value shared,
                       Value element) {
    Value source = sharedPointer(b, loc, shared, element);
    if (std::optional<TmaReduction> reduction = op.getReduction())
      NVVM::CpAsyncBulkTensorReduceOp::create(
          b, loc, map, source, getReduxKind(*reduction),
          NVVM::TMAStoreMode::TILE, coordinates, Value());
    else
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          b, loc, map, source, coordinates, Value(), NVVM::TMAStoreModeAttr(),
          Value());
  }

  /// A copy out of a tiled buffer with swizzled rows: a store per box of
  /// whole tiles through a map with the 128-byte swizzle, which TMA undoes
  /// as it reads shared memory (the copy in's boxes, the other way).
  LogicalResult storeTiled(CopySmemToGmemOp op, const CopySite &site,
                           ArrayAttr transforms, bool unsignedElements,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MemRefType shared = site.sharedType;
    FailureOr<SwizzledTiling> tiling =
        getSwizzledTiling(op, "the source", transforms, shared);
    if (failed(tiling))
      return failure();
    SwizzledBoxes boxes =
        planSwizzledBoxes(*tiling, shared.getDimSize(0), shared.getDimSize(1));
    FailureOr<Value> map = failure();
    if (target.hasTma && site.keepsInnermost())
      map = maps->get(rewriter, loc, site.launch, site.window.base,
                      site.windowShape(boxes.box()), swizzleKind(*tiling),
                      unsignedElements);
    if (failed(map))
      return op.emitOpError()
             << "reads its source tiled and swizzled, which needs TMA: an "
                "sm_90 target, a global array defined outside the kernel and "
                "a window along its innermost dimension";
    onLaneZero(rewriter, loc, [&] {
      forEachSwizzledBox(rewriter, loc, boxes, indexConstant(rewriter, loc, 0),
                         site.window,
                         [&](ValueRange coordinates, Value element) {
                           storeBox(rewriter, loc, op, *map, coordinates,
                                    site.shared, element);
                         });
      if (op.getCommitGroup())
        NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    });
    return success();
  }
};

/// async_prefetch -> one cp.async.bulk.prefetch.tensor per TMA box on lane
/// 0, through the tensor map a copy of the same window uses (the copy
/// patterns share `maps`); nothing where TMA cannot move the window (no
/// TMA, a window no plan splits, an array made inside the launch): a
/// prefetch is only a hint.
struct AsyncPrefetchToNVVM : public ChipPattern<AsyncPrefetchOp> {
  AsyncPrefetchToNVVM(const TypeConverter &converter, MLIRContext *ctx,
                      const TargetInfo &target,
                      std::shared_ptr<TensorMaps> maps)
      : ChipPattern(converter, ctx, target), maps(std::move(maps)) {}

  LogicalResult
  matchAndRewrite(AsyncPrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto launch = op->getParentOfType<gpu::LaunchOp>();
    auto type = cast<MemRefType>(op.getRef().getType());
    if (target.hasTma && launch) {
      GlobalWindow window =
          resolveGlobalWindow(rewriter, loc, adaptor.getRef(), {},
                              /*throughRankReducing=*/true);
      SmallVector<int64_t> shape = window.baseShape(type.getShape());
      std::optional<TmaPlan> plan =
          planTma(cast<MemRefType>(window.base.getType()), shape);
      FailureOr<Value> map = failure();
      if (plan)
        map = maps->get(rewriter, loc, launch, window.base, plan->box);
      if (succeeded(map))
        onLaneZero(rewriter, loc, [&] {
          forEachBox(rewriter, loc, *plan, shape, window.offsets,
                     [&](ValueRange coordinates, Value) {
                       NVVM::CpAsyncBulkTensorPrefetchOp::create(
                           rewriter, loc, *map, coordinates, ValueRange(),
                           NVVM::TMALoadMode::TILE, Value());
                     });
        });
    }
    rewriter.eraseOp(op);
    return success();
  }

  std::shared_ptr<TensorMaps> maps;
};

} // namespace

void mlir::mgpu::populateTmaCopiesToNVVMPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 const TargetInfo &target) {
  // The copy patterns share the tensor maps they make.
  auto maps = std::make_shared<TensorMaps>();
  MLIRContext *ctx = patterns.getContext();
  patterns.add(
      std::make_unique<CopyGmemToSmemToNVVM>(converter, ctx, target, maps));
  patterns.add(
      std::make_unique<CopySmemToGmemToNVVM>(converter, ctx, target, maps));
  patterns.add(
      std::make_unique<AsyncPrefetchToNVVM>(converter, ctx, target, maps));
}
