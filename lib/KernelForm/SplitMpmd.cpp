//===- SplitMpmd.cpp - One launch per mesh/function pair ------------------===//
//
// --mgpu-split-mpmd rewrites an mpmd_map with N mesh/function pairs into N
// single-pair mpmd_maps run in pair order, the form JAX's GPU backend
// accepts. The launches share the op's refs; global scratch, which the
// regions share too, becomes a zero-filled buffer passed as an extra output.
// Regions that synchronize with each other cannot be split, since a launch
// would wait for a region that only runs after it.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUSPLITMPMD
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The first semaphore op of `region`, if any.
Operation *findSemaphoreOp(Region &region) {
  Operation *found = nullptr;
  region.walk([&](Operation *op) {
    if (isa<SemaphoreSignalOp, SemaphoreWaitOp, SemaphoreReadOp>(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Regions that both use semaphores may wait on each other: only one launch
/// running them concurrently is safe.
LogicalResult verifyNoCrossRegionSync(MpmdMapOp op) {
  std::optional<unsigned> first;
  for (auto [i, region] : llvm::enumerate(op.getBodies())) {
    Operation *sem = findSemaphoreOp(region);
    if (!sem)
      continue;
    if (!first) {
      first = i;
      continue;
    }
    InFlightDiagnostic diag =
        sem->emitOpError()
        << "synchronizes regions #" << *first << " and #" << i
        << " of an mgpu.mpmd_map, which must then run concurrently in one "
           "launch; --mgpu-split-mpmd cannot split it";
    diag.attachNote(op.getLoc()) << "the mpmd_map is here";
    return diag;
  }
  return success();
}

/// The meshes (other pairs' or external) that region `index` needs as
/// external meshes so that its axis_size ops keep their super-mesh.
ArrayAttr getExternalMeshesFor(MpmdMapOp op, unsigned index) {
  llvm::SetVector<Attribute> external;
  if (ArrayAttr original = op.getExternalMeshesAttr())
    external.insert(original.begin(), original.end());
  MeshAttr own = op.getMeshAttrOrNull(index);
  op.getBodies()[index].walk([&](AxisSizeOp sizeOp) {
    StringRef name = sizeOp.getAxisName();
    if (own.getAxisSize(name))
      return;
    for (Attribute attr : op.getMeshes())
      if (cast<MeshAttr>(attr).getAxisSize(name)) {
        external.insert(attr);
        return;
      }
  });
  if (external.empty())
    return nullptr;
  return ArrayAttr::get(op.getContext(), external.getArrayRef());
}

/// A zero-filled buffer standing in for a global scratch operand: a tensor in
/// tensor form, a memref (freed by the caller) in memref form.
FailureOr<Value> createZeroedScratch(OpBuilder &b, MpmdMapOp op,
                                     MemRefType type, bool tensorForm) {
  Location loc = op.getLoc();
  Type elementType = type.getElementType();
  TypedAttr zeroAttr = dyn_cast_or_null<TypedAttr>(b.getZeroAttr(elementType));
  if (!zeroAttr)
    return op.emitOpError() << "cannot zero-initialize global scratch of type "
                            << type << " when splitting";
  Value zero = arith::ConstantOp::create(b, loc, zeroAttr);
  if (!tensorForm) {
    Value buffer = memref::AllocOp::create(b, loc, type);
    linalg::FillOp::create(b, loc, zero, buffer);
    return buffer;
  }
  if (getGlobalRefType(RankedTensorType::get(type.getShape(), elementType)) !=
      type)
    return op.emitOpError() << "cannot pass global scratch of type " << type
                            << " as a tensor when splitting; bufferize first";
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), elementType);
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

LogicalResult splitMpmdMap(MpmdMapOp op) {
  if (failed(verifyNoCrossRegionSync(op)))
    return failure();

  OpBuilder b(op);
  Location loc = op.getLoc();
  bool tensorForm = op.getNumResults() > 0;

  // Scratch: global buffers become extra outputs, shared memory stays.
  SmallVector<Type> scratchTypes;
  if (std::optional<ArrayAttr> scratch = op.getScratch())
    for (Attribute attr : *scratch)
      scratchTypes.push_back(cast<TypeAttr>(attr).getValue());
  SmallVector<unsigned> globalScratch, sharedScratch;
  // Barrier arrays live in shared memory too.
  for (auto [i, type] : llvm::enumerate(scratchTypes))
    (isWorkgroupMemRef(type) || isa<BarrierLikeType, TmemType>(type)
         ? sharedScratch
         : globalScratch)
        .push_back(i);

  SmallVector<Value> outs(op.getOuts());
  SmallVector<Value> buffers;
  for (unsigned i : globalScratch) {
    FailureOr<Value> buffer = createZeroedScratch(
        b, op, cast<MemRefType>(scratchTypes[i]), tensorForm);
    if (failed(buffer))
      return failure();
    outs.push_back(*buffer);
    buffers.push_back(*buffer);
  }
  SmallVector<Attribute> sharedTypes;
  for (unsigned i : sharedScratch)
    sharedTypes.push_back(TypeAttr::get(scratchTypes[i]));
  ArrayAttr sharedAttr =
      sharedTypes.empty() ? nullptr : b.getArrayAttr(sharedTypes);

  // Block argument order of the new regions, as indices into the old ones.
  unsigned numRefs = op.getIns().size() + op.getOuts().size();
  SmallVector<unsigned> oldArgIndex;
  for (unsigned i = 0; i < numRefs; ++i)
    oldArgIndex.push_back(i);
  for (unsigned i : globalScratch)
    oldArgIndex.push_back(numRefs + i);
  for (unsigned i : sharedScratch)
    oldArgIndex.push_back(numRefs + i);

  for (auto [index, oldRegion] : llvm::enumerate(op.getBodies())) {
    SmallVector<Type> resultTypes;
    if (tensorForm)
      resultTypes = llvm::to_vector(ValueRange(outs).getTypes());
    auto launch = MpmdMapOp::create(
        b, loc, resultTypes, b.getArrayAttr({op.getMeshes()[index]}),
        op.getIns(), outs, sharedAttr, getExternalMeshesFor(op, index),
        op.getParamsAttr(), /*bodiesCount=*/1);

    Block *oldBlock = &oldRegion.front();
    Block *newBlock = new Block();
    launch.getBodies()[0].push_back(newBlock);
    for (unsigned old : oldArgIndex) {
      BlockArgument oldArg = oldBlock->getArgument(old);
      oldArg.replaceAllUsesWith(
          newBlock->addArgument(oldArg.getType(), oldArg.getLoc()));
    }
    newBlock->getOperations().splice(newBlock->end(),
                                     oldBlock->getOperations());
    if (tensorForm)
      outs = llvm::to_vector(ValueRange(launch.getResults()));
  }

  if (tensorForm)
    op.replaceAllUsesWith(ValueRange(outs).take_front(op.getNumResults()));
  else
    for (Value buffer : buffers)
      memref::DeallocOp::create(b, loc, buffer);
  op.erase();
  return success();
}

/// Whether one launch can hold every pair of `op`: one cluster shape.
bool sharesOneCluster(MpmdMapOp op) {
  for (unsigned i = 1, e = op.getBodies().size(); i < e; ++i)
    if (op.getMeshAttrOrNull(i).getCluster() !=
        op.getMeshAttrOrNull(0).getCluster())
      return false;
  return true;
}

struct SplitMpmdPass : public mgpu::impl::MGPUSplitMpmdBase<SplitMpmdPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<MpmdMapOp> ops;
    getOperation()->walk([&](MpmdMapOp op) {
      if (op.getBodies().size() > 1 &&
          (!differentClustersOnly || !sharesOneCluster(op)))
        ops.push_back(op);
    });
    for (MpmdMapOp op : ops)
      if (failed(splitMpmdMap(op)))
        return signalPassFailure();
  }
};

} // namespace
