//===- MathFlags.cpp - Floating-point freedoms of kernel bodies -----------===//
//
// Kernels are compiled as nvcc compiles CUDA by default: a multiply feeding
// an add may become one fused multiply-add (`contract`), which is faster and
// no less accurate. When a pallas_call's compiler params say
// `approx_math = true` (Pallas' approx_math), its body may also use
// approximate functions and reciprocals (`afn`, `arcp`): `math.exp` becomes
// the hardware's ex2.approx path and division div.approx. This pass records
// those freedoms as fastmath flags on every floating-point op of the bodies;
// the backends' own lowerings honour them.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUMATHFLAGS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

void addFlags(Region &body, arith::FastMathFlags flags) {
  body.walk([&](arith::ArithFastMathInterface op) {
    // A conversion's rounding is what it is for: no flag may drop it.
    if (isa<arith::TruncFOp, arith::ExtFOp>(op))
      return;
    arith::FastMathFlags current = arith::FastMathFlags::none;
    if (arith::FastMathFlagsAttr attr = op.getFastMathFlagsAttr())
      current = attr.getValue();
    op->setAttr(
        op.getFastMathAttrName(),
        arith::FastMathFlagsAttr::get(op->getContext(), current | flags));
  });
}

struct MathFlagsPass : public mgpu::impl::MGPUMathFlagsBase<MathFlagsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto call = dyn_cast<PallasCallOp>(op)) {
        arith::FastMathFlags flags = arith::FastMathFlags::contract;
        if (CompilerParamsAttr params = call.getParamsAttr())
          if (params.getApproxMath())
            flags =
                flags | arith::FastMathFlags::afn | arith::FastMathFlags::arcp;
        addFlags(call.getBody(), flags);
      } else if (auto map = dyn_cast<MpmdMapOp>(op)) {
        for (Region &region : map->getRegions())
          addFlags(region, arith::FastMathFlags::contract);
      }
    });
  }
};

} // namespace
