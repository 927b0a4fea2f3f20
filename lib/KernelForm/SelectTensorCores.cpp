//===- SelectTensorCores.cpp - --mgpu-select-tensor-cores -----------------===//
//
// The one place that decides which mgpu.wgmma ops run on the tensor cores:
// with `enable` on a chip that has wgmma (sm_90a), each wgmma the tensor
// cores can run gets `mgpu.tensor_cores`; the pipeline expansion, the layout
// assignment and the distribution read that mark and nothing else. Where no
// wgmma of a kernel can run on them (disabled, or a chip without wgmma),
// the tiled, swizzled layouts that copies and wgmma ops name for the tensor
// cores are dropped from that kernel: its buffers stay row-major, the
// layout the lanes compute from on every backend.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/Passes.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUSELECTTENSORCORES
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Row-major buffers: the layouts named for the tensor cores, dropped.
void dropTensorCoreTransforms(Operation *kernel) {
  kernel->walk([](Operation *op) {
    if (auto copy = dyn_cast<CopyGmemToSmemOp>(op))
      copy.removeTransformsAttr();
    if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      wgmma.removeATransformsAttr();
      wgmma.removeBTransformsAttr();
    }
  });
}

struct SelectTensorCoresPass
    : public mgpu::impl::MGPUSelectTensorCoresBase<SelectTensorCoresPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *kernel) {
      if (!isa<PallasCallOp, MpmdMapOp, LaunchOp>(kernel))
        return WalkResult::advance();
      bool available = enable && getTargetInfo(kernel).hasWgmma();
      if (!available) {
        dropTensorCoreTransforms(kernel);
        return WalkResult::skip();
      }
      kernel->walk([](WgmmaOp op) {
        if (canRunOnTensorCores(op))
          op->setAttr(MGPUDialect::getTensorCoresAttrName(),
                      UnitAttr::get(op.getContext()));
      });
      return WalkResult::skip();
    });
  }
};

} // namespace
