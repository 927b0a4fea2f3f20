//===- Passes.h - mgpu passes -----------------------------------*- C++ -*-===//
//
// Pass constructors, options and registration of every mgpu pass (generated
// from Passes.td, which lists them by layer). Only the pass framework is
// included here: a pass's own file includes the dialects it creates ops of,
// so that a file using one pass does not parse every dialect's headers.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_PASSES_H
#define MGPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mgpu {

#define GEN_PASS_DECL
#include "mgpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mgpu/Passes.h.inc"

} // namespace mlir::mgpu

#endif // MGPU_PASSES_H
