//===- WgmmaSemantics.cpp - The arithmetic of mgpu.wgmma ------------------===//
//
// One result element of a warpgroup MMA with ordinary instructions (see the
// header): a loop over K in f32, shared by interpret mode and the lane-level
// distribution, so that every backend gives the same numbers.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Conversion/WgmmaSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mgpu;

/// `v` widened to f32; f32 inputs read as tf32 (10 mantissa bits kept).
static Value toProductInput(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type();
  if (v.getType() != f32)
    return arith::ExtFOp::create(b, loc, f32, v);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  Value mask = arith::ConstantIntOp::create(b, loc, ~int64_t(0x1fff), 32);
  return arith::BitcastOp::create(b, loc, f32,
                                  arith::AndIOp::create(b, loc, bits, mask));
}

Value mlir::mgpu::buildWgmmaElement(OpBuilder &b, Location loc, WgmmaOp op,
                                    Value acc, WgmmaElementLoader loadA,
                                    WgmmaElementLoader loadB) {
  int64_t k = cast<ShapedType>(op.getB().getType()).getDimSize(0);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto loop = scf::ForOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, 0),
      arith::ConstantIndexOp::create(b, loc, k),
      arith::ConstantIndexOp::create(b, loc, 1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kk = loop.getInductionVar();
    Value x = toProductInput(b, loc, loadA(b, loc, kk));
    Value y = toProductInput(b, loc, loadB(b, loc, kk));
    // A separate multiply and add: no fused rounding that the other
    // backends would not do.
    Value product = arith::MulFOp::create(b, loc, x, y);
    Value sum =
        arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[0], product);
    scf::YieldOp::create(b, loc, sum);
  }
  Value dot = loop.getResult(0);
  Type accElement = cast<VectorType>(op.getAcc().getType()).getElementType();
  if (accElement != dot.getType())
    dot = arith::TruncFOp::create(b, loc, accElement, dot);
  return acc ? arith::AddFOp::create(b, loc, acc, dot).getResult() : dot;
}
