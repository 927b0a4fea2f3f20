//===- mgpu-opt.cpp - mlir-opt with the mgpu dialect ----------------------===//
//
// The mgpu optimizer driver: every upstream dialect, extension, pass and
// LLVM IR translation as in mlir-opt (so that pipelines ending in
// gpu-module-to-binary work), plus the mgpu dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "mgpu/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::mgpu::registerAllMGPUPassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::mgpu::registerAllMGPUDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mgpu optimizer driver: mlir-opt with the mgpu dialect\n",
      registry));
}
