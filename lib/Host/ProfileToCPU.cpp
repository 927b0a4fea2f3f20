//===- ProfileToCPU.cpp - The profiler's ops in interpret mode ------------===//
//
// Interpret mode runs each Pallas thread's body once on one host thread, so
// a profile_event is its record (ProfileRecord.h) with no lane to pick, and
// the clock is the host's steady clock (mgpuHostClockNs in
// libmgpu_host_runtime.so).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/KernelForm/ProfileRecord.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct ProfileEventToCPU : public OpConversionPattern<ProfileEventOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ProfileEventOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitProfileRecord(rewriter, op, adaptor.getBuffer(), adaptor.getBase());
    rewriter.eraseOp(op);
    return success();
  }
};

struct GlobalTimerToCPU : public OpConversionPattern<GlobalTimerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalTimerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *call = callHostRuntime(rewriter, op, "mgpuHostClockNs", {},
                                      rewriter.getI64Type());
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

} // namespace

void mlir::mgpu::populateProfileToCPUPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              ConversionTarget &target) {
  patterns.add<ProfileEventToCPU, GlobalTimerToCPU>(converter,
                                                    patterns.getContext());
  target.addIllegalOp<ProfileEventOp, GlobalTimerOp>();
}
