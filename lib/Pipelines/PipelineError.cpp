//===- PipelineError.cpp - A pipeline that cannot run, as an error --------===//
//
// Pipeline builders cannot fail, and MLIR aborts the process when a
// module-level pass is added to a pass manager nested under another op. So
// when the mgpu pipelines are asked for something they cannot do (nested
// under func.func, an unknown binary format) they add this pass instead,
// which reports the problem at the op it runs on and fails: a diagnostic and
// exit status 1 rather than an abort or a silent success.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPIPELINEERROR
#include "mgpu/Pipelines/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;

namespace {

struct PipelineErrorPass
    : public mgpu::impl::MGPUPipelineErrorBase<PipelineErrorPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->emitError() << message;
    signalPassFailure();
  }
};

} // namespace
