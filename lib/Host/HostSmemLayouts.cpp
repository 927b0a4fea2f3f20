//===- HostSmemLayouts.cpp - Interpret mode's physical shared layouts -----===//
//
// With `smem-layouts` (the default), interpret mode stores a shared buffer
// whose copies name transforms in the tiled, swizzled layout the GPU gives
// it, and whatever reads or writes it through those transforms (copies in
// and out, the tensor cores' operands) moves its elements through the
// layout (mgpuHostMoveThroughLayout, HostLayouts.cpp). A reader that
// ignores the layout then sees the scrambled bytes a GPU would, on the CPU
// too.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Host/PrimitivesToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Moves the elements of `view` (a 2-d view of a buffer laid out by
/// `transforms`) to or from the row-major `rowMajor`.
static void moveThroughLayout(OpBuilder &b, Operation *op, Value view,
                              Value rowMajor, ArrayAttr transforms,
                              bool toBuffer) {
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(view.getType());
  // Verified by the op that names the transforms (on the stored buffer
  // where the view transposes it).
  SwizzledTiling tiling = *getSwizzledTiling(op, "a shared buffer", transforms,
                                             getStoredType(type));
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, view);
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index)
        .getResult();
  };
  callHostRuntime(
      b, op, "mgpuHostMoveThroughLayout",
      {getElementPointer(b, loc, view), toI64(metadata.getOffset()),
       getI64(b, loc, type.getDimSize(0)), getI64(b, loc, type.getDimSize(1)),
       toI64(metadata.getStrides()[0]), toI64(metadata.getStrides()[1]),
       getElementPointer(b, loc, rowMajor), getI64(b, loc, tiling.elementBytes),
       getI64(b, loc, tiling.rows), getI64(b, loc, tiling.cols),
       getI64(b, loc, toBuffer)});
}

Value mlir::mgpu::readThroughLayout(OpBuilder &b, Operation *op, Value view,
                                    ArrayAttr transforms) {
  auto type = cast<MemRefType>(view.getType());
  Value rowMajor = memref::AllocOp::create(
      b, op->getLoc(), MemRefType::get(type.getShape(), type.getElementType()));
  moveThroughLayout(b, op, view, rowMajor, transforms, /*toBuffer=*/false);
  return rowMajor;
}

void mlir::mgpu::writeThroughLayout(OpBuilder &b, Operation *op, Value view,
                                    Value rowMajor, ArrayAttr transforms) {
  moveThroughLayout(b, op, view, rowMajor, transforms, /*toBuffer=*/true);
}

void mlir::mgpu::accessThroughLayouts(Operation *host, bool smemLayouts) {
  SmallVector<Operation *> marked;
  host->walk([&](Operation *op) {
    if (op->hasAttr(kAccessTransformsAttrName))
      marked.push_back(op);
  });
  for (Operation *op : marked) {
    auto transforms = op->getAttrOfType<ArrayAttr>(kAccessTransformsAttrName);
    op->removeAttr(kAccessTransformsAttrName);
    if (!smemLayouts)
      continue;
    // The access covers the whole view (--mgpu-propagate-transforms).
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
      Value rowMajor = readThroughLayout(b, op, read.getBase(), transforms);
      read.getBaseMutable().assign(rowMajor);
      b.setInsertionPointAfter(op);
      memref::DeallocOp::create(b, loc, rowMajor);
      continue;
    }
    auto write = cast<vector::TransferWriteOp>(op);
    auto type = cast<MemRefType>(write.getBase().getType());
    Value view = write.getBase();
    Value rowMajor = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    write.getBaseMutable().assign(rowMajor);
    b.setInsertionPointAfter(op);
    writeThroughLayout(b, op, view, rowMajor, transforms);
    memref::DeallocOp::create(b, loc, rowMajor);
  }
}
