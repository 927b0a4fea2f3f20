/*===- Dialects.h - C API of the mgpu dialect ---------------------*- C -*-===*\
|*                                                                            *|
|* The dialect handle of mgpu for C (and Python/Rust/... bindings) users:     *|
|* `mlirGetDialectHandle__mgpu__()` works with the upstream                   *|
|* `mlirDialectHandleRegisterDialect` / `mlirDialectHandleLoadDialect` /      *|
|* `mlirDialectHandleInsertDialect`. Link MGPU::MGPUCAPI, which brings the    *|
|* core MLIR C API (mlir-c/IR.h, mlir-c/Pass.h, ...) in libMGPUMLIRCAPI.so.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MGPU_C_DIALECTS_H
#define MGPU_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MGPU, mgpu);

#ifdef __cplusplus
}
#endif

#endif /* MGPU_C_DIALECTS_H */
