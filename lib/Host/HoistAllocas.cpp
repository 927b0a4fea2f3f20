//===- HoistAllocas.cpp - Fixed-size stack buffers out of loops -----------===//
//
// --convert-vector-to-scf puts the stack buffers of its N-D transfers at
// the top of the loop body that holds them. LLVM keeps an alloca outside
// the entry block as a dynamic one, taken again on every iteration, so a
// pipelined grid of a thousand steps ran out of stack on the host (found by
// utils/fuzz.py: a 4 x 1023 attention grid crashed interpret mode). This
// pass moves every statically shaped memref.alloca out of the sequential
// control flow around it (loops, branches) to the start of the enclosing
// region, where it is taken once; never out of a parallel region, whose
// threads each need their own buffer.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUHOISTALLOCAS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct HoistAllocasPass
    : public mgpu::impl::MGPUHoistAllocasBase<HoistAllocasPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation()->walk([&](memref::AllocaOp op) {
      if (op->getNumOperands() == 0)
        allocas.push_back(op);
    });
    for (memref::AllocaOp op : allocas) {
      // Out of the sequential control flow around it (scf.for is an
      // allocation scope, but its LLVM lowering frees nothing per
      // iteration), not out of parallel regions, whose threads need their
      // own buffers.
      Region *region = op->getParentRegion();
      while (Operation *parent = region->getParentOp()) {
        if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp,
                 scf::ExecuteRegionOp>(parent))
          break;
        region = parent->getParentRegion();
      }
      Block &entry = region->front();
      if (op->getBlock() != &entry)
        op->moveBefore(&entry, entry.begin());
    }
  }
};

} // namespace
