//===- ClusterToNVVM.cpp - Cluster ops on the GPU -------------------------===//
//
// The NVVM the cluster ops become (see the header): a cluster-wide barrier,
// remote arrivals on the mbarriers of the CTAs of a group (mapa to their
// shared::cluster addresses), and the CTA mask of a multicast copy. Cluster
// ranks are %cluster_ctarank's: x innermost.
//
//===----------------------------------------------------------------------===//

#include "ClusterToNVVM.h"
#include "NVVMLowering.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::nvvm_lowering;

namespace {

const gpu::Dimension kDims[3] = {gpu::Dimension::x, gpu::Dimension::y,
                                 gpu::Dimension::z};

/// The cluster rank of the CTA at `coords` of a cluster of `sizes`.
Value clusterRank(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                  ArrayRef<Value> sizes) {
  return arith::AddIOp::create(
      b, loc, coords[0],
      arith::MulIOp::create(
          b, loc, sizes[0],
          arith::AddIOp::create(
              b, loc, coords[1],
              arith::MulIOp::create(b, loc, sizes[1], coords[2]))));
}

/// cluster_sync -> barrier.cluster.arrive (release) and barrier.cluster.wait
/// (acquire) on every lane: every thread of every CTA of the cluster meets.
/// Before sm_90, which has no clusters, a CTA-wide barrier.
struct ClusterSyncToNVVM : public ChipPattern<ClusterSyncOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(ClusterSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (target.hasTma) {
      NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, op.getLoc(), UnitAttr());
    } else {
      gpu::BarrierOp::create(rewriter, op.getLoc());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The cluster rank of the CTA that `ref` views: this CTA's cluster
/// coordinates, with `ref`'s indices along its cluster dimensions.
Value peerRank(OpBuilder &b, Location loc, ClusterRefOp ref) {
  SmallVector<Value> sizes, coords;
  for (gpu::Dimension d : kDims) {
    sizes.push_back(gpu::ClusterDimBlocksOp::create(b, loc, d));
    coords.push_back(gpu::ClusterBlockIdOp::create(b, loc, d));
  }
  for (auto [d, index] : llvm::zip(*ref.getClusterDims(), ref.getCtas()))
    coords[d] = index;
  return toI32(b, loc, clusterRank(b, loc, coords, sizes));
}

/// A `!llvm.ptr<3>` to the first element of the shared memref `memref`.
Value sharedBase(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, metadata.getOffset(),
                            indexConstant(b, loc, bytes)));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace),
      Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), address)));
}

LogicalResult needsClusterDims(ClusterRefOp ref) {
  if (ref.getClusterDims())
    return success();
  return ref.emitOpError()
         << "needs its cluster_dims (run --mgpu-form-launches)";
}

/// cluster_ref -> the buffer's address `mapa`'d to the peer's rank
/// (shared::cluster), cast to a generic address, as a memref descriptor of
/// the result's type (the same offset, sizes and strides). Before sm_90
/// there are no clusters: the CTA's own buffer.
struct ClusterRefToNVVM : public ChipPattern<ClusterRefOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(ClusterRefOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(needsClusterDims(op)))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(op.getResult().getType());
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                             adaptor.getSmem());
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        rewriter, loc, metadata.getBaseBuffer());
    auto i64 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                        v);
    };
    MLIRContext *ctx = rewriter.getContext();
    auto generic = LLVM::LLVMPointerType::get(ctx);
    Value local = LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(ctx, kSharedSpace),
        i64(base));
    Value pointer;
    if (target.hasTma) {
      Value remote = NVVM::MapaOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(ctx, kClusterSharedSpace),
          local, peerRank(rewriter, loc, op));
      pointer = LLVM::AddrSpaceCastOp::create(rewriter, loc, generic, remote);
    } else {
      pointer = LLVM::AddrSpaceCastOp::create(rewriter, loc, generic, local);
    }
    // The descriptor memref-to-llvm gives the result's type: {allocated,
    // aligned, offset, sizes[rank], strides[rank]}.
    int64_t rank = type.getRank();
    auto i64Type = rewriter.getI64Type();
    SmallVector<Type> fields = {generic, generic, i64Type};
    if (rank) {
      fields.push_back(LLVM::LLVMArrayType::get(i64Type, rank));
      fields.push_back(LLVM::LLVMArrayType::get(i64Type, rank));
    }
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value desc = LLVM::PoisonOp::create(rewriter, loc, structType);
    desc = LLVM::InsertValueOp::create(rewriter, loc, desc, pointer,
                                       ArrayRef<int64_t>{0});
    desc = LLVM::InsertValueOp::create(rewriter, loc, desc, pointer,
                                       ArrayRef<int64_t>{1});
    desc = LLVM::InsertValueOp::create(
        rewriter, loc, desc, i64(metadata.getOffset()), ArrayRef<int64_t>{2});
    for (int64_t d = 0; d < rank; ++d) {
      desc = LLVM::InsertValueOp::create(rewriter, loc, desc,
                                         i64(metadata.getSizes()[d]),
                                         ArrayRef<int64_t>{3, d});
      desc = LLVM::InsertValueOp::create(rewriter, loc, desc,
                                         i64(metadata.getStrides()[d]),
                                         ArrayRef<int64_t>{4, d});
    }
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(op, type, desc);
    return success();
  }
};

/// async_store_smem -> on lane 0, an arrival expecting the copy's bytes on
/// the peer's barrier (mapa), then one bulk copy from this CTA's buffer to
/// the peer's that completes its bytes there. The intrinsic types the
/// barrier operand as shared::cta; the instruction reads a shared::cluster
/// address, which the peer's mapped address is (its bits passed as is).
struct AsyncStoreSmemToNVVM : public ChipPattern<AsyncStoreSmemOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(AsyncStoreSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ref = op.getDst().getDefiningOp<ClusterRefOp>();
    if (!ref || failed(needsClusterDims(ref)))
      return failure();
    if (!target.hasTma)
      return op.emitOpError() << "needs sm_90 or later (bulk copies between "
                                 "the CTAs of a cluster)";
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto src = cast<MemRefType>(op.getSrc().getType());
    int64_t bytes = src.getNumElements() * src.getElementTypeBitWidth() / 8;
    auto clusterPtr = LLVM::LLVMPointerType::get(ctx, kClusterSharedSpace);
    auto sharedPtr = LLVM::LLVMPointerType::get(ctx, kSharedSpace);
    Value lane = arith::RemUIOp::create(
        rewriter, loc,
        gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x),
        indexConstant(rewriter, loc, kWarpgroupLanes));
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        lane, indexConstant(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value rank = peerRank(rewriter, loc, ref);
    Value size = arith::ConstantIntOp::create(rewriter, loc, bytes, 32);
    // The barrier's element `index`: 8 bytes each.
    Value barriers = sharedBase(rewriter, loc, adaptor.getBarrier());
    Value barrier = LLVM::GEPOp::create(
        rewriter, loc, sharedPtr, rewriter.getI64Type(), barriers,
        ValueRange{arith::IndexCastOp::create(
            rewriter, loc, rewriter.getI64Type(), adaptor.getIndex())});
    Value peerBarrier =
        NVVM::MapaOp::create(rewriter, loc, clusterPtr, barrier, rank);
    NVVM::MBarrierArriveExpectTxOp::create(rewriter, loc, Type(), peerBarrier,
                                           size, NVVM::MemScopeKind::CLUSTER,
                                           /*relaxed=*/false, Value());
    Value peerDst = NVVM::MapaOp::create(
        rewriter, loc, clusterPtr,
        sharedBase(rewriter, loc, rewriter.getRemappedValue(ref.getSmem())),
        rank);
    Value barrierBits = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI64Type(), peerBarrier);
    Value barrierOperand =
        LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, barrierBits);
    NVVM::CpAsyncBulkSharedCTAToSharedClusterOp::create(
        rewriter, loc, peerDst, sharedBase(rewriter, loc, adaptor.getSrc()),
        barrierOperand, size);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::populateClusterToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const TargetInfo &target) {
  patterns.add<ClusterSyncToNVVM, ClusterRefToNVVM, AsyncStoreSmemToNVVM>(
      converter, patterns.getContext(), target);
}

void mlir::mgpu::arriveOnClusterPeers(OpBuilder &b, Location loc, Value local,
                                      ArrayRef<int64_t> dims) {
  SmallVector<Value> sizes, coords;
  for (gpu::Dimension d : kDims) {
    sizes.push_back(gpu::ClusterDimBlocksOp::create(b, loc, d));
    coords.push_back(gpu::ClusterBlockIdOp::create(b, loc, d));
  }
  SmallVector<Value> lower, upper, steps;
  for (int64_t d : dims) {
    lower.push_back(indexConstant(b, loc, 0));
    upper.push_back(sizes[d]);
    steps.push_back(indexConstant(b, loc, 1));
  }
  auto remoteType =
      LLVM::LLVMPointerType::get(b.getContext(), kClusterSharedSpace);
  scf::buildLoopNest(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nb, Location l, ValueRange ivs) {
        SmallVector<Value> peer(coords);
        for (auto [d, iv] : llvm::zip(dims, ivs))
          peer[d] = iv;
        Value rank = toI32(nb, l, clusterRank(nb, l, peer, sizes));
        Value remote = NVVM::MapaOp::create(nb, l, remoteType, local, rank);
        NVVM::MBarrierArriveOp::create(nb, l, Type(), remote, Value(),
                                       NVVM::MemScopeKind::CLUSTER);
      });
}

MulticastGroup mlir::mgpu::getMulticastGroup(OpBuilder &b, Location loc,
                                             ArrayRef<int64_t> dims,
                                             const int64_t (&sizes)[3]) {
  SmallVector<Value> coords, sizeValues;
  for (auto [d, dim] : llvm::enumerate(kDims)) {
    coords.push_back(gpu::ClusterBlockIdOp::create(b, loc, dim));
    sizeValues.push_back(indexConstant(b, loc, sizes[d]));
  }
  Value place = indexConstant(b, loc, 0);
  int64_t stride = 1, group = 1;
  for (int64_t d : dims) {
    place = arith::AddIOp::create(
        b, loc, place,
        arith::MulIOp::create(b, loc, coords[d],
                              indexConstant(b, loc, stride)));
    stride *= sizes[d];
    group *= sizes[d];
  }
  // Member k of the group: this CTA's coordinates, but k's along `dims`.
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value mask = arith::ConstantIntOp::create(b, loc, 0, 32);
  for (int64_t member = 0; member < group; ++member) {
    SmallVector<Value> peer(coords);
    int64_t rest = member;
    for (int64_t d : dims) {
      peer[d] = indexConstant(b, loc, rest % sizes[d]);
      rest /= sizes[d];
    }
    Value rank = toI32(b, loc, clusterRank(b, loc, peer, sizeValues));
    mask = arith::OrIOp::create(b, loc, mask,
                                arith::ShLIOp::create(b, loc, one, rank));
  }
  mask = arith::TruncIOp::create(b, loc, b.getI16Type(), mask);
  return {place, mask};
}

PairShare mlir::mgpu::getPairShare(OpBuilder &b, Location loc, Value barrier) {
  MLIRContext *ctx = b.getContext();
  Value rank = gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x);
  PairShare share;
  share.leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                       indexConstant(b, loc, 0));
  Value remote = NVVM::MapaOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kClusterSharedSpace), barrier,
      arith::ConstantIntOp::create(b, loc, 0, 32));
  share.leaderBarrier = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kSharedSpace),
      Value(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), remote)));
  return share;
}

void mlir::mgpu::arriveExpectingPair(OpBuilder &b, Location loc,
                                     const PairShare &pair, Value barrier,
                                     MemRefType shared) {
  auto ifLeader = scf::IfOp::create(b, loc, pair.leader, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLeader.thenBlock());
  int64_t bytes = 2 * shared.getNumElements() *
                  llvm::divideCeil(shared.getElementTypeBitWidth(), 8);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), barrier, arith::ConstantIntOp::create(b, loc, bytes, 32),
      NVVM::MemScopeKind::CTA,
      /*relaxed=*/false, Value());
}
