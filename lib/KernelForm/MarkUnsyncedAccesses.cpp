//===- MarkUnsyncedAccesses.cpp - --mgpu-mark-unsynced-accesses -----------===//
//
// JAX's `unsafe_no_auto_barriers` compiler param lets a kernel give up the
// barriers Pallas puts between the accesses of a warpgroup's lanes to
// shared memory, which keep a warpgroup's loads and stores in program
// order. In mgpu those barriers are placed by --mgpu-place-barriers,
// long after the compiler params are gone; this pass carries the choice
// there as a unit attribute on each memory access of such a kernel's
// bodies. The barriers of mgpu's own exchanges between lanes (layout
// changes, reductions) and of commit_smem are not the user's to drop and
// stay.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUMARKUNSYNCEDACCESSES
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

bool isMemoryAccess(Operation *op) {
  return isa<vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
             vector::StoreOp, memref::LoadOp, memref::StoreOp>(op);
}

void markAccesses(Operation *kernel, CompilerParamsAttr params) {
  if (!params || !params.getUnsafeNoAutoBarriers())
    return;
  UnitAttr mark = UnitAttr::get(kernel->getContext());
  for (Region &region : kernel->getRegions())
    region.walk([&](Operation *op) {
      if (isMemoryAccess(op))
        op->setAttr(MGPUDialect::getUnsyncedAttrName(), mark);
    });
}

struct MarkUnsyncedAccessesPass
    : public mgpu::impl::MGPUMarkUnsyncedAccessesBase<
          MarkUnsyncedAccessesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto call = dyn_cast<PallasCallOp>(op))
        markAccesses(call, call.getParamsAttr());
      else if (auto map = dyn_cast<MpmdMapOp>(op))
        markAccesses(map, map.getParamsAttr());
    });
  }
};

} // namespace
