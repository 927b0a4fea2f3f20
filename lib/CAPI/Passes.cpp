//===- Passes.cpp - C API of the mgpu passes ------------------------------===//
//
// Definitions of the generated pass entry points declared in mgpu-c/Passes.h
// (mlirRegisterMGPUPasses, mlirCreateMGPU<Pass>, mlirRegisterMGPU<Pass>).
//
//===----------------------------------------------------------------------===//

#include "mgpu-c/Passes.h"

#include "mgpu/Passes.h"

#include "mlir/CAPI/Pass.h"

// The generated code names the C++ entry points without a namespace.
using namespace mlir;
using namespace mlir::mgpu;

#ifdef __cplusplus
extern "C" {
#endif

#include "Passes.capi.cpp.inc"

#ifdef __cplusplus
}
#endif
