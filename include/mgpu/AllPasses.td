//===- AllPasses.td - The passes of every layer ------------*- tablegen -*-===//
//
// Every layer's passes in one record set, for the C API's generated entry
// points (mgpu-c/Passes.h: mlirCreateMGPU<Pass>, mlirRegisterMGPUPasses).
// The passes themselves are declared in each layer's Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_ALLPASSES_TD
#define MGPU_ALLPASSES_TD

include "mgpu/KernelForm/Passes.td"
include "mgpu/GPU/Passes.td"
include "mgpu/Host/Passes.td"
include "mgpu/Pipelines/Passes.td"

#endif // MGPU_ALLPASSES_TD
