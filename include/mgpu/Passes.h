//===- Passes.h - mgpu passes of every layer ---------------------*- C++
//-*-===//
//
// The passes of every layer, declared from each layer's Passes.td
// (include/mgpu/<layer>/Passes.td): the kernel form, the GPU backend, the
// host backends and the pipelines' own. registerMGPUPasses registers them
// all.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_PASSES_H
#define MGPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mgpu {

#define GEN_PASS_DECL
#include "mgpu/KernelForm/Passes.h.inc"
#define GEN_PASS_DECL
#include "mgpu/GPU/Passes.h.inc"
#define GEN_PASS_DECL
#include "mgpu/Host/Passes.h.inc"
#define GEN_PASS_DECL
#include "mgpu/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mgpu/KernelForm/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "mgpu/GPU/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "mgpu/Host/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "mgpu/Pipelines/Passes.h.inc"

/// Registers the passes of every layer.
inline void registerMGPUPasses() {
  registerMGPUKernelFormPasses();
  registerMGPUGPUPasses();
  registerMGPUHostPasses();
  registerMGPUPipelinesPasses();
}

} // namespace mlir::mgpu

#endif // MGPU_PASSES_H
