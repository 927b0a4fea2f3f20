//===- ProfileToNVVM.cpp - The profiler's clock on the GPU ----------------===//
//
// mgpu.global_timer is PTX's %globaltimer (nanoseconds, shared by the
// device's SMs, unlike %clock64, so the traces of different CTAs line up),
// as JAX's profiler reads it for a trace's start. The records around it
// were written out as memory accesses on lane 0 by the distribution.
//
//===----------------------------------------------------------------------===//

#include "NVVMLowering.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/GPU/PrimitivesToNVVM.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct GlobalTimerToNVVM : public OpConversionPattern<GlobalTimerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalTimerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::GlobalTimerOp>(op, rewriter.getI64Type());
    return success();
  }
};

} // namespace

void mlir::mgpu::populateProfileToNVVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<GlobalTimerToNVVM>(converter, patterns.getContext());
}
