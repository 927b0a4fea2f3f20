//===- Dialects.cpp - C API of the mgpu dialect ---------------------------===//
//
// Defines `mlirGetDialectHandle__mgpu__`, the handle through which C users
// register and load the mgpu dialect.
//
//===----------------------------------------------------------------------===//

#include "mgpu-c/Dialects.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MGPU, mgpu, mlir::mgpu::MGPUDialect)
