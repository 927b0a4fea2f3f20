//===- OutlineKernels.cpp - --mgpu-outline-kernels ------------------------===//
//
// Outlines the gpu.launch ops of --mgpu-lower-to-gpu into gpu.module kernels
// with upstream gpu-kernel-outlining, then finishes the kernels for NVVM:
// `nvvm.reqntid` from the launch's constant block size, and strided slices
// of lane vectors as shuffles (done after outlining, so that constants stay
// inside the kernels).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUOUTLINEKERNELS
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The launch's block size as a constant, if it is one.
std::optional<int64_t> constantBlockSize(gpu::LaunchFuncOp launch) {
  APInt value;
  if (matchPattern(launch.getBlockSizeX(), m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

struct OutlineKernelsPass
    : public mgpu::impl::MGPUOutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The NVVM passes and gpu-module-to-binary that follow compile the
    // gpu.modules of the top-level module only; in a nested one, a launch
    // would meet an unconverted kernel (invalid IR, errors without a
    // location). LowerToGPU refuses mgpu kernels there; these are GPU ops
    // written by hand.
    WalkResult nested = module.walk([&](Operation *op) {
      if (!isa<gpu::LaunchOp, gpu::LaunchFuncOp, gpu::GPUModuleOp>(op) ||
          op->getParentOfType<ModuleOp>() == module)
        return WalkResult::advance();
      op->emitOpError() << "is in a nested module, which the GPU pipeline "
                           "does not compile: move it to the top-level module";
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return signalPassFailure();
    bool hasLaunch = false;
    module.walk([&](gpu::LaunchOp) {
      hasLaunch = true;
      return WalkResult::interrupt();
    });
    if (!hasLaunch)
      return;
    OpPassManager outline(ModuleOp::getOperationName());
    outline.addPass(createGpuKernelOutliningPass());
    if (failed(runPipeline(outline, module)))
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    WalkResult simplified = module.walk([&](gpu::GPUModuleOp kernels) {
      if (failed(applyPatternsGreedily(kernels, frozen)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (simplified.wasInterrupted())
      return signalPassFailure();

    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      std::optional<int64_t> threads = constantBlockSize(launch);
      if (!kernel || !threads)
        return;
      // convert-gpu-to-nvvm turns known_block_size into .maxntid, which
      // ptxas refuses next to .reqntid; reqntid says more.
      kernel.removeKnownBlockSizeAttr();
      kernel->setAttr(
          NVVM::NVVMDialect::getReqntidAttrName(),
          DenseI32ArrayAttr::get(&getContext(),
                                 {static_cast<int32_t>(*threads), 1, 1}));
      // setmaxnreg moves registers between warpgroups from a budget that
      // ptxas must know at entry, or it ignores setmaxnreg and may starve
      // the kernel (32 registers and kilobytes of spills, measured): the
      // register file shared by the CTA's threads, in steps of 8.
      bool rebalances = false;
      kernel.walk([&](NVVM::SetMaxRegisterOp) { rebalances = true; });
      // A CTA whose shared memory leaves no room for a second one on its
      // multiprocessor may take the whole register file too; left alone,
      // ptxas budgets for two CTAs (80 registers for 384 threads, and
      // spills, measured on the persistent Blackwell matmul).
      std::optional<int64_t> smem;
      if (Value bytes = launch.getDynamicSharedMemorySize())
        smem = getConstantIntValue(bytes);
      bool alone =
          smem && *smem * 2 > getTargetInfo(kernel).maxSharedMemoryBytes;
      if (rebalances || alone)
        kernel->setAttr(
            NVVM::NVVMDialect::getMaxnregAttrName(),
            IntegerAttr::get(IntegerType::get(&getContext(), 32),
                             getTargetInfo(kernel).getEntryRegisters(
                                 *threads / kWarpgroupLanes)));
    });
  }
};

} // namespace
