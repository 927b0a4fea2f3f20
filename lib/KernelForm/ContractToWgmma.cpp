//===- ContractToWgmma.cpp - Plain matmuls of staged blocks as wgmma ------===//
//
// A Pallas body written without kernel-level ops multiplies its blocks with
// `jnp.dot(a_ref[...], b_ref[...])`: in MLIR a `vector.contract` of two
// whole-block `vector.transfer_read`s of shared memory. On the tensor-core
// pipelines this pass makes such a contraction an `mgpu.wgmma` reading the
// two blocks in place (views at the transfers' indices), so that it runs as
// wgmma.mma_async and the pipeline expansion may stage its blocks in the
// swizzled layout. Only what the tensor-core lowering takes is rewritten: a
// matmul (m, k) x (k, n) -> (m, n), or with b transposed, (m, k) x (n, k)
// (`a @ b.T`, attention's q k^T: b becomes a transposed view, which the
// tensor cores read K-major), with a read from shared memory or computed in
// registers (attention's p @ v), a transposed a, (k, m), read through a
// transposed view (the tensor-core lowering copies it into place), summing
// f16 or bf16 products
// into an f32 accumulator, M a multiple of 64, N of 8 up to 256, K of 16,
// blocks read whole (in-bounds minor-identity reads of 2-d shared memrefs). The
// arithmetic is wgmma's (f32 sums in k order), which every backend shares.
// A contraction in a kernel body that stays on the lanes gets a
// missed-optimization remark (category `mgpu-tensor-cores`) saying why.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/IR/Remarks.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUCONTRACTTOWGMMA
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The shared-memory block that `value` reads whole at its indices: an
/// in-bounds, unmasked, minor-identity transfer_read of a 2-d memref in
/// workgroup memory.
vector::TransferReadOp getBlockRead(Value value) {
  auto read = value.getDefiningOp<vector::TransferReadOp>();
  if (!read || read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
    return {};
  auto memref = dyn_cast<MemRefType>(read.getBase().getType());
  if (!memref || memref.getRank() != 2 || read.getVectorType().getRank() != 2 ||
      !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref))
    return {};
  // A read that claims to be in bounds but is larger than its buffer has
  // no view (the host backends' checks report it at run time).
  for (auto [size, dim] :
       llvm::zip(read.getVectorType().getShape(), memref.getShape()))
    if (!ShapedType::isDynamic(dim) && size > dim)
      return {};
  return read;
}

/// Which operands of a matmul `maps` reads transposed: a as (k, m) or
/// (m, k), b as (n, k) or (k, n), the result as (m, n); none when `maps` are
/// not a matmul's.
std::optional<std::pair<bool, bool>> getMatmulTransposes(ArrayAttr maps) {
  if (maps.size() != 3)
    return std::nullopt;
  MLIRContext *ctx = maps.getContext();
  AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
             k = getAffineDimExpr(2, ctx);
  auto is = [&](Attribute attr, ArrayRef<AffineExpr> results) {
    return cast<AffineMapAttr>(attr).getValue() ==
           AffineMap::get(3, 0, results, ctx);
  };
  if (!is(maps[2], {m, n}) || !(is(maps[0], {m, k}) || is(maps[0], {k, m})) ||
      !(is(maps[1], {k, n}) || is(maps[1], {n, k})))
    return std::nullopt;
  return std::make_pair(is(maps[0], {k, m}), is(maps[1], {n, k}));
}

struct ContractToWgmma : public OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<std::pair<bool, bool>> transposes =
        getMatmulTransposes(op.getIndexingMaps());
    if (op.getKind() != vector::CombiningKind::ADD ||
        isa<vector::MaskOp>(op->getParentOp()) || !transposes)
      return rewriter.notifyMatchFailure(op, "not a matmul");
    auto [transposedA, transposedB] = *transposes;
    auto accType = dyn_cast<VectorType>(op.getAccType());
    vector::TransferReadOp lhs = getBlockRead(op.getLhs());
    vector::TransferReadOp rhs = getBlockRead(op.getRhs());
    // a computed in registers (attention's p) is wgmma's register a.
    bool registerA = !lhs && op.getLhsType().getRank() == 2;
    if (!accType || !accType.getElementType().isF32() || (!lhs && !registerA) ||
        !rhs)
      return rewriter.notifyMatchFailure(
          op, "needs an f32 accumulator, a read from shared memory or in "
              "registers, and b read from shared memory");
    Type input = op.getLhsType().getElementType();
    if (!isa<Float16Type, BFloat16Type>(input) ||
        op.getRhsType().getElementType() != input)
      return rewriter.notifyMatchFailure(op, "inputs are not f16 or bf16");
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
            k = op.getLhsType().getDimSize(transposedA ? 0 : 1);
    if (m % 64 || n % 8 || n > 256 || k % 16)
      return rewriter.notifyMatchFailure(op, "not a wgmma shape");
    if (!op->getParentOfType<PallasCallOp>() &&
        !op->getParentOfType<MpmdMapOp>() &&
        !op->getParentOfType<EmitPipelineOp>())
      return rewriter.notifyMatchFailure(op, "not in a kernel body");

    Location loc = op.getLoc();
    Value b = transposedB ? transposedView(rewriter, loc, rhs, n)
                          : view(rewriter, loc, rhs, 0, k);
    // An accumulator block read and written back whole is updated 64 rows
    // at a time, as JAX's consumer warpgroups do: one warpgroup's MMA and a
    // 64 x N accumulator, which the tensor-core lowering keeps in registers.
    auto accRead = op.getAcc().getDefiningOp<vector::TransferReadOp>();
    vector::TransferWriteOp accWrite = getWriteBack(op, accRead);
    if (m > 64 && accRead && accWrite && !registerA) {
      auto halfType = VectorType::get({64, n}, accType.getElementType());
      // Each half is read where the block was, multiplied where the
      // contraction was and written back where the block was.
      for (int64_t row = 0; row < m; row += 64) {
        rewriter.setInsertionPoint(accRead);
        SmallVector<Value> indices(accRead.getIndices());
        indices[0] = arith::AddIOp::create(
            rewriter, loc, indices[0],
            arith::ConstantIndexOp::create(rewriter, loc, row));
        Value acc = vector::TransferReadOp::create(
            rewriter, loc, halfType, accRead.getBase(), indices,
            accRead.getPadding(), ArrayRef<bool>{true, true});
        rewriter.setInsertionPoint(op);
        Value result = WgmmaOp::create(rewriter, loc, halfType, acc,
                                       view(rewriter, loc, lhs, row, 64), b,
                                       ArrayAttr(), ArrayAttr());
        rewriter.setInsertionPoint(accWrite);
        vector::TransferWriteOp::create(rewriter, loc, result,
                                        accWrite.getBase(), indices,
                                        ArrayRef<bool>{true, true});
      }
      rewriter.eraseOp(accWrite);
      rewriter.eraseOp(op);
      rewriter.eraseOp(accRead);
      eraseIfUnused(rewriter, lhs, rhs);
      return success();
    }
    Value a;
    if (!registerA)
      a = transposedA ? transposedView(rewriter, loc, lhs, k)
                      : view(rewriter, loc, lhs, 0, m);
    else if (transposedA)
      a = vector::TransposeOp::create(rewriter, loc, op.getLhs(),
                                      ArrayRef<int64_t>{1, 0});
    else
      a = op.getLhs();
    rewriter.replaceOpWithNewOp<WgmmaOp>(op, accType, op.getAcc(), a, b,
                                         ArrayAttr(), ArrayAttr());
    eraseIfUnused(rewriter, lhs, rhs);
    return success();
  }

  /// The block reads the contraction used, now replaced by views (whose
  /// bounds the host backends check as they did the reads').
  static void eraseIfUnused(PatternRewriter &rewriter,
                            vector::TransferReadOp lhs,
                            vector::TransferReadOp rhs) {
    if (lhs && lhs->use_empty())
      rewriter.eraseOp(lhs);
    if (rhs != lhs && rhs->use_empty())
      rewriter.eraseOp(rhs);
  }

  /// The block `read` reads (`rows` rows), viewed transposed.
  static Value transposedView(PatternRewriter &rewriter, Location loc,
                              vector::TransferReadOp read, int64_t rows) {
    return memref::TransposeOp::create(
        rewriter, loc, view(rewriter, loc, read, 0, rows),
        AffineMapAttr::get(AffineMap::getPermutationMap(
            ArrayRef<unsigned>{1, 0}, rewriter.getContext())));
  }

  /// The rows [row, row + rows) of the block `read` reads, as a view.
  static Value view(PatternRewriter &rewriter, Location loc,
                    vector::TransferReadOp read, int64_t row, int64_t rows) {
    SmallVector<OpFoldResult> offsets =
        getAsOpFoldResult(ValueRange(read.getIndices()));
    if (row) {
      AffineExpr d0 = rewriter.getAffineDimExpr(0);
      offsets[0] = affine::makeComposedFoldedAffineApply(rewriter, loc,
                                                         d0 + row, offsets[0]);
    }
    SmallVector<OpFoldResult> sizes = {
        rewriter.getIndexAttr(rows),
        rewriter.getIndexAttr(read.getVectorType().getDimSize(1))};
    SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
    return memref::SubViewOp::create(rewriter, loc, read.getBase(), offsets,
                                     sizes, strides);
  }

  /// The only use of `op`'s result when it writes the result back whole
  /// where `accRead` (used by `op` only) read it.
  static vector::TransferWriteOp getWriteBack(vector::ContractionOp op,
                                              vector::TransferReadOp accRead) {
    if (!accRead || !accRead->hasOneUse() || accRead.getMask() ||
        !accRead.getPermutationMap().isMinorIdentity() || !op->hasOneUse())
      return {};
    auto write = dyn_cast<vector::TransferWriteOp>(*op->user_begin());
    if (!write || write.getMask() || write.getBase() != accRead.getBase() ||
        write.getIndices() != accRead.getIndices() ||
        !write.getPermutationMap().isMinorIdentity() ||
        write->getBlock() != op->getBlock())
      return {};
    return write;
  }
};

/// Keeps the reason of the last match failure, for the remark.
struct FailureReason : public RewriterBase::Listener {
  std::string reason;
  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    Diagnostic diag(loc, DiagnosticSeverity::Remark);
    reasonCallback(diag);
    reason = diag.str();
  }
};

struct ContractToWgmmaPass
    : public mgpu::impl::MGPUContractToWgmmaBase<ContractToWgmmaPass> {
  void runOnOperation() override {
    // Each contraction once, without a driver's clean-up: the greedy one
    // would also erase unrelated unused reads, whose out-of-bounds checks
    // the host backends must keep.
    SmallVector<vector::ContractionOp> contractions;
    getOperation()->walk(
        [&](vector::ContractionOp op) { contractions.push_back(op); });
    ContractToWgmma pattern(&getContext());
    PatternRewriter rewriter(&getContext());
    FailureReason failure;
    rewriter.setListener(&failure);
    for (vector::ContractionOp op : contractions) {
      rewriter.setInsertionPoint(op);
      Location loc = op.getLoc();
      bool inKernel = op->getParentOfType<PallasCallOp>() ||
                      op->getParentOfType<MpmdMapOp>() ||
                      op->getParentOfType<EmitPipelineOp>();
      if (succeeded(pattern.matchAndRewrite(op, rewriter)) || !inKernel)
        continue;
      remark::missed(loc, remark::RemarkOpts::name("LaneContraction")
                              .category("mgpu-tensor-cores")
                              .subCategory("contract-to-wgmma"))
          << remark::reason("this contraction stays on the lanes: {0}",
                            failure.reason);
    }
  }
};

} // namespace
