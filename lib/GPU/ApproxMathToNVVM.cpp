//===- ApproxMathToNVVM.cpp - approx_math's tanh on the GPU ---------------===//
//
// Pallas' approx_math (the `afn` flag --mgpu-math-flags puts on a kernel's
// math) lets JAX lower lax.tanh to the single tanh.approx.f32 instruction
// (sm_75 and later; relative error at most 2^-10.987) where exact tanh is
// libdevice's ten-instruction __nv_tanhf. The upstream NVVM lowering picks
// libdevice's fast variants for exp, log, sin and cos under `afn` (they are
// ex2.approx, lg2.approx, sin.approx and cos.approx), but libdevice has no
// fast tanh; this pattern of --mgpu-primitives-to-nvvm writes it as
// llvm.tanh with `afn`, which the NVPTX backend selects as tanh.approx.f32.
// llvm.tanh without `afn` has no NVPTX lowering, so exact tanh stays with
// libdevice. Vectors are taken element by element.
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/GPU/PrimitivesToNVVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Whether `op` is a tanh that approx_math lets the hardware approximate.
bool isApproxF32Tanh(math::TanhOp op) {
  if (!getElementTypeOrSelf(op.getType()).isF32())
    return false;
  auto vector = dyn_cast<VectorType>(op.getType());
  if (vector && (vector.getRank() != 1 || vector.isScalable()))
    return false;
  return bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
}

/// math.tanh {afn} : f32 -> llvm.intr.tanh {afn} per element.
struct ApproxTanhToNVVM : public OpConversionPattern<math::TanhOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::TanhOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isApproxF32Tanh(op))
      return rewriter.notifyMatchFailure(op, "not an approximate f32 tanh");
    Location loc = op.getLoc();
    auto flags = LLVM::FastmathFlagsAttr::get(rewriter.getContext(),
                                              LLVM::FastmathFlags::afn);
    auto tanh = [&](Value x) -> Value {
      return LLVM::TanhOp::create(rewriter, loc, x.getType(), x, flags);
    };
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!vector) {
      rewriter.replaceOp(op, tanh(adaptor.getOperand()));
      return success();
    }
    Value result = LLVM::PoisonOp::create(rewriter, loc, vector);
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      Value index = LLVM::ConstantOp::create(rewriter, loc,
                                             rewriter.getI64IntegerAttr(i));
      Value element = LLVM::ExtractElementOp::create(
          rewriter, loc, adaptor.getOperand(), index);
      result = LLVM::InsertElementOp::create(rewriter, loc, result,
                                             tanh(element), index);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::mgpu::populateApproxMathToNVVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ApproxTanhToNVVM>(converter, patterns.getContext());
}

void mlir::mgpu::configureApproxMathToNVVMLegality(ConversionTarget &target) {
  target.addDynamicallyLegalOp<math::TanhOp>(
      [](math::TanhOp op) { return !isApproxF32Tanh(op); });
}
