/*===- Passes.h - C API of the mgpu passes ------------------------*- C -*-===*\
|*                                                                            *|
|* Registration and creation of the mgpu passes from C, generated from        *|
|* include/mgpu/AllPasses.td: `mlirRegisterMGPUPasses()` registers the        *|
|* whole group (so `mlirParsePassPipeline` and `mlirOpPassManager-            *|
|* AddPipeline` can name them), and for each pass X there are                 *|
|* `mlirCreateMGPUX()` and `mlirRegisterMGPUX()` (e.g.                        *|
|* `mlirCreateMGPUMGPUSplitMpmd()` for `--mgpu-split-mpmd`).                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MGPU_C_PASSES_H
#define MGPU_C_PASSES_H

#include "mlir-c/Pass.h"

#include "mgpu-c/Passes.capi.h.inc"

#endif /* MGPU_C_PASSES_H */
