//===- DeviceMemory.cpp - Device-resident memrefs for a backend -----------===//
//
// Host programs keep data on the device with memrefs in
// #gpu.address_space<global> (see the pass description in Passes.td). This
// pass checks that host code only allocates, frees, copies, views and passes
// such memrefs, turns their allocation and copies into gpu dialect operations
// for the GPU (or leaves them as host memory for interpret mode), and then
// drops the memory space from every type outside gpu.modules, so that the
// upstream host lowerings never see it.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUDEVICEMEMORY
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

bool isDeviceMemory(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Global;
}

bool usesDeviceMemory(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isDeviceMemory);
}

/// Code that runs on the host: not inside a kernel op, a launch or a
/// gpu.module, where device memory is what kernels read and write.
bool isHostCode(Operation *op) {
  Operation *parent = op->getParentOp();
  while (parent && !isa<ModuleOp>(parent)) {
    if (isa<PallasCallOp, MpmdMapOp, gpu::LaunchOp, gpu::GPUModuleOp>(parent))
      return false;
    parent = parent->getParentOp();
  }
  return true;
}

/// What host code may do with device memory: allocate, free and copy it,
/// take views of it and pass it around; kernels read and write it.
bool isAllowedOnHost(Operation *op) {
  return isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp, memref::DimOp,
             memref::ExtractStridedMetadataOp, memref::MemorySpaceCastOp,
             ViewLikeOpInterface, CallOpInterface, func::ReturnOp,
             RegionBranchOpInterface, RegionBranchTerminatorOpInterface,
             BranchOpInterface, PallasCallOp, MpmdMapOp, gpu::LaunchOp,
             gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp>(op);
}

LogicalResult checkHostUses(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!usesDeviceMemory(op) || !isHostCode(op) || isAllowedOnHost(op))
      return WalkResult::advance();
    op->emitOpError()
        << "reads or writes device memory (#gpu.address_space<global>) in "
           "host code; copy it to host memory with memref.copy first";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  WalkResult allocas = module.walk([](memref::AllocaOp op) {
    if (!isDeviceMemory(op.getType()))
      return WalkResult::advance();
    op.emitOpError() << "cannot place device memory "
                        "(#gpu.address_space<global>) on the stack; use "
                        "memref.alloc";
    return WalkResult::interrupt();
  });
  if (allocas.wasInterrupted())
    return failure();
  // Shared (workgroup) and private memory exist only inside kernels: a host
  // function cannot take or return them (nothing lowers such a signature).
  WalkResult signatures = module.walk([](func::FuncOp func) {
    if (func->getParentOfType<gpu::GPUModuleOp>())
      return WalkResult::advance();
    auto isKernelOnly = [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      auto space =
          memref
              ? dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace())
              : nullptr;
      return space && space.getValue() != gpu::AddressSpace::Global;
    };
    for (auto [kind, types] :
         {std::make_pair("argument", func.getArgumentTypes()),
          std::make_pair("result", func.getResultTypes())})
      for (auto [i, type] : llvm::enumerate(types))
        if (isKernelOnly(type)) {
          func.emitOpError() << kind << " #" << i << " is a " << type
                             << ": workgroup and private memory exist only in "
                                "kernel bodies, not in host functions";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return failure(signatures.wasInterrupted());
}

/// Host and device see a copy's memrefs as whole buffers: gpu.memcpy moves
/// the bytes of contiguous memrefs only.
LogicalResult checkContiguous(memref::CopyOp copy) {
  for (Value side : {copy.getSource(), copy.getTarget()}) {
    auto type = cast<MemRefType>(side.getType());
    if (!type.getLayout().isIdentity())
      return copy.emitOpError()
             << "copies between host and device memory need memrefs with "
                "the identity layout, got "
             << type;
  }
  return success();
}

/// Device memory becomes gpu.alloc / gpu.dealloc / gpu.memcpy, each waited
/// for: the host continues once the device buffer exists, is freed, or the
/// copy has landed (the copy to the host is read right after).
LogicalResult lowerToGpuOps(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (!isHostCode(op))
      return;
    if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp>(op) &&
        (usesDeviceMemory(op) ||
         llvm::any_of(op->getResultTypes(), isDeviceMemory)))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto tokenType = gpu::AsyncTokenType::get(b.getContext());
    Value start =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
    Value done;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto device = gpu::AllocOp::create(
          b, loc, alloc.getType(), tokenType, ValueRange{start},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(), false);
      alloc.getResult().replaceAllUsesWith(device.getMemref());
      done = device.getAsyncToken();
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      done = gpu::DeallocOp::create(b, loc, tokenType, ValueRange{start},
                                    dealloc.getMemref())
                 .getAsyncToken();
    } else {
      auto copy = cast<memref::CopyOp>(op);
      if (failed(checkContiguous(copy)))
        return failure();
      done = gpu::MemcpyOp::create(b, loc, tokenType, ValueRange{start},
                                   copy.getTarget(), copy.getSource())
                 .getAsyncToken();
    }
    gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
    op->erase();
  }
  return success();
}

/// The memory space only told host code where data lives; once that is
/// decided, every host-side type drops it (kernels in gpu.modules keep
/// theirs).
void dropDeviceMemorySpace(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isDeviceMemory(type))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  });
  replacer.addReplacement([](UnrankedMemRefType type) -> std::optional<Type> {
    if (!isDeviceMemory(type))
      return std::nullopt;
    return UnrankedMemRefType::get(type.getElementType(), Attribute());
  });
  for (Operation &op : module.getBody()->getOperations())
    if (!isa<gpu::GPUModuleOp>(op))
      replacer.recursivelyReplaceElementsIn(&op, /*replaceAttrs=*/true,
                                            /*replaceLocs=*/false,
                                            /*replaceTypes=*/true);
}

struct DeviceMemoryPass
    : public mgpu::impl::MGPUDeviceMemoryBase<DeviceMemoryPass> {
  using MGPUDeviceMemoryBase::MGPUDeviceMemoryBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (target != "gpu" && target != "host") {
      module.emitError() << "--mgpu-device-memory: unknown target '" << target
                         << "' (expected gpu or host)";
      return signalPassFailure();
    }
    if (failed(checkHostUses(module)))
      return signalPassFailure();
    if (target == "gpu" && failed(lowerToGpuOps(module)))
      return signalPassFailure();
    dropDeviceMemorySpace(module);
  }
};

} // namespace
