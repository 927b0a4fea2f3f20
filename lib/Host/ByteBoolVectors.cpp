//===- ByteBoolVectors.cpp - i1 vectors in byte-per-element memory --------===//
//
// A memref of i1 keeps one byte per element (that is how memref.store and
// LLVM's allocation size lay it out), but LLVM loads and stores a
// `<N x i1>` vector as N packed bits. Lowered as is, a vector load of
// `memref<...xi1>` on the host reads the first N/8 bytes as bits and gets
// wrong values. The same holds for 4-bit elements in the host's own
// buffers of whole vectors (--mgpu-vectors-to-loops; the user's 4-bit
// arrays are packed i8 memrefs by then). This pass rewrites the vector memory
// accesses of i1 vectors (loads, stores, their masked forms, and the 1-D
// transfers that become them) as gathers and scatters over consecutive indices,
// which LLVM performs element by element, one byte each. Host backends only:
// the GPU distribution already accesses i1 memory one element at a time.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUBYTEBOOLVECTORS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Elements that take a byte each in a memref but less in an LLVM vector:
/// i1 and the 4-bit types.
bool isPackedInVectors(Type element) {
  return element.isInteger(1) ||
         (element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 4);
}

/// A 1-D vector of such elements accessed in a memref (the only case LLVM
/// packs).
bool isBoolVectorAccess(VectorType vector, Value base) {
  return vector.getRank() == 1 && !vector.isScalable() &&
         isPackedInVectors(vector.getElementType()) &&
         isa<MemRefType>(base.getType());
}

/// 0, 1, ..., n-1: the gather / scatter offsets of a contiguous access.
Value consecutiveIndices(PatternRewriter &rewriter, Location loc, int64_t n) {
  auto type = VectorType::get({n}, rewriter.getIndexType());
  return vector::StepOp::create(rewriter, loc, type);
}

/// An i1 vector of `type`'s shape with every element `value`.
Value splat(PatternRewriter &rewriter, Location loc, VectorType type,
            bool value) {
  type = type.clone(rewriter.getI1Type());
  return arith::ConstantOp::create(
      rewriter, loc, DenseElementsAttr::get(type, rewriter.getBoolAttr(value)));
}

/// vector.load, vector.maskedload -> vector.gather and vector.store,
/// vector.maskedstore -> vector.scatter: the same elements, one at a time.
template <typename OpTy> struct AsGatherOrScatter : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool isLoad =
      llvm::is_one_of<OpTy, vector::LoadOp, vector::MaskedLoadOp>::value;
  static constexpr bool isMasked =
      llvm::is_one_of<OpTy, vector::MaskedLoadOp, vector::MaskedStoreOp>::value;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (!isBoolVectorAccess(type, op.getBase()))
      return failure();
    Location loc = op.getLoc();
    Value offsets = consecutiveIndices(rewriter, loc, type.getNumElements());
    Value mask;
    if constexpr (isMasked)
      mask = op.getMask();
    else
      mask = splat(rewriter, loc, type, true);
    if constexpr (isLoad) {
      Value passThru;
      if constexpr (isMasked)
        passThru = op.getPassThru();
      else
        passThru = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(type));
      rewriter.replaceOpWithNewOp<vector::GatherOp>(
          op, type, op.getBase(), op.getIndices(), offsets, mask, passThru);
    } else {
      vector::ScatterOp::create(rewriter, loc, Type(), op.getBase(),
                                op.getIndices(), offsets, mask,
                                op.getValueToStore());
      rewriter.eraseOp(op);
    }
    return success();
  }
};

struct ByteBoolVectors : mgpu::impl::MGPUByteBoolVectorsBase<ByteBoolVectors> {
  void runOnOperation() override {
    // Only the accesses of i1 and 4-bit vectors (and what their lowering
    // creates) are rewritten; every other transfer keeps its usual lowering.
    SmallVector<Operation *> accesses;
    getOperation()->walk([&](Operation *op) {
      auto type = TypeSwitch<Operation *, VectorType>(op)
                      .Case<vector::TransferReadOp, vector::TransferWriteOp,
                            vector::LoadOp, vector::StoreOp,
                            vector::MaskedLoadOp, vector::MaskedStoreOp>(
                          [](auto access) { return access.getVectorType(); })
                      .Default([](Operation *) { return VectorType(); });
      if (type && isPackedInVectors(type.getElementType()))
        accesses.push_back(op);
    });
    if (accesses.empty())
      return;
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMaskMaterializationPatterns(
        patterns, /*force32BitVectorIndices=*/false);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    patterns.add<AsGatherOrScatter<vector::LoadOp>,
                 AsGatherOrScatter<vector::MaskedLoadOp>,
                 AsGatherOrScatter<vector::StoreOp>,
                 AsGatherOrScatter<vector::MaskedStoreOp>>(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(accesses, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
