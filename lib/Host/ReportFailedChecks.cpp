//===- ReportFailedChecks.cpp - Runtime checks as located errors ----------===//
//
// The host backends (interpret mode, the GPU emulator) run upstream's
// --generate-runtime-verification, whose checks are cf.assert ops. A failed
// cf.assert aborts with a signal and a message in its own format; this pass
// turns each into a call of the host runtime (mgpuHostCheckFailed) that
// reports `file:line:col: error: <what failed>` at the checked op and exits
// with status 1, like every other error of the project.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUREPORTFAILEDCHECKS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// What failed, from an upstream check message ("ERROR: Runtime op
/// verification failed\n...^ out-of-bounds access\nLocation: ..."): the text
/// after "^ " on its line, else the whole message.
std::string whatFailed(StringRef message) {
  size_t caret = message.find("^ ");
  if (caret == StringRef::npos)
    return message.str();
  StringRef rest = message.drop_front(caret + 2);
  return rest.take_until([](char c) { return c == '\n'; }).str();
}

struct ReportFailedChecksPass
    : public mgpu::impl::MGPUReportFailedChecksBase<ReportFailedChecksPass> {
  void runOnOperation() override {
    SmallVector<cf::AssertOp> asserts;
    getOperation().walk([&](cf::AssertOp op) { asserts.push_back(op); });
    for (cf::AssertOp op : asserts) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value failed = arith::XOrIOp::create(
          b, loc, op.getArg(), arith::ConstantIntOp::create(b, loc, 1, 1));
      auto ifFailed = scf::IfOp::create(b, loc, failed, false);
      b.setInsertionPointToStart(ifFailed.thenBlock());
      std::string what = whatFailed(op.getMsg());
      callHostRuntime(
          b, op, "mgpuHostCheckFailed",
          {getLocationString(b, op), getStringConstant(b, op, what)});
      op.erase();
    }
  }
};

} // namespace
