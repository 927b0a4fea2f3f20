//===- BarrierTestToNVVM.cpp - barrier_test on the GPU --------------------===//
//
// mgpu.barrier_test as a conversion pattern of --mgpu-primitives-to-nvvm
// (see PrimitivesToNVVM.h). Every lane polls the mbarrier once with
// mbarrier.test_wait.parity (it never blocks); lanes that poll at slightly
// different times may see different answers, and the Pallas thread must
// take one branch, so the warpgroup ORs them with bar.red.or.pred on its
// named barrier (1 + warpgroup, 128 threads: the one the distributed body
// synchronizes on). A lane that saw "not yet" while another saw the phase
// complete is still ordered after the phase: the bar.red orders it after
// that lane's acquire. The phase bit was flipped, where the answer is yes,
// by --mgpu-track-barrier-phases. nvvm.barrier only reduces on barrier 0,
// so the reduction is PTX inline assembly.
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/GPU/PrimitivesToNVVM.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// barrier_test with a parity -> mbarrier.test_wait.parity on every lane,
/// then the OR of the lanes' answers over the warpgroup.
struct BarrierTestToNVVM : public OpConversionPattern<BarrierTestOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierTestOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getParity())
      return rewriter.notifyMatchFailure(op, "the phase is implicit");
    Location loc = op.getLoc();
    Type i1 = rewriter.getI1Type(), i32 = rewriter.getI32Type();
    Value pointer =
        barrierPointer(rewriter, loc, adaptor.getBarrier(), adaptor.getIndex());
    Value parity =
        arith::ExtUIOp::create(rewriter, loc, i32, adaptor.getParity());
    Value mine =
        NVVM::MBarrierTestWaitOp::create(rewriter, loc, i1, pointer, parity);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value warpgroup = arith::DivUIOp::create(
        rewriter, loc, tid, indexConstant(rewriter, loc, kWarpgroupLanes));
    Value id = arith::AddIOp::create(
        rewriter, loc,
        arith::IndexCastOp::create(rewriter, loc, i32, warpgroup),
        arith::ConstantIntOp::create(rewriter, loc, 1, 32));
    std::string reduce =
        "bar.red.or.pred $0, $1, " + std::to_string(kWarpgroupLanes) + ", $2;";
    auto any = LLVM::InlineAsmOp::create(
        rewriter, loc, TypeRange{i1}, ValueRange{id, mine}, reduce, "=b,r,b",
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
    rewriter.replaceOp(op, any.getResult(0));
    return success();
  }
};

} // namespace

void mlir::mgpu::populateBarrierTestToNVVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BarrierTestToNVVM>(converter, patterns.getContext());
}
