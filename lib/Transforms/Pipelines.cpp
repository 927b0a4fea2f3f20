//===- Pipelines.cpp - mgpu pass pipelines --------------------------------===//
//
// The pipelines compose the mgpu passes with upstream conversions. Each stage
// is listed explicitly (rather than through convert-to-llvm's interface
// registry) so that the pipelines work in any tool that links MGPUTransforms.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Transforms/Pipelines.h"
#include "mgpu/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::buildMGPUToCPUPipeline(
    OpPassManager &pm, const MGPUToCPUPipelineOptions &options) {
  MGPUBufferizeOptions bufferize;
  bufferize.identityLayout = options.identityLayout;
  pm.addPass(createMGPUBufferize(bufferize));
  pm.addPass(createMGPULowerToCPU());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // convert-vector-to-llvm does not lower vector.multi_reduction.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  // Vector lowerings (transpose, multi_reduction, ...) leave ub.poison.
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::mgpu::registerMGPUPipelines() {
  PassPipelineRegistration<MGPUToCPUPipelineOptions>(
      "mgpu-to-cpu",
      "Whole interpret pipeline: mgpu kernels to host code in the LLVM "
      "dialect",
      buildMGPUToCPUPipeline);
}
