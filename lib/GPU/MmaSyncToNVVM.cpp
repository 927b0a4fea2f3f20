//===- MmaSyncToNVVM.cpp - The lanes' mma.sync on the tensor cores --------===//
//
// --mgpu-primitives-to-nvvm's pattern for the per-lane mgpu.mma_sync the
// distribution writes for Ampere's mgpu.mma: NVVM's mma.sync m16n8k16 on
// the lane's fragments, a and b as 32-bit registers of two inputs (f16
// pairs as vector<2xf16>, bf16 pairs as their bits, as NVVM takes them),
// the accumulator as four f32 and the result as a struct of four.
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct MmaSyncToNVVM : public OpConversionPattern<MmaSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type input = op.getA().getType().getElementType();
    bool bf16 = input.isBF16();
    // Register r of a fragment: elements 2r and 2r + 1.
    auto registers = [&](Value fragment) {
      int64_t count = cast<VectorType>(fragment.getType()).getNumElements() / 2;
      Value words = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({count}, rewriter.getI32Type()),
          fragment);
      SmallVector<Value> regs;
      for (int64_t r = 0; r < count; ++r)
        regs.push_back(
            bf16 ? Value(vector::ExtractOp::create(rewriter, loc, words, r))
                 : Value(vector::ExtractStridedSliceOp::create(
                       rewriter, loc, fragment, 2 * r, 2, 1)));
      return regs;
    };
    SmallVector<Value> c;
    for (int64_t e = 0; e < 4; ++e)
      c.push_back(
          vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), e));
    auto ptxType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    Value d = NVVM::MmaOp::create(
        rewriter, loc,
        nvvm_lowering::getRegisterStruct(rewriter.getContext(), 4),
        registers(adaptor.getA()), registers(adaptor.getB()), c,
        ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    rewriter.replaceOp(op, nvvm_lowering::structToVector(
                               rewriter, loc, d, op.getAcc().getType()));
    return success();
  }
};

} // namespace

void mlir::mgpu::populateMmaSyncToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<MmaSyncToNVVM>(converter, patterns.getContext());
}
