//===- LaunchForm.cpp - The launches a backend lowers ---------------------===//
//
// Collecting the launches a backend lowers (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/LaunchForm.h"

using namespace mlir;
using namespace mlir::mgpu;

FailureOr<SmallVector<LaunchOp>>
mlir::mgpu::collectLaunches(Operation *root, StringRef pass, StringRef run,
                            function_ref<LogicalResult(Operation *)> check) {
  SmallVector<LaunchOp> launches;
  WalkResult unexpected = root->walk([&](Operation *op) {
    if (auto launch = dyn_cast<LaunchOp>(op))
      launches.push_back(launch);
    if (isa<PallasCallOp, MpmdMapOp>(op)) {
      op->emitOpError() << "must be in launch form before " << pass << " (run "
                        << run << ")";
      return WalkResult::interrupt();
    }
    if (check && failed(check(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (unexpected.wasInterrupted())
    return failure();
  return launches;
}
