//===- PrimitivesToCPU.cpp - Kernel-level ops on the host -----------------===//
//
// Conversion patterns for the interpret mode (see the header). Each pattern
// opens with what it rewrites into what.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/KernelForm/AtomicKinds.h"
#include "mgpu/KernelForm/CopyWindows.h"
#include "mgpu/KernelForm/DebugPrint.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/TmaReductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::populateBarrierTypeConversion(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](BarrierLikeType type) -> Type {
    return MemRefType::get({type.getCount()},
                           IntegerType::get(type.getContext(), 64));
  });
  converter.addConversion(
      [](TmemType type) -> Type { return type.getHostMemRefType(); });
}

void mlir::mgpu::copyWindow(OpBuilder &b, Location loc, Value global,
                            ArrayRef<OpFoldResult> offsets, Value shared,
                            bool toShared) {
  auto sharedType = cast<MemRefType>(shared.getType());
  // A whole array copies as is; a view (even one given whole) is a window
  // of the array it views, clipped there.
  if (offsets.empty() && !global.getDefiningOp<memref::SubViewOp>()) {
    if (toShared)
      memref::CopyOp::create(b, loc, global, shared);
    else
      memref::CopyOp::create(b, loc, shared, global);
    return;
  }
  // A window of a view clips at the bounds of the array the view is of, as
  // TMA does through the array's tensor map (and JAX's sliced refs).
  GlobalWindow window = resolveGlobalWindow(b, loc, global, offsets);
  global = window.base;
  Value zero = indexConstant(b, loc, 0);
  Value partial = arith::ConstantIntOp::create(b, loc, 0, 1);
  SmallVector<OpFoldResult> globalOffsets, sharedOffsets, sizes, strides;
  for (auto [d, offset] : llvm::enumerate(window.offsets)) {
    Value size = indexConstant(b, loc, sharedType.getDimSize(d));
    Value extent = memref::DimOp::create(b, loc, global, d);
    Value lo = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, offset, zero), extent);
    Value hi = arith::MaxSIOp::create(
        b, loc,
        arith::MinSIOp::create(
            b, loc, arith::AddIOp::create(b, loc, offset, size), extent),
        lo);
    Value count = arith::SubIOp::create(b, loc, hi, lo);
    partial = arith::OrIOp::create(
        b, loc, partial,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, size));
    globalOffsets.push_back(lo);
    // Where the clipped part starts in the window: 0 unless the window
    // starts before the array; clamped to the window when none of it is
    // inside (a window wholly before or past the array copies nothing).
    sharedOffsets.push_back(Value(arith::MaxSIOp::create(
        b, loc,
        arith::MinSIOp::create(b, loc,
                               arith::SubIOp::create(b, loc, lo, offset), size),
        zero)));
    sizes.push_back(count);
    strides.push_back(b.getIndexAttr(1));
  }
  Value globalView =
      memref::SubViewOp::create(b, loc, global, globalOffsets, sizes, strides);
  Value sharedView =
      memref::SubViewOp::create(b, loc, shared, sharedOffsets, sizes, strides);
  if (!toShared) {
    linalg::CopyOp::create(b, loc, sharedView, globalView);
    return;
  }
  auto ifPartial = scf::IfOp::create(b, loc, partial, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifPartial.thenBlock());
    Value zeroElement = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(sharedType.getElementType())));
    linalg::FillOp::create(b, loc, zeroElement, shared);
  }
  linalg::CopyOp::create(b, loc, globalView, sharedView);
}

namespace {

/// A pattern that knows whether shared buffers with transforms are stored
/// in their physical layout (HostSmemLayouts.cpp).
template <typename OpTy>
struct LayoutAwarePattern : public OpConversionPattern<OpTy> {
  LayoutAwarePattern(const TypeConverter &converter, MLIRContext *ctx,
                     bool smemLayouts)
      : OpConversionPattern<OpTy>(converter, ctx), smemLayouts(smemLayouts) {}
  /// The transforms a copy or an operand is moved through (null: none, or
  /// physical layouts off).
  ArrayAttr layout(ArrayAttr transforms) const {
    return smemLayouts ? transforms : ArrayAttr();
  }
  bool smemLayouts;
};

/// copy_gmem_to_smem -> a clipped synchronous copy, then one arrival.
struct CopyGmemToSmemToCPU : public LayoutAwarePattern<CopyGmemToSmemOp> {
  using LayoutAwarePattern::LayoutAwarePattern;
  LogicalResult
  matchAndRewrite(CopyGmemToSmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Without a barrier (a pre-Hopper cp.async copy) the copy is complete
    // before the wait_gmem_to_smem that covers it, as here.
    if (!op.getBarrier()) {
      copyWindow(rewriter, op.getLoc(), adaptor.getSrc(), op.getMixedOffsets(),
                 adaptor.getDst(), /*toShared=*/true);
      rewriter.eraseOp(op);
      return success();
    }
    BarrierLikeType type = op.getBarrier().getType();
    checkBarrierIndex(rewriter, op, adaptor.getBarrierIndex(), type.getCount());
    // With physical layouts the window lands tiled and swizzled, as TMA
    // lands it; otherwise the buffer stays row-major, and so do its readers.
    if (ArrayAttr transforms = layout(op.getTransformsAttr())) {
      auto type = cast<MemRefType>(adaptor.getDst().getType());
      Value rowMajor = memref::AllocOp::create(
          rewriter, op.getLoc(),
          MemRefType::get(type.getShape(), type.getElementType()));
      copyWindow(rewriter, op.getLoc(), adaptor.getSrc(), op.getMixedOffsets(),
                 rowMajor, /*toShared=*/true);
      writeThroughLayout(rewriter, op, adaptor.getDst(), rowMajor, transforms);
      memref::DeallocOp::create(rewriter, op.getLoc(), rowMajor);
    } else {
      copyWindow(rewriter, op.getLoc(), adaptor.getSrc(), op.getMixedOffsets(),
                 adaptor.getDst(), /*toShared=*/true);
    }
    arriveOnHostBarrier(rewriter, op,
                        getElementPointer(rewriter, op.getLoc(),
                                          adaptor.getBarrier(),
                                          adaptor.getBarrierIndex()),
                        type.getArrivals());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Combines `shared` into the window of `global` at element `offsets`
/// (none: the whole of `global`), element by element with host atomics (the
/// programs of a grid may run on concurrent host threads); elements past
/// `global` are skipped.
void reduceWindow(OpBuilder &b, Location loc, TmaReduction kind, Value global,
                  ArrayRef<OpFoldResult> offsets, Value shared) {
  auto sharedType = cast<MemRefType>(shared.getType());
  int64_t rank = sharedType.getRank();
  // Clipped at the bounds of the array a view is of, as copyWindow.
  SmallVector<OpFoldResult> resolved;
  if (!offsets.empty()) {
    GlobalWindow window = resolveGlobalWindow(b, loc, global, offsets);
    global = window.base;
    resolved = getAsOpFoldResult(window.offsets);
    offsets = resolved;
  }
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> lower(rank, zero), upper,
      steps(rank, indexConstant(b, loc, 1));
  for (int64_t size : sharedType.getShape())
    upper.push_back(indexConstant(b, loc, size));
  scf::buildLoopNest(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nb, Location l, ValueRange ivs) {
        SmallVector<Value> at;
        Value inside = arith::ConstantIntOp::create(nb, l, 1, 1);
        for (auto [d, iv] : llvm::enumerate(ivs)) {
          Value g = iv;
          if (!offsets.empty())
            g = arith::AddIOp::create(
                nb, l, getValueOrCreateConstantIndexOp(nb, l, offsets[d]), iv);
          // Unsigned: an index before the array wraps past its extent.
          inside = arith::AndIOp::create(
              nb, l, inside,
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, g,
                                    memref::DimOp::create(nb, l, global, d)));
          at.push_back(g);
        }
        auto ifInside = scf::IfOp::create(nb, l, inside, false);
        OpBuilder::InsertionGuard guard(nb);
        nb.setInsertionPointToStart(ifInside.thenBlock());
        Value x = memref::LoadOp::create(nb, l, shared, ivs);
        emitTmaReductionAtomic(nb, l, kind, x, global, at);
      });
}

/// copy_smem_to_gmem -> a clipped synchronous copy; with a reduction, a
/// clipped loop of host atomics.
struct CopySmemToGmemToCPU : public LayoutAwarePattern<CopySmemToGmemOp> {
  using LayoutAwarePattern::LayoutAwarePattern;
  LogicalResult
  matchAndRewrite(CopySmemToGmemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getSrc();
    ArrayAttr transforms = layout(op.getTransformsAttr());
    if (transforms)
      source = readThroughLayout(rewriter, op, source, transforms);
    if (std::optional<TmaReduction> kind = op.getReduction())
      reduceWindow(rewriter, op.getLoc(), *kind, adaptor.getDst(),
                   op.getMixedOffsets(), source);
    else
      copyWindow(rewriter, op.getLoc(), adaptor.getDst(), op.getMixedOffsets(),
                 source, /*toShared=*/false);
    if (transforms)
      memref::DeallocOp::create(rewriter, op.getLoc(), source);
    rewriter.eraseOp(op);
    return success();
  }
};

/// commit_smem, wait_smem_to_gmem -> nothing: host copies are done when
/// they return.
template <typename OpTy> struct EraseOnCPU : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// Ops without effect on the host (NoEffectOnHost: register budgets, L2
/// prefetches, programmatic dependent launch) -> nothing.
struct EraseNoEffectOnHost : public ConversionPattern {
  EraseNoEffectOnHost(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<NoEffectOnHost>())
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The host holds every vector whole: a layout cast is its source.
struct LayoutCastToCPU : public OpConversionPattern<LayoutCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayoutCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

/// barrier_init -> mgpuHostBarrierInit, as on the emulator. The lowering
/// never emits it for the CPU (host barriers start cleared), but a body may
/// hold one; it was left as an unrealized cast that LLVM refused.
struct BarrierInitToCPU : public OpConversionPattern<BarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callHostRuntime(
        rewriter, op, "mgpuHostBarrierInit",
        {getElementPointer(rewriter, loc, adaptor.getBarrier()),
         getI64(rewriter, loc, op.getBarrier().getType().getCount())});
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier_arrive -> mgpuHostBarrierArrive.
struct BarrierArriveToCPU : public OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BarrierLikeType type = op.getBarrier().getType();
    if (isa<ClusterBarrierType>(type))
      return rewriter.notifyMatchFailure(
          op, "arrivals on cluster barriers are lowered with the launch");
    arriveOnCheckedBarrier(rewriter, op, adaptor.getBarrier(),
                           adaptor.getIndex(), type.getCount(),
                           type.getArrivals());
    rewriter.eraseOp(op);
    return success();
  }
};

/// The host word of a wait's or test's barrier (its index checked) and
/// the phase parity as i64.
template <typename OpTy>
static std::pair<Value, Value>
getWordAndParity(ConversionPatternRewriter &rewriter, OpTy op,
                 typename OpTy::Adaptor adaptor) {
  Location loc = op.getLoc();
  Value word =
      getCheckedBarrier(rewriter, op, adaptor.getBarrier(), adaptor.getIndex(),
                        op.getBarrier().getType().getCount());
  Value parity = arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                        adaptor.getParity());
  return {word, parity};
}

/// A barrier_wait or barrier_test with a parity: the host word and the
/// parity to `lower`, which replaces the op.
template <typename OpTy>
struct BarrierPhaseToCPU : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getParity())
      return rewriter.notifyMatchFailure(
          op, "the phase is implicit (run --mgpu-track-barrier-phases)");
    auto [word, parity] = getWordAndParity(rewriter, op, adaptor);
    lower(op, word, parity, rewriter);
    return success();
  }
  virtual void lower(OpTy op, Value word, Value parity,
                     ConversionPatternRewriter &rewriter) const = 0;
};

/// barrier_wait with a parity -> mgpuHostBarrierWait (bounded).
struct BarrierWaitToCPU : public BarrierPhaseToCPU<BarrierWaitOp> {
  using BarrierPhaseToCPU::BarrierPhaseToCPU;
  void lower(BarrierWaitOp op, Value word, Value parity,
             ConversionPatternRewriter &rewriter) const override {
    callHostRuntime(rewriter, op, "mgpuHostBarrierWait",
                    {word, parity, getLocationString(rewriter, op)});
    rewriter.eraseOp(op);
  }
};

/// barrier_test with a parity -> mgpuHostBarrierTest. A Pallas thread is
/// one host thread here, so its answer is already the warpgroup's.
struct BarrierTestToCPU : public BarrierPhaseToCPU<BarrierTestOp> {
  using BarrierPhaseToCPU::BarrierPhaseToCPU;
  void lower(BarrierTestOp op, Value word, Value parity,
             ConversionPatternRewriter &rewriter) const override {
    Value done =
        callHostRuntime(rewriter, op, "mgpuHostBarrierTest",
                        {word, parity, getLocationString(rewriter, op)},
                        rewriter.getI64Type())
            ->getResult(0);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, rewriter.getI1Type(),
                                                 done);
  }
};

/// semaphore_signal -> an atomic add.
struct SemaphoreSignalToCPU : public OpConversionPattern<SemaphoreSignalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreSignalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    memref::AtomicRMWOp::create(rewriter, op.getLoc(),
                                arith::AtomicRMWKind::addi, adaptor.getValue(),
                                adaptor.getSem(), adaptor.getIndices());
    rewriter.eraseOp(op);
    return success();
  }
};

/// semaphore_wait -> mgpuHostSemaphoreWait, or with decrement = false
/// mgpuHostSemaphoreWaitNoDecrement (bounded).
struct SemaphoreWaitToCPU : public OpConversionPattern<SemaphoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callHostRuntime(rewriter, op,
                    op.getDecrement() ? "mgpuHostSemaphoreWait"
                                      : "mgpuHostSemaphoreWaitNoDecrement",
                    {getCheckedElementPointer(rewriter, loc, adaptor.getSem(),
                                              adaptor.getIndices()),
                     adaptor.getValue(), getLocationString(rewriter, op)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// semaphore_read -> an atomic read (an or of zero; host atomics are
/// sequentially consistent).
struct SemaphoreReadToCPU : public OpConversionPattern<SemaphoreReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SemaphoreReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<memref::AtomicRMWOp>(
        op, arith::AtomicRMWKind::ori,
        arith::ConstantIntOp::create(rewriter, loc, 0, 32), adaptor.getSem(),
        adaptor.getIndices());
    return success();
  }
};

/// A heap copy of `vector` (heap, not stack: the code runs once per program
/// of a host loop); the caller frees it.
Value copyToHeap(OpBuilder &b, Location loc, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  Value buffer = memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  SmallVector<Value> origin(type.getRank(), indexConstant(b, loc, 0));
  vector::TransferWriteOp::create(b, loc, vector, buffer, origin,
                                  SmallVector<bool>(type.getRank(), true));
  return buffer;
}

/// Runs `body` on each element of `vector` (its indices and value) in a
/// loop nest over a heap copy, freed after.
void forEachElement(
    OpBuilder &b, Location loc, Value vector,
    function_ref<void(OpBuilder &, Location, ValueRange, Value)> body) {
  auto type = cast<VectorType>(vector.getType());
  Value buffer = copyToHeap(b, loc, vector);
  SmallVector<Value> lower(type.getRank(), indexConstant(b, loc, 0)), upper,
      steps(type.getRank(), indexConstant(b, loc, 1));
  for (int64_t size : type.getShape())
    upper.push_back(indexConstant(b, loc, size));
  scf::buildLoopNest(b, loc, lower, upper, steps,
                     [&](OpBuilder &nb, Location l, ValueRange ivs) {
                       body(nb, l, ivs,
                            memref::LoadOp::create(nb, l, buffer, ivs));
                     });
  memref::DeallocOp::create(b, loc, buffer);
}

/// atomic_store -> memref.atomic_rmw, on each element of a heap copy of a
/// vector value in a loop nest. The programs of a grid that stores into
/// the same elements may run on concurrent host threads, so each element
/// is a real host atomic.
struct AtomicStoreToCPU : public OpConversionPattern<AtomicStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ref = adaptor.getRef();
    Type element = cast<MemRefType>(ref.getType()).getElementType();
    arith::AtomicRMWKind kind = getAtomicRMWKind(op.getKind(), element);
    auto vectorType = dyn_cast<VectorType>(op.getValue().getType());
    if (!vectorType) {
      memref::AtomicRMWOp::create(rewriter, loc, kind, adaptor.getValue(), ref,
                                  adaptor.getIndices());
      rewriter.eraseOp(op);
      return success();
    }
    SmallVector<Value> base(adaptor.getIndices());
    int64_t extra = base.size() - vectorType.getRank();
    forEachElement(rewriter, loc, adaptor.getValue(),
                   [&](OpBuilder &b, Location l, ValueRange ivs, Value x) {
                     SmallVector<Value> at(base);
                     for (auto [d, iv] : llvm::enumerate(ivs))
                       at[extra + d] =
                           arith::AddIOp::create(b, l, base[extra + d], iv);
                     memref::AtomicRMWOp::create(b, l, kind, x, ref, at);
                   });
    rewriter.eraseOp(op);
    return success();
  }
};

/// debug_print -> a loop nest over a heap copy of the vector, one
/// gpu.printf per element (--mgpu-host-printf makes it C printf).
struct DebugPrintToCPU : public OpConversionPattern<DebugPrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DebugPrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    forEachElement(rewriter, loc, adaptor.getValue(),
                   [&](OpBuilder &b, Location l, ValueRange ivs, Value x) {
                     emitDebugPrintElement(b, l, op, ivs, x);
                   });
    rewriter.eraseOp(op);
    return success();
  }
};

/// mgpu.wgmma and mgpu.mma -> loops over the result elements on a heap
/// copy of the accumulator (operands in registers get a heap copy too); each
/// element is computed as WgmmaSemantics.h says (f32 sums of exact
/// products, what mma.sync computes too). Synchronous, so wgmma_wait has
/// nothing left to wait for.
template <typename OpTy> struct MatmulToCPU : public LayoutAwarePattern<OpTy> {
  using LayoutAwarePattern<OpTy>::LayoutAwarePattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Operands in a tiled, swizzled buffer are read through its layout
    // (with physical layouts; otherwise the buffer is row-major).
    Location loc = op.getLoc();
    auto accType = cast<VectorType>(op.getAcc().getType());
    Value zero = indexConstant(rewriter, loc, 0);
    Value acc = copyToHeap(rewriter, loc, adaptor.getAcc());
    auto [aTransforms, bTransforms] = getOperandTransforms(op);
    Value a = adaptor.getA();
    bool aInRegisters = isa<VectorType>(a.getType());
    if (aInRegisters)
      a = copyToHeap(rewriter, loc, a);
    else if (aTransforms)
      a = readThroughLayout(rewriter, op, a, aTransforms);
    Value b = adaptor.getB();
    bool bInRegisters = isa<VectorType>(b.getType());
    if (bInRegisters)
      b = copyToHeap(rewriter, loc, b);
    else if (bTransforms)
      b = readThroughLayout(rewriter, op, b, bTransforms);
    auto rows =
        scf::ForOp::create(rewriter, loc, zero,
                           indexConstant(rewriter, loc, accType.getDimSize(0)),
                           indexConstant(rewriter, loc, 1));
    rewriter.setInsertionPointToStart(rows.getBody());
    auto columns =
        scf::ForOp::create(rewriter, loc, zero,
                           indexConstant(rewriter, loc, accType.getDimSize(1)),
                           indexConstant(rewriter, loc, 1));
    rewriter.setInsertionPointToStart(columns.getBody());
    Value i = rows.getInductionVar(), j = columns.getInductionVar();
    Value old = memref::LoadOp::create(rewriter, loc, acc, ValueRange{i, j});
    int64_t k = cast<ShapedType>(b.getType()).getDimSize(0);
    auto steps =
        scf::ForOp::create(rewriter, loc, zero, indexConstant(rewriter, loc, k),
                           indexConstant(rewriter, loc, 1),
                           ValueRange{buildWgmmaStart(rewriter, loc, old)});
    rewriter.setInsertionPointToStart(steps.getBody());
    Value kk = steps.getInductionVar();
    scf::YieldOp::create(
        rewriter, loc,
        buildWgmmaAccumulate(
            rewriter, loc, steps.getRegionIterArgs()[0],
            memref::LoadOp::create(rewriter, loc, a, ValueRange{i, kk}),
            memref::LoadOp::create(rewriter, loc, b, ValueRange{kk, j})));
    rewriter.setInsertionPointAfter(steps);
    memref::StoreOp::create(rewriter, loc,
                            buildWgmmaFinish(rewriter, loc, steps.getResult(0),
                                             accType.getElementType()),
                            acc, ValueRange{i, j});
    rewriter.setInsertionPointAfter(rows);
    Value padding = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(accType.getElementType()));
    Value result = vector::TransferReadOp::create(
        rewriter, loc, accType, acc, ValueRange{zero, zero}, padding,
        ArrayRef<bool>{true, true});
    memref::DeallocOp::create(rewriter, loc, acc);
    if (aInRegisters || aTransforms)
      memref::DeallocOp::create(rewriter, loc, a);
    if (bInRegisters || bTransforms)
      memref::DeallocOp::create(rewriter, loc, b);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The layouts the operands are read through: wgmma's a_transforms and
  /// b_transforms; none for mma.sync, whose operands are registers.
  std::pair<ArrayAttr, ArrayAttr> getOperandTransforms(OpTy op) const {
    if constexpr (std::is_same_v<OpTy, WgmmaOp>)
      return {this->layout(op.getATransformsAttr()),
              this->layout(op.getBTransformsAttr())};
    return {};
  }
};

} // namespace

void mlir::mgpu::populatePrimitivesToCPUPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 bool smemLayouts) {
  patterns.add<CopyGmemToSmemToCPU, CopySmemToGmemToCPU, MatmulToCPU<WgmmaOp>,
               MatmulToCPU<MmaOp>>(converter, patterns.getContext(),
                                   smemLayouts);
  patterns
      .add<EraseOnCPU<CommitSmemOp>, EraseOnCPU<WaitSmemToGmemOp>,
           EraseOnCPU<WaitGmemToSmemOp>, EraseOnCPU<CommitSmemToGmemGroupOp>,
           BarrierInitToCPU, BarrierArriveToCPU, BarrierWaitToCPU,
           BarrierTestToCPU, SemaphoreSignalToCPU, SemaphoreWaitToCPU,
           SemaphoreReadToCPU, AtomicStoreToCPU, DebugPrintToCPU,
           EraseOnCPU<WgmmaWaitOp>, EraseNoEffectOnHost, LayoutCastToCPU>(
          converter, patterns.getContext());
  populateTcgen05ToCPUPatterns(converter, patterns, smemLayouts);
}

void mlir::mgpu::configurePrimitivesToCPULegality(ConversionTarget &target) {
  // Every mgpu op left in host code is a kernel-level op the patterns above
  // lower; one without a pattern is an error at the op.
  target.addIllegalDialect<MGPUDialect>();
}
