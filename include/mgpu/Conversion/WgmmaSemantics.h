//===- WgmmaSemantics.h - The arithmetic of mgpu.wgmma ----------*- C++ -*-===//
//
// What one element of a warpgroup MMA's result is, written once for the
// backends that compute it with ordinary instructions (interpret mode, the
// emulator, and GPUs without tensor-core lowering): the products of row i
// of a and column j of b, inputs widened to f32 (f32 inputs first cut to
// tf32, the 13 low mantissa bits cleared as the tensor cores ignore them),
// summed over K in f32 in order, rounded to the accumulator's type, then
// added to the accumulator element.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_CONVERSION_WGMMASEMANTICS_H
#define MGPU_CONVERSION_WGMMASEMANTICS_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Loads element (row, k) of a, or (k, column) of b, at the builder's point.
using WgmmaElementLoader = function_ref<Value(OpBuilder &, Location, Value k)>;

/// `acc + round(sum over k of a(k) * b(k))` for one result element of `op`,
/// where `loadA(k)` and `loadB(k)` read that element's row of a and column
/// of b, and `acc` is the accumulator element (null: the rounded sum alone,
/// for a caller that adds the accumulator itself).
Value buildWgmmaElement(OpBuilder &b, Location loc, WgmmaOp op, Value acc,
                        WgmmaElementLoader loadA, WgmmaElementLoader loadB);

} // namespace mlir::mgpu

#endif // MGPU_CONVERSION_WGMMASEMANTICS_H
