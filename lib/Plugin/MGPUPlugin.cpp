//===- MGPUPlugin.cpp - mgpu as a plugin of stock mlir-opt ----------------===//
//
// MGPUPlugin.so lets an unmodified `mlir-opt` (the one from the LLVM/MLIR
// packages) read, verify and transform mgpu IR:
//
//   mlir-opt --load-dialect-plugin=MGPUPlugin.so \
//            --load-pass-plugin=MGPUPlugin.so \
//            --pass-pipeline='builtin.module(mgpu-split-mpmd)' in.mlir
//
// The one file exports both plugin entry points. The dialect plugin also
// registers the passes, so `--load-dialect-plugin` alone is enough; loading
// both is harmless because the pass registry accepts a pass registered again
// with the same TypeID. The plugin links libMLIR.so, never static MLIR
// libraries: the host tool's MLIR and ours must be one copy, or TypeIDs of
// upstream dialects and interfaces would not match.
//
//===----------------------------------------------------------------------===//

#include "mgpu/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// Entry point of `--load-dialect-plugin`.
extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MGPU", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            mgpu::registerAllMGPUDialects(*registry);
            mgpu::registerAllMGPUPassesAndPipelines();
          }};
}

/// Entry point of `--load-pass-plugin`.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MGPUPasses", LLVM_VERSION_STRING,
          []() { mgpu::registerAllMGPUPassesAndPipelines(); }};
}
