//===- LowerRunScoped.cpp - run_scoped allocations as kernel scratch ------===//
//
// `mgpu.run_scoped` regions disappear before the pipelines are expanded:
// their shared buffers and barriers become internal scratch of the kernel
// (so the later passes, launch planning and every backend see only ordinary
// scratch), their accumulators zero vectors (the register allocation of a
// vector is the layout passes' business), and the region is inlined. The
// scratch is per CTA, which is what JAX's thread-collective allocations are;
// the verifier has refused the per-thread ones JAX refuses too.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/KernelForm/KernelScratch.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERRUNSCOPED
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Replaces `op` by its region, allocations made scratch or zeros.
LogicalResult lowerRunScoped(RunScopedOp op, IRRewriter &rewriter) {
  FailureOr<KernelRegion> where = getKernelRegion(op);
  if (failed(where))
    return failure();
  Region *region = nullptr;
  for (Region &r : where->kernel->getRegions())
    if (r.isAncestor(op->getParentRegion()))
      region = &r;

  Block &body = op.getBody().front();
  SmallVector<Type> scratchTypes;
  for (BlockArgument arg : body.getArguments())
    if (!isa<VectorType>(arg.getType()))
      scratchTypes.push_back(arg.getType());
  SmallVector<Value> scratch =
      addInternalScratch(where->kernel, scratchTypes, region);

  rewriter.setInsertionPoint(op);
  SmallVector<Value> replacements;
  unsigned next = 0;
  for (BlockArgument arg : body.getArguments()) {
    auto vector = dyn_cast<VectorType>(arg.getType());
    if (!vector) {
      replacements.push_back(scratch[next++]);
      continue;
    }
    // An accumulator starts at zero (JAX's WGMMAAccumulator.zero).
    TypedAttr zero = rewriter.getZeroAttr(vector);
    if (!zero)
      return op.emitOpError()
             << "cannot make a zero accumulator of type " << vector;
    replacements.push_back(arith::ConstantOp::create(rewriter, op.getLoc(),
                                                     cast<TypedAttr>(zero)));
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  SmallVector<Value> results(yield.getValues());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, op, replacements);
  rewriter.replaceOp(op, results);
  return success();
}

struct LowerRunScopedPass
    : public mgpu::impl::MGPULowerRunScopedBase<LowerRunScopedPass> {
  void runOnOperation() override {
    SmallVector<RunScopedOp> scopes;
    // Post-order: an inner scope is inlined into its outer one first.
    getOperation()->walk([&](RunScopedOp op) { scopes.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (RunScopedOp op : scopes)
      if (failed(lowerRunScoped(op, rewriter)))
        return signalPassFailure();
  }
};

} // namespace
