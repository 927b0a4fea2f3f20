//===- AlignDynamicSharedMemory.cpp - --mgpu-align-dynamic-shared-memory ===//
//
// The dynamic shared memory of a kernel as CUDA declares it: an extern,
// unsized array of the shared address space. Upstream's lowering of
// gpu.dynamic_shared_memory defines an internal zero-sized global aligned
// to 16 bytes, which NVPTX prints as a 1-byte static shared variable; the
// kernel then addresses its dynamic shared memory from that variable, whose
// address need not be a multiple of the 1024 bytes that 128-byte-swizzled
// TMA boxes and wgmma operands need (the swizzle is a function of the
// absolute address). Declared extern with that alignment, the array is the
// start of the dynamic shared memory, placed by the driver at an aligned
// address.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Passes.h"
#include "mgpu/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUALIGNDYNAMICSHAREDMEMORY
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// A zero-sized array in the shared address space: only dynamic shared
/// memory is declared that way.
bool isDynamicSharedMemory(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getNumElements() == 0 &&
         global.getAddrSpace() ==
             static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
}

struct AlignDynamicSharedMemoryPass
    : mgpu::impl::MGPUAlignDynamicSharedMemoryBase<
          AlignDynamicSharedMemoryPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!isDynamicSharedMemory(global))
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(TargetInfo::kSwizzleAtomBytes);
      // A declaration has no initial value.
      global.removeValueAttr();
      if (Block *init = global.getInitializerBlock())
        init->getParent()->getBlocks().clear();
    }
  }
};

} // namespace
