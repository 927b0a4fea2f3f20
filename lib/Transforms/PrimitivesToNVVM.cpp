//===- PrimitivesToNVVM.cpp - --mgpu-primitives-to-nvvm -------------------===//
//
// Lowers the kernel-level ops in gpu.launch bodies to NVVM with the patterns
// of mgpu/Conversion/PrimitivesToNVVM.h; the pass only composes them.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Conversion/PrimitivesToNVVM.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPRIMITIVESTONVVM
#include "mgpu/Transforms/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {
struct PrimitivesToNVVMPass
    : public mgpu::impl::MGPUPrimitivesToNVVMBase<PrimitivesToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    StringRef targetChip = chip.empty()
                               ? getEffectiveTarget(getOperation()).getChip()
                               : StringRef(chip);
    bool hopper = !targetChip.starts_with("sm_80");
    TypeConverter converter;
    populateBarrierToSharedMemoryConversion(converter);
    RewritePatternSet patterns(&getContext());
    populatePrimitivesToNVVMPatterns(converter, patterns, hopper);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configurePrimitivesToNVVMLegality(target);
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(applyPartialConversion(launch, target, frozen)))
        return signalPassFailure();
  }
};
} // namespace
