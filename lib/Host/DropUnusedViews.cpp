//===- DropUnusedViews.cpp - Erase views nothing uses ---------------------===//
//
// The host lowerings turn copies into loops over the array a window's views
// resolve to and leave the views behind. A view is address arithmetic: on
// the GPU an unused one costs nothing and checks nothing, and a GMEM view
// that runs past its array (JAX's `x.at[pl.ds(start, k)]`) is valid when
// only copies, which clip at the array, use it. Upstream's runtime
// verification checks every subview, used or not, so the unused ones go
// first; chains go whole, from the last view back to the first.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUDROPUNUSEDVIEWS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// A view (an op without memory effects whose results are memrefs: subview,
/// view, casts, reshapes, transposes) whose results nothing uses.
bool isUnusedView(Operation *op) {
  return op && op->getNumResults() > 0 && op->use_empty() &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::all_of(op->getResultTypes(), llvm::IsaPred<MemRefType>);
}

struct DropUnusedViewsPass
    : public mgpu::impl::MGPUDropUnusedViewsBase<DropUnusedViewsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> worklist;
    getOperation()->walk([&](Operation *op) {
      if (isUnusedView(op))
        worklist.push_back(op);
    });
    while (!worklist.empty()) {
      Operation *view = worklist.pop_back_val();
      SmallVector<Operation *> sources;
      for (Value operand : view->getOperands())
        if (Operation *source = operand.getDefiningOp())
          sources.push_back(source);
      view->erase();
      for (Operation *source : sources)
        if (isUnusedView(source) && !llvm::is_contained(worklist, source))
          worklist.push_back(source);
    }
  }
};

} // namespace
