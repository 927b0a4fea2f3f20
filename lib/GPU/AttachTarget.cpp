//===- AttachTarget.cpp - --mgpu-attach-target
//-----------------------------===//
//
// Attaches the NVVM target that serializes the kernels of a module: the chip
// of its `mgpu.target` unless overridden, and the PTX version that chip
// needs (LLVM aborts the process when an sm_90a module asks for an older
// PTX). Existing targets are replaced rather than appended to. mgpu ops left
// in the module keep the `mgpu.target` they are verified against.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUATTACHTARGET
#include "mgpu/GPU/Passes.h.inc"
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
    // mgpu ops still in the module are verified against it, though (a copy
    // without a barrier is valid before Hopper only): they keep it, and a
    // chip given here becomes theirs only if they are valid on it.
    bool mgpuOps = module
                       .walk([](Operation *op) {
                         return isa_and_nonnull<MGPUDialect>(op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!mgpuOps) {
      module->removeAttr(MGPUDialect::getTargetAttrName());
      return;
    }
    TargetAttr current = getEffectiveTarget(module);
    if (chip.empty() || chip == current.getChip())
      return;
    module->setAttr(MGPUDialect::getTargetAttrName(),
                    TargetAttr::get(&getContext(), chip, current.getProfile()));
    if (failed(mlir::verify(module))) {
      module.emitError() << "mgpu-attach-target: the module's mgpu ops are "
                            "not valid on chip '"
                         << chip << "' (their target is '" << current.getChip()
                         << "')";
      return signalPassFailure();
    }
  }
};
} // namespace
