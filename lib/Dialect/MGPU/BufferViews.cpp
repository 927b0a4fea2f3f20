//===- BufferViews.cpp - Which buffer a memref value views
//-----------------===//
//
// The view chains of BufferViews.h: one definition of which ops make a view
// of a buffer, for the passes that tell buffers apart (transform
// propagation, accumulator promotion, barrier placement).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/BufferViews.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mgpu;

Value mlir::mgpu::getViewSource(Operation *op, ViewChain chain) {
  if (isa<memref::SubViewOp, memref::TransposeOp, memref::CastOp,
          memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::ReinterpretCastOp>(op))
    return op->getOperand(0);
  if (auto ref = dyn_cast<ClusterRefOp>(op))
    return ref.getSmem();
  if (chain == ViewChain::sameLayout)
    return Value();
  if (auto slice = dyn_cast<TmemSliceOp>(op))
    return slice.getSrc();
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    return view.getViewSource();
  return Value();
}

Value mlir::mgpu::getViewedBuffer(Value view, ViewChain chain) {
  while (Operation *def = view.getDefiningOp()) {
    Value source = getViewSource(def, chain);
    if (!source)
      break;
    view = source;
  }
  return view;
}

void mlir::mgpu::collectViewedBuffers(Value view,
                                      SmallVectorImpl<Value> &buffers,
                                      ViewChain chain) {
  view = getViewedBuffer(view, chain);
  if (auto select = view.getDefiningOp<arith::SelectOp>()) {
    collectViewedBuffers(select.getTrueValue(), buffers, chain);
    collectViewedBuffers(select.getFalseValue(), buffers, chain);
    return;
  }
  if (!llvm::is_contained(buffers, view))
    buffers.push_back(view);
}
