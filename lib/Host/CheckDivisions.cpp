//===- CheckDivisions.cpp - Runtime checks of integer division
//-------------===//
//
// An integer division or remainder by zero is undefined behaviour: on the
// host it traps or yields garbage that later becomes an out-of-range index
// (the fuzzer found a barrier slot `k mod 0` crashing the host runtime).
// For the host backends this pass asserts, before each scalar integer
// division and remainder of the arith dialect, that the divisor is not
// zero; --mgpu-report-failed-checks turns a failure into a located error.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUCHECKDIVISIONS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;

namespace {

struct CheckDivisionsPass
    : public mgpu::impl::MGPUCheckDivisionsBase<CheckDivisionsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (!isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
               arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
        return;
      Value divisor = op->getOperand(1);
      if (!divisor.getType().isIntOrIndex())
        return;
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value zero = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(divisor.getType())));
      Value nonzero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                            divisor, zero);
      cf::AssertOp::create(b, loc, nonzero, "^ integer division by zero");
    });
  }
};

} // namespace
