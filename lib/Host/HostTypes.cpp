//===- HostTypes.cpp - Kernel values in host memory -----------------------===//
//
// Shared memory as host memory (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostTypes.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

Type mlir::mgpu::toHostType(Type type) {
  if (!isWorkgroupMemRef(type))
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
