//===- HostTypes.cpp - Kernel values in host memory -----------------------===//
//
// Shared memory as host memory (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostTypes.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Private memory (a thread's own, in upstream kernels' private
/// attributions and allocas) is host memory just as shared memory is.
static bool isPrivateMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space =
      memref
          ? dyn_cast_if_present<gpu::AddressSpaceAttr>(memref.getMemorySpace())
          : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Private;
}

Type mlir::mgpu::toHostType(Type type) {
  if (!isWorkgroupMemRef(type) && !isPrivateMemRef(type))
    return type;
  auto memref = cast<MemRefType>(type);
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

void mlir::mgpu::setHostTypes(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        arg.setType(toHostType(arg.getType()));
  for (OpResult result : op->getResults())
    result.setType(toHostType(result.getType()));
}
