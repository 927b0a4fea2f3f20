//===- DebugPrint.h - One element of mgpu.debug_print -----------*- C++ -*-===//
//
// mgpu.debug_print prints a vector one element per line; the host backend
// (a loop over a heap copy) and the GPU distribution (each lane over the
// elements it holds) both end in one gpu.printf per element, made here so
// that every backend prints the same text: the indices as 64-bit integers,
// an integer element sign-extended to 64 bits (an i1 zero-extended), a
// float as f32 or f64 for `%f`.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_DEBUGPRINT_H
#define MGPU_KERNELFORM_DEBUGPRINT_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::mgpu {

/// gpu.printf of element `value` of `op`'s vector at `indices` (index).
inline void emitDebugPrintElement(OpBuilder &b, Location loc, DebugPrintOp op,
                                  ValueRange indices, Value value) {
  Type i64 = b.getI64Type();
  SmallVector<Value> args;
  for (Value index : indices)
    args.push_back(arith::IndexCastOp::create(b, loc, i64, index));
  Type type = value.getType();
  if (isa<FloatType>(type)) {
    if (!type.isF32() && !type.isF64())
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  } else if (type.isIndex()) {
    value = arith::IndexCastOp::create(b, loc, i64, value);
  } else if (type.getIntOrFloatBitWidth() == 1) {
    value = arith::ExtUIOp::create(b, loc, i64, value);
  } else if (type.getIntOrFloatBitWidth() < 64) {
    value = arith::ExtSIOp::create(b, loc, i64, value);
  }
  args.push_back(value);
  gpu::PrintfOp::create(b, loc, op.getElementFormat(), args);
}

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_DEBUGPRINT_H
