/*===- RegisterEverything.h - Register all of mgpu from C ---------*- C -*-===*\
|*                                                                            *|
|* The C counterpart of include/mgpu/InitAll.h: one call for all mgpu         *|
|* dialects, one for all mgpu passes and pipelines, so C users pick up new    *|
|* pipelines without changing their code.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MGPU_C_REGISTEREVERYTHING_H
#define MGPU_C_REGISTEREVERYTHING_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds every mgpu dialect to `registry`.
MLIR_CAPI_EXPORTED void
mlirRegisterAllMGPUDialects(MlirDialectRegistry registry);

/// Registers every mgpu pass and pipeline with the global pass registry.
MLIR_CAPI_EXPORTED void mlirRegisterAllMGPUPassesAndPipelines(void);

#ifdef __cplusplus
}
#endif

#endif /* MGPU_C_REGISTEREVERYTHING_H */
