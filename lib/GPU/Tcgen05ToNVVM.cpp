//===- Tcgen05ToNVVM.cpp - Tensor memory and tcgen05 on the GPU -----------===//
//
// See the header. A TMEM buffer is its 32-bit tensor-memory address (TMEM
// lane in the high half, column in the low half) as an `!llvm.ptr<6>`. The
// conventions are the PTX ISA's (tcgen05): a shared-memory descriptor holds
// the start address, the leading and stride byte offsets (divided by 16, as
// for wgmma, whose canonical layouts tcgen05 shares), the fixed version
// 0b001 at bit 46 and the swizzle mode at bits 61-63 (SmemDescriptor.h); the
// instruction descriptor of kind::f16 holds the accumulator type (bits 4-5,
// 1: f32), the input types (bits 7-9 and 10-12, 1: bf16), whether b is
// N-major (bit 16), N / 8 (bits 17-22) and M / 16 (bits 24-28).
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/SmemDescriptor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

constexpr unsigned kSharedSpace = 3, kTensorSpace = 6;
/// The bits of K one tcgen05.mma takes (K = 16 of kind::f16, 32 of
/// kind::f8f6f4).
constexpr int64_t kStepBits = 256;

/// The K of one tcgen05.mma with inputs of `element`.
int64_t getKStep(Type element) {
  return kStepBits / element.getIntOrFloatBitWidth();
}
/// The most 32-bit columns one tcgen05.ld / st of shape 32x32b moves.
constexpr int64_t kMaxMoveColumns = 128;

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}
Value i64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

/// The CTA group of a tcgen05 instruction: one CTA, or the pair of a
/// collective MMA (cta_group::2).
NVVM::CTAGroupKindAttr ctaGroup(OpBuilder &b, bool pair) {
  return NVVM::CTAGroupKindAttr::get(b.getContext(),
                                     pair ? NVVM::CTAGroupKind::CTA_2
                                          : NVVM::CTAGroupKind::CTA_1);
}

/// The shared-memory address (as i64) of element `element` of `memref`.
Value sharedAddress(OpBuilder &b, Location loc, Value memref, Value element) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  int64_t bytes =
      cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  Value offset = arith::AddIOp::create(b, loc, metadata.getOffset(), element);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, offset, indexConstant(b, loc, bytes)));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}

Value sharedPointer(OpBuilder &b, Location loc, Value memref, Value element) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace),
      sharedAddress(b, loc, memref, element));
}

/// The TMEM address `tmem` moved by `lanes` TMEM lanes and `columns`.
Value tmemAt(OpBuilder &b, Location loc, Value tmem, Value lanes,
             int64_t columns) {
  Value bits = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tmem);
  bits = arith::AddIOp::create(
      b, loc, bits,
      arith::AddIOp::create(
          b, loc, arith::ShLIOp::create(b, loc, lanes, i32(b, loc, 16)),
          i32(b, loc, columns)));
  return LLVM::IntToPtrOp::create(b, loc, tmem.getType(), bits);
}

template <typename OpTy>
struct Tcgen05Pattern : public OpConversionPattern<OpTy> {
  Tcgen05Pattern(const TypeConverter &converter, MLIRContext *ctx,
                 const TargetInfo &target)
      : OpConversionPattern<OpTy>(converter, ctx), target(target) {}

  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  /// On a chip without tcgen05 every such op is an error at the op.
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!target.hasTcgen05())
      return op.emitOpError()
             << "needs Blackwell's tensor cores (tcgen05, tensor memory): "
                "compile for chip=sm_100a";
    return lowerOnBlackwell(op, adaptor, rewriter);
  }
  /// The lowering proper, on a chip with tcgen05.
  virtual LogicalResult
  lowerOnBlackwell(OpTy op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const {
    return failure();
  }

  const TargetInfo &target;
};

/// tmem_alloc -> tcgen05.alloc of the columns into the slot, then
/// tcgen05.relinquish_alloc_permit (the first warp runs it).
struct TmemAllocToNVVM : public Tcgen05Pattern<TmemAllocOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemAllocOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::Tcgen05AllocOp::create(rewriter, loc,
                                 sharedPointer(rewriter, loc, adaptor.getSlot(),
                                               indexConstant(rewriter, loc, 0)),
                                 i32(rewriter, loc, op.getColumns()),
                                 ctaGroup(rewriter, op.getCollective()));
    NVVM::Tcgen05RelinquishAllocPermitOp::create(
        rewriter, loc, ctaGroup(rewriter, op.getCollective()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The TMEM address that tcgen05.alloc wrote to `slot`, moved `columns`.
Value loadTmemAddress(OpBuilder &b, Location loc, Value slot, int64_t columns) {
  Value bits = memref::LoadOp::create(b, loc, slot,
                                      ValueRange{indexConstant(b, loc, 0)});
  bits = arith::AddIOp::create(b, loc, bits, i32(b, loc, columns));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kTensorSpace), bits);
}

/// tmem_dealloc -> tcgen05.dealloc of the allocation at the slot's address.
struct TmemDeallocToNVVM : public Tcgen05Pattern<TmemDeallocOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemDeallocOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::Tcgen05DeallocOp::create(
        rewriter, loc, loadTmemAddress(rewriter, loc, adaptor.getSlot(), 0),
        i32(rewriter, loc, op.getColumns()),
        ctaGroup(rewriter, op.getCollective()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// tmem_ref -> the slot's address plus the buffer's column offset.
struct TmemRefToNVVM : public Tcgen05Pattern<TmemRefOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemRefOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       loadTmemAddress(rewriter, op.getLoc(), adaptor.getSlot(),
                                       op.getColumnOffset()));
    return success();
  }
};

/// tmem_slice -> the buffer's address moved by the slice's first column
/// (32-bit columns: half the element for 16-bit elements).
struct TmemSliceToNVVM : public Tcgen05Pattern<TmemSliceOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemSliceOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t bits = op.getType().getElementType().getIntOrFloatBitWidth();
    Value column = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI32Type(), adaptor.getColumn());
    if (bits == 16)
      column =
          arith::ShRUIOp::create(rewriter, loc, column, i32(rewriter, loc, 1));
    Value address = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI32Type(), adaptor.getSrc());
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
        op, adaptor.getSrc().getType(),
        Value(arith::AddIOp::create(rewriter, loc, address, column)));
    return success();
  }
};

/// The descriptors of a tiled operand, one per K step (see
/// DistributeContractions.cpp for wgmma's, whose layout rules these
/// share).
struct Descriptors {
  /// The address of the view's first element.
  Value base;
  int64_t leading = 0, stride = 0, kStep = 16;
  SwizzledTiling tiling;
  int64_t tilesPerRow = 0;
  bool kMajor = true;

  Value at(OpBuilder &b, Location loc, int64_t step) const {
    int64_t offset = 0;
    if (kMajor) {
      int64_t col = step * kStep;
      offset += (col / tiling.cols) * tiling.tileBytes() +
                (col % tiling.cols) * tiling.elementBytes;
    } else {
      int64_t row = step * kStep;
      offset += (row / tiling.rows) * tilesPerRow * tiling.tileBytes() +
                (row % tiling.rows) * tiling.swizzleBytes;
    }
    Value address = arith::AddIOp::create(b, loc, base, i64(b, loc, offset));
    Value start = arith::ShRUIOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, address,
                              i64(b, loc, ::mgpu::kDescriptorAddressMask)),
        i64(b, loc, 4));
    uint64_t fields = ::mgpu::encodeDescriptorFields(
        ::mgpu::DescriptorKind::Tcgen05, leading, stride, tiling.swizzleBytes);
    return arith::OrIOp::create(b, loc, start,
                                i64(b, loc, static_cast<int64_t>(fields)));
  }
};

Descriptors getDescriptors(OpBuilder &b, Tcgen05MmaOp op, Value operand,
                           Type originalType, ArrayAttr transforms, bool isA) {
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, isA ? "a" : "b", originalType, transforms,
                      /*dynamicOffsets=*/true);
  assert(succeeded(tiled) && "verified tiled operand");
  Descriptors d;
  d.kStep = getKStep(cast<ShapedType>(originalType).getElementType());
  int64_t kStep = d.kStep;
  d.tiling = tiled->tiling;
  d.tilesPerRow = tiled->width / tiled->tiling.cols;
  Location loc = op.getLoc();
  d.base = arith::AddIOp::create(
      b, loc,
      arith::IndexCastOp::create(
          b, loc, b.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand)),
      arith::IndexCastOp::create(
          b, loc, b.getI64Type(),
          buildTiledOperandOrigin(b, loc, operand, *tiled)));
  int64_t span = isA ? 128
                 : tiled->transposed
                     ? cast<ShapedType>(originalType).getDimSize(1)
                     : kStep;
  d.stride = *getTiledGroupStride(*tiled, span);
  d.kMajor = isA || tiled->transposed;
  d.leading = d.kMajor ? 16 : d.tiling.tileBytes();
  return d;
}

/// tcgen05_mma -> tcgen05.fence::after_thread_sync, then one
/// tcgen05.mma.cta_group::1.kind::f16 (::2 for a pair) per K step of 16,
/// the first one
/// adding to the accumulator only with `accumulate` (the distribution puts
/// the op on lane 0: one thread issues).
struct Tcgen05MmaToNVVM : public Tcgen05Pattern<Tcgen05MmaOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(Tcgen05MmaOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    // a in TMEM: its address, 8 columns (16 packed elements) further each
    // K step; else descriptors of the tiled shared-memory buffer.
    bool aInTmem = isa<TmemType>(op.getA().getType());
    std::optional<Descriptors> a;
    if (!aInTmem)
      a = getDescriptors(rewriter, op, adaptor.getA(), op.getA().getType(),
                         op.getATransformsAttr(), /*isA=*/true);
    Descriptors b = getDescriptors(rewriter, op, adaptor.getB(),
                                   op.getB().getType(), op.getBTransformsAttr(),
                                   /*isA=*/false);
    TmemType accType = op.getAcc().getType();
    // Input formats: kind::f16 f16 0, bf16 1; kind::f8f6f4 e4m3 0, e5m2 1.
    auto format = [](Type element) -> uint32_t {
      return isa<BFloat16Type, Float8E5M2Type>(element) ? 1 : 0;
    };
    Type bElement = cast<MemRefType>(op.getB().getType()).getElementType();
    Type aElement =
        aInTmem ? cast<TmemType>(op.getA().getType()).getElementType()
                : cast<MemRefType>(op.getA().getType()).getElementType();
    bool f8 = bElement.getIntOrFloatBitWidth() == 8;
    int64_t kStep = getKStep(bElement);
    // A pair's MMA is M = 256 (each CTA's 128 rows) by the accumulator's
    // 2N columns (each CTA's b holds N of them).
    bool pair = op.getCollectiveAxis().has_value();
    int64_t m = accType.getRows() * (pair ? 2 : 1);
    uint32_t idesc = (1u << 4) | (format(aElement) << 7) |
                     (format(bElement) << 10) | (uint32_t(!b.kMajor) << 16) |
                     (uint32_t(accType.getColumns() >> 3) << 17) |
                     (uint32_t(m >> 4) << 24);
    Value instr = i32(rewriter, loc, static_cast<int32_t>(idesc));
    Value accumulate =
        adaptor.getAccumulate()
            ? adaptor.getAccumulate()
            : Value(arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    Value always = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    int64_t k = cast<MemRefType>(op.getB().getType()).getDimSize(0);
    Value noLanes = i32(rewriter, loc, 0);
    for (int64_t step = 0; step < k / kStep; ++step)
      NVVM::Tcgen05MMAOp::create(
          rewriter, loc,
          NVVM::Tcgen05MMAKindAttr::get(ctx, f8 ? NVVM::Tcgen05MMAKind::F8F6F4
                                                : NVVM::Tcgen05MMAKind::F16),
          ctaGroup(rewriter, pair),
          NVVM::Tcgen05MMACollectorOpAttr::get(
              ctx, NVVM::Tcgen05MMACollectorOp::DISCARD),
          UnitAttr(), adaptor.getAcc(),
          aInTmem
              ? tmemAt(rewriter, loc, adaptor.getA(), noLanes, step * kStep / 2)
              : a->at(rewriter, loc, step),
          b.at(rewriter, loc, step), instr, step ? always : accumulate, Value(),
          Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcgen05_commit_arrive -> tcgen05.commit.cta_group::1.mbarrier::arrive::one
/// on the barrier (lane 0, the thread that issued the MMAs); a collective
/// one, .cta_group::2 multicast to both CTAs of the pair.
struct Tcgen05CommitArriveToNVVM
    : public Tcgen05Pattern<Tcgen05CommitArriveOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(Tcgen05CommitArriveOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A pair's commit arrives on the barrier of both CTAs (cluster ranks 0
    // and 1: the cluster is the pair).
    bool pair = op.getCollectiveAxis().has_value();
    Value mask;
    if (pair)
      mask = arith::ConstantIntOp::create(rewriter, loc, 3, 16);
    NVVM::Tcgen05CommitOp::create(
        rewriter, loc,
        sharedPointer(rewriter, loc, adaptor.getBarrier(), adaptor.getIndex()),
        mask, ctaGroup(rewriter, pair));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The columns of the next tcgen05.ld / st of a row with `left` columns
/// to go: a power of two (its .x{n}), at most 128.
int64_t getMoveColumns(int64_t left) {
  return std::min<int64_t>(kMaxMoveColumns, llvm::bit_floor(uint64_t(left)));
}

/// The TMEM address of this lane's row: warp w of the warpgroup reaches
/// TMEM lanes 32w to 32w + 31, the lane its own (row is the lane).
Value rowAddress(OpBuilder &b, Location loc, Value tmem, Value row,
                 int64_t column) {
  Value warpRow = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::MulIOp::create(
          b, loc,
          arith::DivUIOp::create(b, loc, row, indexConstant(b, loc, 32)),
          indexConstant(b, loc, 32)));
  return tmemAt(b, loc, tmem, warpRow, column);
}

/// tmem_lane_load -> tcgen05.fence::after_thread_sync (the MMA that wrote
/// the rows completed before the barrier wait that precedes the load: the
/// fence orders the load after that wait, as JAX's waits on barriers with
/// orders_tensor_core do), tcgen05.ld.sync.aligned.32x32b.x{n} per
/// power-of-two piece of at most 128 columns, from the op's first column,
/// then tcgen05.wait::ld.
struct TmemLaneLoadToNVVM : public Tcgen05Pattern<TmemLaneLoadOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemLaneLoadOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType type = op.getType();
    // 32-bit columns: one f32, or two packed 16-bit elements.
    int64_t columns =
        type.getNumElements() * type.getElementTypeBitWidth() / 32;
    auto words = VectorType::get({columns}, rewriter.getI32Type());
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value result = arith::ConstantOp::create(rewriter, loc, words,
                                             rewriter.getZeroAttr(words));
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(
        rewriter.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    for (int64_t first = 0, count; first < columns; first += count) {
      count = getMoveColumns(columns - first);
      Value bits = NVVM::Tcgen05LdOp::create(
          rewriter, loc, VectorType::get({count}, rewriter.getI32Type()),
          UnitAttr(), shape,
          rowAddress(rewriter, loc, adaptor.getSrc(), adaptor.getRow(),
                     op.getColumn() + first),
          Value());
      result = vector::InsertStridedSliceOp::create(rewriter, loc, bits, result,
                                                    first, 1);
    }
    NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::LOAD);
    // An MMA that a thread issues after a barrier may overwrite the rows
    // read here.
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.replaceOp(op,
                       vector::BitCastOp::create(rewriter, loc, type, result));
    return success();
  }
};

/// tmem_lane_store -> tcgen05.fence::after_thread_sync (ordered after the
/// wait that says no MMA still reads the rows), then
/// tcgen05.st.sync.aligned.32x32b.x{n} per power-of-two piece of at most 128
/// columns,
/// tcgen05.wait::st, then tcgen05.fence::before_thread_sync so that the
/// barrier that follows orders the stores before an MMA.
struct TmemLaneStoreToNVVM : public Tcgen05Pattern<TmemLaneStoreOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(TmemLaneStoreOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType type = op.getValue().getType();
    // 32-bit columns: one f32, or two packed 16-bit elements.
    int64_t columns =
        type.getNumElements() * type.getElementTypeBitWidth() / 32;
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value words = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({columns}, rewriter.getI32Type()),
        adaptor.getValue());
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(
        rewriter.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    for (int64_t first = 0, count; first < columns; first += count) {
      count = getMoveColumns(columns - first);
      Value bits = vector::ExtractStridedSliceOp::create(rewriter, loc, words,
                                                         first, count, 1);
      NVVM::Tcgen05StOp::create(
          rewriter, loc, UnitAttr(), shape,
          rowAddress(rewriter, loc, adaptor.getDst(), adaptor.getRow(), first),
          bits, Value());
    }
    NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::STORE);
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};

/// wait_load_tmem -> nothing: each lane load already waited.
struct WaitLoadTmemToNVVM : public Tcgen05Pattern<WaitLoadTmemOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  matchAndRewrite(WaitLoadTmemOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// commit_tmem -> tcgen05.wait::st, then tcgen05.fence::before_thread_sync:
/// this thread's stores are complete and ordered before the barrier that
/// lets an MMA read them. (Each lane store already ends that way; JAX's
/// kernels commit explicitly.)
struct CommitTmemToNVVM : public Tcgen05Pattern<CommitTmemOp> {
  using Tcgen05Pattern::Tcgen05Pattern;
  LogicalResult
  lowerOnBlackwell(CommitTmemOp op, OpAdaptor,
                   ConversionPatternRewriter &rewriter) const override {
    NVVM::Tcgen05WaitOp::create(rewriter, op.getLoc(),
                                NVVM::Tcgen05WaitKind::STORE);
    NVVM::Tcgen05FenceOp::create(rewriter, op.getLoc(),
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mgpu::populateTcgen05ToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const TargetInfo &target) {
  patterns
      .add<TmemAllocToNVVM, TmemDeallocToNVVM, TmemRefToNVVM, TmemSliceToNVVM,
           Tcgen05MmaToNVVM, Tcgen05CommitArriveToNVVM, TmemLaneLoadToNVVM,
           TmemLaneStoreToNVVM, WaitLoadTmemToNVVM, CommitTmemToNVVM>(
          converter, patterns.getContext(), target);
}
