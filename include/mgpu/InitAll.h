//===- InitAll.h - Register everything mgpu provides ------------*- C++ -*-===//
//
// The one place that lists what mgpu adds to an MLIR tool: its dialects (with
// their external interface models), and its passes and pipelines. mgpu-opt,
// the mlir-opt plugin (MGPUPlugin.so) and the C API all call these functions,
// so a new pass group, model or pipeline only has to be added to
// lib/Pipelines/InitAll.cpp to be visible from every entry point. The
// functions live in MGPUPipelines (which brings every layer); this header is
// deliberately light, so tools that only register and name passes compile
// fast.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_INITALL_H
#define MGPU_INITALL_H

namespace mlir {
class DialectRegistry;

namespace mgpu {

/// Adds the mgpu dialects and their external models to `registry`. Upstream
/// dialects the mgpu IR uses (func, memref, arith, ...) are the tool's
/// business.
void registerAllMGPUDialects(DialectRegistry &registry);

/// Registers every mgpu pass and pipeline with the global pass registry, so
/// that `--mgpu-...` options and textual pipelines can name them. Safe to call
/// more than once (the registry accepts a pass registered again).
void registerAllMGPUPassesAndPipelines();

} // namespace mgpu
} // namespace mlir

#endif // MGPU_INITALL_H
