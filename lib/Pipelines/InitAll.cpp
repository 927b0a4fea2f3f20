//===- InitAll.cpp - Register everything mgpu provides --------------------===//
//
// Definitions of include/mgpu/InitAll.h: the lists of what mgpu registers in
// a tool. Extend these (new passes groups, pipelines, interface models) and
// mgpu-opt, MGPUPlugin.so and the C API all pick the addition up.
//
//===----------------------------------------------------------------------===//

#include "mgpu/InitAll.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/BufferizableOpInterfaceImpl.h"
#include "mgpu/Passes.h"
#include "mgpu/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::mgpu::registerAllMGPUDialects(DialectRegistry &registry) {
  registry.insert<MGPUDialect>();
  // So that upstream one-shot-bufferize handles tensor-form kernels too.
  registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::mgpu::registerAllMGPUPassesAndPipelines() {
  registerMGPUPasses();
  registerMGPUPipelines();
}
