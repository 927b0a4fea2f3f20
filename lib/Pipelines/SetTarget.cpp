//===- SetTarget.cpp - --mgpu-set-target: the pipeline's one chip ---------===//
//
// A module says its chip in `mgpu.target` (sm_90a where it says nothing),
// and every pass that decides something per chip reads it (TargetInfo). The
// GPU pipeline's `chip=` used to reach only its last passes, so a module
// without `mgpu.target` compiled with chip=sm_100a got sm_90a decisions in
// the kernel form and sm_100a ones in the NVVM lowering. This pass, the
// first of the pipeline, writes the chip into `mgpu.target` (keeping its
// profile), so that every later pass sees the same chip.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Passes.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUSETTARGET
#include "mgpu/Pipelines/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct SetTargetPass : public mgpu::impl::MGPUSetTargetBase<SetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    if (chip.empty())
      return;
    ModuleOp module = getOperation();
    if (!TargetInfo::lookup(chip)) {
      InFlightDiagnostic diag = module.emitError()
                                << "mgpu-set-target: unknown chip '" << chip
                                << "'";
      diag.attachNote() << "the chips are "
                        << llvm::join(llvm::map_range(TargetInfo::getAll(),
                                                      [](const TargetInfo &t) {
                                                        return t.chip.str();
                                                      }),
                                      ", ");
      return signalPassFailure();
    }
    TargetAttr current = getEffectiveTarget(module);
    module->setAttr(MGPUDialect::getTargetAttrName(),
                    TargetAttr::get(&getContext(), chip, current.getProfile()));
  }
};

} // namespace
