//===- CheckModuleLevel.cpp - Code outside any function, refused ----------===//
//
// A builtin.module may hold any op, but only functions run. An op such as a
// vector.print written at module level went through the lowering to an LLVM
// instruction without a parent function, which LLVM's verifier refused with
// an IR dump, no location, and "cannot compile the module" from mgpu-run.
// The pipelines start with this check so that the error names the op.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUCHECKMODULELEVEL
#include "mgpu/Pipelines/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;

namespace {

/// What may stand directly in a module: symbols (functions, globals,
/// gpu.modules), ops isolated from above (nested modules), and the LLVM
/// dialect's module-level declarations, which take and make no values.
bool belongsAtModuleLevel(Operation *op) {
  if (isa<SymbolOpInterface>(op) ||
      op->hasTrait<OpTrait::IsIsolatedFromAbove>())
    return true;
  return isa<LLVM::LLVMDialect>(op->getDialect()) &&
         op->getNumOperands() == 0 && op->getNumResults() == 0 &&
         !isa<CallOpInterface>(op);
}

struct CheckModuleLevelPass
    : public mgpu::impl::MGPUCheckModuleLevelBase<CheckModuleLevelPass> {
  void runOnOperation() override {
    bool refused = false;
    getOperation()->walk([&](ModuleOp module) {
      for (Operation &op : *module.getBody()) {
        if (belongsAtModuleLevel(&op))
          continue;
        op.emitOpError() << "is at module level, outside any function, where "
                            "nothing runs it: move it into a function";
        refused = true;
      }
    });
    if (refused)
      signalPassFailure();
  }
};

} // namespace
