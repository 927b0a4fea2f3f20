//===- WgmmaSemantics.cpp - The arithmetic of mgpu.wgmma ------------------===//
//
// The three steps of a warpgroup MMA result element with ordinary
// instructions (see the header), shared by interpret mode and the lane
// distribution so that every backend gives the same numbers.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/WgmmaSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::mgpu;

/// `type` with f32 elements (a scalar type or a vector type).
static Type withF32(OpBuilder &b, Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(b.getF32Type());
  return b.getF32Type();
}

Value mlir::mgpu::buildWgmmaStart(OpBuilder &b, Location loc, Value acc) {
  // An i32 accumulator (i8 inputs) sums in i32 itself.
  if (getElementTypeOrSelf(acc.getType()).isInteger(32))
    return acc;
  Type wide = withF32(b, acc.getType());
  if (acc.getType() == wide)
    return acc;
  return arith::ExtFOp::create(b, loc, wide, acc);
}

/// An input element widened to f32; f32 inputs read as tf32 (10 mantissa
/// bits kept).
static Value toProductInput(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type();
  if (v.getType() != f32)
    return arith::ExtFOp::create(b, loc, f32, v);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  Value mask = arith::ConstantIntOp::create(b, loc, ~int64_t(0x1fff), 32);
  return arith::BitcastOp::create(b, loc, f32,
                                  arith::AndIOp::create(b, loc, bits, mask));
}

Value mlir::mgpu::buildWgmmaAccumulate(OpBuilder &b, Location loc, Value sum,
                                       Value a, Value bElement) {
  // s8 x s8 products are exact in i32; their sum wraps, as on the GPU.
  if (sum.getType().isInteger(32)) {
    Type i32 = sum.getType();
    Value product =
        arith::MulIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i32, a),
                              arith::ExtSIOp::create(b, loc, i32, bElement));
    return arith::AddIOp::create(b, loc, sum, product);
  }
  // A separate multiply and add: no fused rounding that another backend
  // would not do.
  Value product = arith::MulFOp::create(b, loc, toProductInput(b, loc, a),
                                        toProductInput(b, loc, bElement));
  return arith::AddFOp::create(b, loc, sum, product);
}

Value mlir::mgpu::buildWgmmaFinish(OpBuilder &b, Location loc, Value sum,
                                   Type accType) {
  if (sum.getType() == accType)
    return sum;
  return arith::TruncFOp::create(b, loc, accType, sum);
}
