//===- RegisterEverything.cpp - Register all of mgpu from C ---------------===//
//
// C wrappers of include/mgpu/InitAll.h, so that C users get every dialect,
// pass and pipeline that mgpu-opt and the mlir-opt plugin get.
//
//===----------------------------------------------------------------------===//

#include "mgpu-c/RegisterEverything.h"

#include "mgpu/InitAll.h"

#include "mlir/CAPI/IR.h"

void mlirRegisterAllMGPUDialects(MlirDialectRegistry registry) {
  mlir::mgpu::registerAllMGPUDialects(*unwrap(registry));
}

void mlirRegisterAllMGPUPassesAndPipelines(void) {
  mlir::mgpu::registerAllMGPUPassesAndPipelines();
}
