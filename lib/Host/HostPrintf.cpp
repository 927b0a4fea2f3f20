//===- HostPrintf.cpp - debug_print on the host backends ------------------===//
//
// Pallas' debug_print is `gpu.printf` in a kernel body. On the GPU it
// becomes vprintf, once per warpgroup (the distribution gives side effects
// to lane 0). Interpret mode and the emulator run the body as host code,
// once per program, where this pass makes it a call of the C library's
// printf with the same format: every backend prints the same lines.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUHOSTPRINTF
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

struct HostPrintfPass : public mgpu::impl::MGPUHostPrintfBase<HostPrintfPass> {
  void runOnOperation() override {
    SmallVector<gpu::PrintfOp> prints;
    getOperation().walk([&](gpu::PrintfOp op) {
      if (!op->getParentOfType<gpu::GPUModuleOp>())
        prints.push_back(op);
    });
    for (gpu::PrintfOp op : prints)
      if (failed(lowerPrintfToHost(op)))
        return signalPassFailure();
  }
};

} // namespace
