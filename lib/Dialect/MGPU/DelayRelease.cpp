//===- DelayRelease.cpp - The rules of block specs' delay_release ---------===//
//
// `delay_release` keeps an input block's slot for N more steps, so a
// pipeline of max_concurrent_steps slots must have more slots than that.
// JAX checks it in emit_pipeline (jax/_src/pallas/mosaic_gpu/pipeline.py:
// 282-289, every level; its test looks at the smallest level only, which
// lets a larger one through to a hang, so mgpu checks the largest) and,
// warp-specialized, asks every input for the same delay (pipeline.py:
// 699-716). The messages are JAX's, Python's spelling included.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult mlir::mgpu::verifyDelayRelease(Operation *op, ArrayAttr inSpecs,
                                             ArrayAttr outSpecs,
                                             CompilerParamsAttr params,
                                             bool warpSpecialized) {
  for (auto [i, spec] : llvm::enumerate(outSpecs.getAsRange<BlockSpecAttr>()))
    if (spec.getDelayRelease() != 0)
      return op->emitOpError()
             << "out_specs[" << i
             << "] has delay_release = " << spec.getDelayRelease()
             << ", but only input blocks are released";
  int64_t steps = params ? params.getMaxConcurrentSteps() : 1;
  std::set<int64_t> levels;
  for (auto spec : inSpecs.getAsRange<BlockSpecAttr>())
    levels.insert(spec.getDelayRelease());
  if (levels.empty() || (levels.size() == 1 && *levels.begin() == 0))
    return success();
  if (warpSpecialized) {
    int64_t first = cast<BlockSpecAttr>(inSpecs[0]).getDelayRelease();
    for (auto spec : inSpecs.getAsRange<BlockSpecAttr>())
      if (spec.getDelayRelease() != first)
        return op->emitOpError()
               << "All inputs must have the same delay_release, but "
                  "in_spec.delay_release="
               << spec.getDelayRelease() << " != delay_release=" << first;
    if (steps <= first)
      return op->emitOpError()
             << "max_concurrent_steps must be greater than delay_release, but "
                "max_concurrent_steps="
             << steps << ", delay_release=" << first;
    return success();
  }
  if (steps <= *levels.rbegin()) {
    std::string list;
    for (int64_t level : levels)
      list += (list.empty() ? "" : ", ") + std::to_string(level);
    return op->emitOpError()
           << "max_concurrent_steps must be greater than all delay_release "
              "values, but max_concurrent_steps="
           << steps << " and delay_release_levels=[" << list << "].";
  }
  return success();
}
