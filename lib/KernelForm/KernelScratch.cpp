//===- KernelScratch.cpp - Scratch a pass adds to a kernel ----------------===//
//
// See KernelScratch.h: the kernel around an op, and scratch entries added to
// it as internal scratch.
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/KernelScratch.h"

using namespace mlir;
using namespace mlir::mgpu;

FailureOr<KernelRegion> mlir::mgpu::getKernelRegion(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (auto call = dyn_cast<PallasCallOp>(parent))
      return KernelRegion{parent, call.getMeshAttrOrNull()};
    if (auto map = dyn_cast<MpmdMapOp>(parent))
      return KernelRegion{parent,
                          map.getMeshAttrOrNull(region->getRegionNumber())};
  }
  return op->emitOpError() << "must be inside a pallas_call or mpmd_map";
}

SmallVector<Value> mlir::mgpu::addInternalScratch(Operation *kernel,
                                                  ArrayRef<Type> types,
                                                  Region *region) {
  MLIRContext *ctx = kernel->getContext();
  SmallVector<Attribute> scratch;
  if (auto existing = kernel->getAttrOfType<ArrayAttr>("scratch"))
    llvm::append_range(scratch, existing);
  for (Type type : types)
    scratch.push_back(TypeAttr::get(type));
  kernel->setAttr("scratch", ArrayAttr::get(ctx, scratch));
  // Not the user's scratch: S5 does not count it.
  StringLiteral internal = MGPUDialect::getInternalScratchAttrName();
  int64_t before = 0;
  if (auto count = kernel->getAttrOfType<IntegerAttr>(internal))
    before = count.getInt();
  kernel->setAttr(internal, IntegerAttr::get(IntegerType::get(ctx, 64),
                                             before + types.size()));
  SmallVector<Value> added;
  for (Region &r : kernel->getRegions())
    for (Type type : types) {
      BlockArgument arg = r.front().addArgument(type, kernel->getLoc());
      if (&r == region)
        added.push_back(arg);
    }
  return added;
}
