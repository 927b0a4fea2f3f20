//===- WgmmaSemantics.h - The arithmetic of mgpu.wgmma ----------*- C++ -*-===//
//
// What a warpgroup MMA computes, written once for the backends that compute
// it with ordinary instructions (interpret mode, the emulator, and GPUs
// without the tensor-core lowering): each result element starts from its
// accumulator element widened to f32, adds the products of row i of a and
// column j of b in order of k in f32 (inputs widened to f32; f32 inputs
// first cut to tf32, the 13 low mantissa bits cleared, as the tensor cores
// ignore them), and is rounded to the accumulator's type at the end. i8
// inputs (s8) sum in their i32 accumulator, exactly and wrapping. The
// helpers work on scalars and, elementwise, on vectors.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_WGMMASEMANTICS_H
#define MGPU_DIALECT_MGPU_WGMMASEMANTICS_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// The running sum a result element starts from: `acc` widened to f32 (an
/// i32 `acc` as it is).
Value buildWgmmaStart(OpBuilder &b, Location loc, Value acc);

/// `sum + a * b` in f32 (a and b elements of the inputs), without fusing;
/// in i32 for s8 inputs.
Value buildWgmmaAccumulate(OpBuilder &b, Location loc, Value sum, Value a,
                           Value bElement);

/// The running sum rounded to `accType` (the accumulator's element type, or
/// its vector type).
Value buildWgmmaFinish(OpBuilder &b, Location loc, Value sum, Type accType);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_WGMMASEMANTICS_H
