//===- Passes.h - mgpu transformation passes --------------------*- C++ -*-===//
//
// Pass constructors and registration of the mgpu passes (generated from
// Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TRANSFORMS_PASSES_H
#define MGPU_TRANSFORMS_PASSES_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mgpu {

#define GEN_PASS_DECL
#include "mgpu/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mgpu/Transforms/Passes.h.inc"

} // namespace mlir::mgpu

#endif // MGPU_TRANSFORMS_PASSES_H
