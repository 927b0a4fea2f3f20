//===- SelectTensorCores.cpp - --mgpu-select-tensor-cores -----------------===//
//
// The one place that decides which mgpu.wgmma ops run on the tensor cores:
// with `enable` on a chip that has wgmma (sm_90a), each wgmma the tensor
// cores can run gets `mgpu.tensor_cores`; the pipeline expansion, the layout
// assignment and the distribution read that mark and nothing else. Where no
// wgmma of a kernel can run on them (disabled, or a chip without wgmma),
// the tiled, swizzled layouts that copies and wgmma ops name for the tensor
// cores are dropped from that kernel: its buffers stay row-major, the
// layout the lanes compute from on every backend. A wgmma left on ordinary
// instructions gets a missed-optimization remark (category
// `mgpu-tensor-cores`, shown with `--remarks-filter-missed=mgpu-tensor-cores`
// and `--remark-format=emitRemark`) saying why.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/Passes.h"

#include "mlir/IR/Remarks.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUSELECTTENSORCORES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Row-major buffers: the layouts named for the tensor cores, dropped.
void dropTensorCoreTransforms(Operation *kernel) {
  kernel->walk([](Operation *op) {
    if (auto copy = dyn_cast<CopyGmemToSmemOp>(op))
      copy.removeTransformsAttr();
    if (auto copy = dyn_cast<CopySmemToGmemOp>(op))
      copy.removeTransformsAttr();
    if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      wgmma.removeATransformsAttr();
      wgmma.removeBTransformsAttr();
    }
  });
}

/// A missed-optimization remark: `op` runs on ordinary instructions.
void remarkMissed(WgmmaOp op, const std::string &why) {
  remark::missed(op.getLoc(), remark::RemarkOpts::name("OrdinaryInstructions")
                                  .category("mgpu-tensor-cores")
                                  .subCategory("select-tensor-cores"))
      << remark::reason("this wgmma runs on ordinary instructions: {0}", why);
}

struct SelectTensorCoresPass
    : public mgpu::impl::MGPUSelectTensorCoresBase<SelectTensorCoresPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *kernel) {
      if (!isa<PallasCallOp, MpmdMapOp, LaunchOp>(kernel))
        return WalkResult::advance();
      const TargetInfo &target = getTargetInfo(kernel);
      bool available = enable && target.hasWgmma();
      if (!available) {
        // Turned off by the user: nothing to report.
        if (enable)
          kernel->walk([&](WgmmaOp op) {
            remarkMissed(
                op, "the target chip " + target.chip.str() + " has no wgmma" +
                        (target.tensorCores == TensorCoreKind::Tcgen05
                             ? "; its tensor cores run mgpu.tcgen05_mma, "
                               "with the accumulator in tensor memory "
                               "(!mgpu.tmem)"
                             : ""));
          });
        // tcgen05 MMAs read their operands in the tiled layout they name,
        // whatever the option: the copies keep it.
        bool tcgen05 =
            kernel->walk([](Tcgen05MmaOp) { return WalkResult::interrupt(); })
                .wasInterrupted();
        if (!tcgen05)
          dropTensorCoreTransforms(kernel);
        return WalkResult::skip();
      }
      kernel->walk([](WgmmaOp op) {
        if (std::optional<std::string> why = whyNotOnTensorCores(op)) {
          remarkMissed(op, *why);
          return;
        }
        op->setAttr(MGPUDialect::getTensorCoresAttrName(),
                    UnitAttr::get(op.getContext()));
      });
      return WalkResult::skip();
    });
  }
};

} // namespace
