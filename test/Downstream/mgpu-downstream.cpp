//===- mgpu-downstream.cpp - A compiler that reuses mgpu ------------------===//
//
// The smallest downstream tool of the installed mgpu package: registers the
// upstream dialects and everything mgpu provides (mgpu/InitAll.h), parses a
// file, runs the passes given on the command line (pipeline elements, such
// as `mgpu-split-mpmd`) on its module through its own PassManager, and prints
// the result. Built against the install tree by the
// lit test downstream.mlir. It names passes through the registry instead of
// including mgpu/Passes.h, as a compiler assembling pipelines
// would; that also keeps its build fast.
//
//===----------------------------------------------------------------------===//

#include "mgpu/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: mgpu-downstream FILE PASSES\n";
    return 2;
  }

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::mgpu::registerAllMGPUDialects(registry);
  mlir::mgpu::registerAllMGPUPassesAndPipelines();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  // Anchored on the top-level module: PASSES run on it, as with mlir-opt.
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
  if (mlir::failed(mlir::parsePassPipeline(argv[2], pm, llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;

  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
