//===- AttachTarget.cpp - --mgpu-attach-target
//-----------------------------===//
//
// Attaches the NVVM target that serializes the kernels of a module: the chip
// of its `mgpu.target` unless overridden, and the PTX version that chip
// needs (LLVM aborts the process when an sm_90a module asks for an older
// PTX). Existing targets are replaced rather than appended to.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUATTACHTARGET
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {
struct AttachTargetPass
    : public mgpu::impl::MGPUAttachTargetBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedAny = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      std::string targetChip =
          chip.empty() ? getEffectiveTarget(gpuModule).getChip().str() : chip;
      const TargetInfo *info = TargetInfo::lookup(targetChip);
      if (!info) {
        gpuModule.emitError()
            << "mgpu-attach-target: unknown chip '" << targetChip << "'";
        failedAny = true;
        return;
      }
      std::string ptx = features.empty() ? info->ptxFeatures.str() : features;
      auto target = NVVM::NVVMTargetAttr::get(
          &getContext(), optLevel, "nvptx64-nvidia-cuda", targetChip, ptx);
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {target}));
    });
    if (failedAny)
      return signalPassFailure();
    // The mgpu target now lives in the NVVM targets; dropping it leaves a
    // module that upstream tools (mlir-translate) read without the dialect.
    module->removeAttr(MGPUDialect::getTargetAttrName());
  }
};
} // namespace
