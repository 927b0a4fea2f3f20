//===- ClusterMemory.cpp - Peer shared memory on the host -----------------===//
//
// Distributed shared memory on the host backends (see the header): a peer's
// view of a buffer is rebuilt on the host buffer of the cluster's shared
// memory a whole number of CTA slices away, and async_store_smem is a copy
// done when it is issued followed by one arrival on the peer's barrier,
// which is what the GPU's arrival expecting the bytes plus their completion
// amount to once the bytes have landed.
//
//===----------------------------------------------------------------------===//

#include "ClusterMemory.h"

#include "mgpu/Host/HostRuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mgpu;

Value mlir::mgpu::viewInPeer(OpBuilder &b, Location loc, Value local,
                             Value bytes) {
  // The views from the memref.view of the host buffer to `local`.
  SmallVector<Operation *> chain;
  Value value = local;
  memref::ViewOp view;
  while (Operation *def = value.getDefiningOp()) {
    // The view of the host buffer itself; a view of a view (a stage of a
    // byte ring, a RefUnion's ref) is part of the chain.
    if ((view = dyn_cast<memref::ViewOp>(def)) &&
        !view.getSource().getDefiningOp<ViewLikeOpInterface>())
      break;
    view = memref::ViewOp();
    // A cast (a host TMEM buffer's) is part of the chain too.
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      chain.push_back(def);
      value = cast.getSource();
      continue;
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike || def->getNumResults() != 1)
      return Value();
    chain.push_back(def);
    value = viewLike.getViewSource();
  }
  if (!view)
    return Value();
  Value peer = memref::ViewOp::create(
      b, loc, view.getType(), view.getSource(),
      arith::AddIOp::create(b, loc, view.getByteShift(), bytes),
      view.getSizes());
  for (Operation *op : llvm::reverse(chain)) {
    IRMapping mapping;
    mapping.map(isa<memref::CastOp>(op)
                    ? cast<memref::CastOp>(op).getSource()
                    : cast<ViewLikeOpInterface>(op).getViewSource(),
                peer);
    peer = b.clone(*op, mapping)->getResult(0);
  }
  return peer;
}

LogicalResult mlir::mgpu::storeToPeerOnHost(OpBuilder &b, AsyncStoreSmemOp op,
                                            Value src, Value peerDst,
                                            Value barriers, Value index,
                                            Value bytes,
                                            StringRef arrivalRuntime) {
  Location loc = op.getLoc();
  Value peerBarriers = viewInPeer(b, loc, barriers, bytes);
  if (!peerBarriers)
    return op.emitOpError()
           << "cannot run on the host: its barrier is not a view of the "
              "cluster's shared memory";
  memref::CopyOp::create(b, loc, src, peerDst);
  BarrierLikeType type = op.getBarrier().getType();
  Value word = getCheckedBarrier(b, op, peerBarriers, index, type.getCount());
  if (arrivalRuntime.empty())
    arriveOnHostBarrier(b, op, word, type.getArrivals());
  else
    callHostRuntime(
        b, op, arrivalRuntime,
        {word, getI64(b, loc, type.getArrivals()), getLocationString(b, op)});
  return success();
}
