//===- Pipelines.h - mgpu pass pipelines ------------------------*- C++ -*-===//
//
// The end-to-end pipelines of mgpu, callable from C++ and registered as
// textual pipelines (--mgpu-to-cpu, ...) by registerMGPUPipelines().
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TRANSFORMS_PIPELINES_H
#define MGPU_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::mgpu {

/// Options of --mgpu-to-cpu.
struct MGPUToCPUPipelineOptions
    : public PassPipelineOptions<MGPUToCPUPipelineOptions> {
  PassOptions::Option<bool> identityLayout{
      *this, "identity-layout",
      llvm::cl::desc("Bufferize function boundaries to identity layouts"),
      llvm::cl::init(true)};
};

/// Tensor- or memref-form kernels to host code in the LLVM dialect: bufferize,
/// interpret lowering, then the upstream conversions to LLVM.
void buildMGPUToCPUPipeline(OpPassManager &pm,
                            const MGPUToCPUPipelineOptions &options);

/// Registers the textual pipelines (--mgpu-to-cpu).
void registerMGPUPipelines();

} // namespace mlir::mgpu

#endif // MGPU_TRANSFORMS_PIPELINES_H
