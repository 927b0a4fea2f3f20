//===- Pipelines.h - mgpu pass pipelines ------------------------*- C++ -*-===//
//
// The end-to-end pipelines of mgpu, callable from C++ and registered as
// textual pipelines (--mgpu-to-cpu, ...) by registerMGPUPipelines().
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_PIPELINES_H
#define MGPU_PIPELINES_H

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
  PassOptions::Option<bool> smemLayouts{
      *this, "smem-layouts",
      llvm::cl::desc("Store shared buffers with transforms in the GPU's "
                     "tiled, swizzled layout (--mgpu-lower-to-cpu)"),
      llvm::cl::init(true)};
};

/// Tensor- or memref-form kernels to host code in the LLVM dialect: bufferize,
/// interpret lowering, then the upstream conversions to LLVM.
void buildMGPUToCPUPipeline(OpPassManager &pm,
                            const MGPUToCPUPipelineOptions &options);

/// The GPU lowering run on host threads (--mgpu-lower-to-gpu without
/// outlining, then --mgpu-emulate-gpu), down to the LLVM dialect: how
/// `mgpu-run --backend=emulate` checks the GPU lowering without a GPU.
/// With `tensorCores`, mgpu.wgmma takes the tensor-core lowering of
/// sm_90a, whose MMAs the emulator computes lane by lane from the fragment
/// layout and the shared-memory descriptors. `checks` selects the
/// emulator's hazard checks (--mgpu-emulate-gpu's option; all by default).
void buildMGPUToGPUEmulatorPipeline(OpPassManager &pm,
                                    StringRef mpmdForm = "auto",
                                    bool tensorCores = true,
                                    StringRef checks = "all");

/// Options of --mgpu-to-binary.
struct MGPUToBinaryPipelineOptions
    : public PassPipelineOptions<MGPUToBinaryPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Chip to compile for (default: the module's "
                     "mgpu.target, else sm_90a)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: isa (PTX), bin (cubin) or "
                     "fatbin"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX backend and ptxas"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit holding ptxas, fatbinary and libdevice "
                     "(default: the one found when mgpu was built)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> mpmdForm{
      *this, "mpmd-form",
      llvm::cl::desc("How mpmd_map pairs share a launch: auto, "
                     "warp-specialized or cta-partitioned"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> identityLayout{
      *this, "identity-layout",
      llvm::cl::desc("Bufferize function boundaries to identity layouts"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("On sm_90a, mgpu.wgmma on the tensor cores "
                     "(wgmma.mma_async) where they can run it; 0: ordinary "
                     "instructions everywhere"),
      llvm::cl::init(true)};
};

/// Tensor- or memref-form kernels to gpu.binary kernels plus host code in
/// the LLVM dialect (ready for mlir-translate --mlir-to-llvmir).
void buildMGPUToBinaryPipeline(OpPassManager &pm,
                               const MGPUToBinaryPipelineOptions &options);

/// The CUDA toolkit found when mgpu was configured ("" if none).
StringRef getDefaultCudaToolkitPath();

/// Registers the textual pipelines (--mgpu-to-cpu, --mgpu-to-binary).
void registerMGPUPipelines();

} // namespace mlir::mgpu

#endif // MGPU_PIPELINES_H
