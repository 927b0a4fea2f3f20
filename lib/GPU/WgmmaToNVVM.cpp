//===- WgmmaToNVVM.cpp - The lanes' wgmma steps on the tensor cores -------===//
//
// --mgpu-primitives-to-nvvm's patterns for the per-lane wgmma ops the
// distribution writes (WgmmaSteps.h): a step with both operands in shared
// memory becomes NVVM's wgmma.mma_async over an LLVM struct of the
// accumulator registers, a step with a in registers inline PTX (NVVM's op
// takes a descriptor for a only), and the fence, commit and wait their
// wgmma.*.sync.aligned instructions. The kernel-level wgmma_wait of a
// wgmma on ordinary instructions lowers to nothing.
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

/// NVVM's code of a wgmma input type (verified: f16, bf16, f8E4M3FN,
/// f8E5M2 or f32 as tf32).
NVVM::WGMMATypes getWgmmaType(Type type) {
  if (isa<BFloat16Type>(type))
    return NVVM::WGMMATypes::bf16;
  if (isa<Float8E4M3FNType>(type))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(type))
    return NVVM::WGMMATypes::e5m2;
  if (type.isF32())
    return NVVM::WGMMATypes::tf32;
  return NVVM::WGMMATypes::f16;
}

/// wgmma_shared -> wgmma.mma_async m64nNkS over the accumulator registers
/// as an LLVM struct (S: 32 bytes of K). For a, row is K-major and col
/// M-major (imm-trans-a = 1); for b, row is N-major (imm-trans-b = 1) and
/// col K-major.
struct WgmmaSharedToNVVM : public OpConversionPattern<WgmmaSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WgmmaSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t registers = op.getAcc().getType().getNumElements();
    Type structType = nvvm_lowering::getRegisterStruct(ctx, registers);
    Value fragment = LLVM::PoisonOp::create(rewriter, loc, structType);
    for (int64_t reg = 0; reg < registers; ++reg)
      fragment = LLVM::InsertValueOp::create(
          rewriter, loc, fragment,
          vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), reg), reg);
    int64_t kStep = 32 / (op.getAType().getIntOrFloatBitWidth() / 8);
    Value result = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, fragment, adaptor.getDescriptorA(),
        adaptor.getDescriptorB(),
        NVVM::MMAShapeAttr::get(ctx, 64, 2 * registers, kStep),
        NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(op.getAType())),
        NVVM::WGMMATypesAttr::get(ctx, getWgmmaType(op.getBType())),
        NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
        NVVM::MMALayoutAttr::get(ctx, op.getAMnMajor() ? NVVM::MMALayout::col
                                                       : NVVM::MMALayout::row),
        NVVM::MMALayoutAttr::get(ctx, op.getBMnMajor() ? NVVM::MMALayout::row
                                                       : NVVM::MMALayout::col),
        NVVM::MMAIntOverflowAttr());
    rewriter.replaceOp(op, nvvm_lowering::structToVector(
                               rewriter, loc, result, op.getAcc().getType()));
    return success();
  }
};

/// wgmma_fence, wgmma_commit_group, wgmma_wait_group N ->
/// wgmma.fence / commit_group / wait_group N .sync.aligned.
template <typename From, typename To>
struct WgmmaSyncToNVVM : public OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<To>(op);
    return success();
  }
};
using WgmmaFenceToNVVM =
    WgmmaSyncToNVVM<WgmmaFenceOp, NVVM::WgmmaFenceAlignedOp>;
using WgmmaCommitGroupToNVVM =
    WgmmaSyncToNVVM<WgmmaCommitGroupOp, NVVM::WgmmaGroupSyncAlignedOp>;

struct WgmmaWaitGroupToNVVM : public OpConversionPattern<WgmmaWaitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WgmmaWaitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::WgmmaWaitGroupSyncOp>(op,
                                                            op.getPending());
    return success();
  }
};

/// wgmma_register_a -> wgmma.mma_async with a in four 32-bit registers
/// (the NVVM dialect's op takes a descriptor for a only). The accumulator
/// registers are tied operands: the instruction reads and writes them.
struct WgmmaRegisterAToNVVM : public OpConversionPattern<WgmmaRegisterAOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WgmmaRegisterAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t registers = op.getAcc().getType().getNumElements();
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> operands;
    std::string constraints, accumulators;
    for (int64_t reg = 0; reg < registers; ++reg) {
      constraints += (reg ? ",=f" : "=f");
      accumulators += (reg ? ", $" : "$") + std::to_string(reg);
    }
    for (int64_t reg = 0; reg < registers; ++reg) {
      operands.push_back(
          vector::ExtractOp::create(rewriter, loc, adaptor.getAcc(), reg));
      constraints += "," + std::to_string(reg);
    }
    Value aWords = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({4}, i32), adaptor.getA());
    for (int64_t reg = 0; reg < 4; ++reg) {
      operands.push_back(vector::ExtractOp::create(rewriter, loc, aWords, reg));
      constraints += ",r";
    }
    operands.push_back(adaptor.getDescriptorB());
    constraints += ",l";
    int64_t aFirst = 2 * registers, desc = aFirst + 4;
    std::string input = isa<BFloat16Type>(op.getA().getType().getElementType())
                            ? "bf16"
                            : "f16";
    // scale-d is a predicate (1: accumulate); imm-scale-a and -b are 1;
    // imm-trans-b is 1 for an N-major b.
    std::string asmString =
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n" +
        std::to_string(registers * 2) + "k16.f32." + input + "." + input +
        " {" + accumulators + "}, {$" + std::to_string(aFirst) + ", $" +
        std::to_string(aFirst + 1) + ", $" + std::to_string(aFirst + 2) +
        ", $" + std::to_string(aFirst + 3) + "}, $" + std::to_string(desc) +
        ", p, 1, 1, " + (op.getBMnMajor() ? "1" : "0") + ";\n}";
    auto mma = LLVM::InlineAsmOp::create(
        rewriter, loc,
        TypeRange{nvvm_lowering::getRegisterStruct(ctx, registers)}, operands,
        asmString, constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
    rewriter.replaceOp(
        op, nvvm_lowering::structToVector(rewriter, loc, mma.getResult(0),
                                          op.getAcc().getType()));
    return success();
  }
};

/// wgmma_wait -> nothing while wgmma runs on ordinary instructions (its
/// results are ready when the op returns).
struct WgmmaWaitToNVVM : public OpConversionPattern<WgmmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::mgpu::populateWgmmaToNVVMPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<WgmmaSharedToNVVM, WgmmaFenceToNVVM, WgmmaCommitGroupToNVVM,
               WgmmaWaitGroupToNVVM, WgmmaRegisterAToNVVM, WgmmaWaitToNVVM>(
      converter, patterns.getContext());
}
