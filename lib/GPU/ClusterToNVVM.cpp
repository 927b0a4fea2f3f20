//===- ClusterToNVVM.cpp - Cluster ops on the GPU -------------------------===//
//
// The NVVM the cluster ops become (see the header): a cluster-wide barrier,
// remote arrivals on the mbarriers of the CTAs of a group (mapa to their
// shared::cluster addresses), and the CTA mask of a multicast copy. Cluster
// ranks are %cluster_ctarank's: x innermost.
//
//===----------------------------------------------------------------------===//

#include "ClusterToNVVM.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// shared::cluster addresses.
constexpr unsigned kClusterSharedSpace = 7;

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

Value toI32(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
}

/// cluster_sync -> barrier.cluster.arrive (release) and barrier.cluster.wait
/// (acquire) on every lane: every thread of every CTA of the cluster meets.
/// Before sm_90, which has no clusters, a CTA-wide barrier.
struct ClusterSyncToNVVM : public OpConversionPattern<ClusterSyncOp> {
  ClusterSyncToNVVM(const TypeConverter &converter, MLIRContext *ctx,
                    bool hopper)
      : OpConversionPattern(converter, ctx), hopper(hopper) {}
  LogicalResult
  matchAndRewrite(ClusterSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (hopper) {
      NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, op.getLoc(), UnitAttr());
    } else {
      gpu::BarrierOp::create(rewriter, op.getLoc());
    }
    rewriter.eraseOp(op);
    return success();
  }
  bool hopper;
};

} // namespace

void mlir::mgpu::populateClusterToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               bool hopper) {
  patterns.add<ClusterSyncToNVVM>(converter, patterns.getContext(), hopper);
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
