//===- DistributeWarpgroups.cpp - --mgpu-distribute-warpgroups ------------===//
//
// Turns each mgpu.launch written at the level of Pallas threads into per-lane
// code (`lanes`): the body is re-emitted op by op by the warpgroup
// distribution (WarpgroupDistribution.h) in the layouts that
// --mgpu-assign-layouts recorded, which this pass requires of every vector
// value. Data the lanes exchange goes through a new shared scratch entry,
// one area per warpgroup, sized once the whole body is distributed; the
// launch's shared memory must still fit the chip.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/GPU/WarpgroupDistribution.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUDISTRIBUTEWARPGROUPS
#include "mgpu/GPU/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// linalg ops on memrefs become parallel loops, which distribute as scalar
/// code. The loops load every operand, the outputs that the op's body
/// does not read (linalg.fill's) too: those loads are dropped, as a read of
/// shared memory that no one wrote (undefined on the GPU) is an error in
/// the emulator.
LogicalResult lowerLinalg(Block &body) {
  SmallVector<linalg::LinalgOp> linalgOps;
  body.walk([&](linalg::LinalgOp op) { linalgOps.push_back(op); });
  IRRewriter rewriter(body.getParentOp()->getContext());
  for (linalg::LinalgOp op : linalgOps) {
    if (!op.hasPureBufferSemantics())
      return op->emitOpError()
             << "cannot be lowered to the GPU: linalg ops in a kernel body "
                "must work on memrefs";
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToParallelLoops(rewriter, op);
    if (failed(loops))
      return op->emitOpError()
             << "cannot be lowered to the GPU: no loop form for this op";
    rewriter.eraseOp(op);
    for (Operation *loop : *loops)
      loop->walk([&](memref::LoadOp load) {
        if (load.use_empty())
          rewriter.eraseOp(load);
      });
  }
  return success();
}

/// Every vector value must say how the lanes hold it.
LogicalResult verifyLayoutsAssigned(Block &body) {
  WalkResult result = body.walk([](Operation *op) {
    if (getLayoutValues(op).empty() || op->hasAttr(kOutLayoutsAttrName))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError()
                              << "has a vector result without a lane layout ('"
                              << kOutLayoutsAttrName << "')";
    diag.attachNote() << "run --mgpu-assign-layouts before "
                         "--mgpu-distribute-warpgroups";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult distribute(LaunchOp launch, bool mmaSync) {
  Block &body = launch.getBody().front();
  const TargetInfo &target = getTargetInfo(launch);
  if (failed(lowerLinalg(body)) || failed(verifyLayoutsAssigned(body)))
    return failure();

  // The per-lane launch: a lane index after the warpgroup's, and the
  // exchange area after the shared scratch (its size is patched below).
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  MLIRContext *ctx = b.getContext();
  auto placeholder = MemRefType::get(
      {0}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  SmallVector<Type> shared = launch.getSharedScratchTypes();
  SmallVector<int64_t> offsets(launch.getSharedScratchOffsets());
  int64_t exchangeStart = llvm::alignTo(launch.getSharedMemoryBytes(),
                                        TargetInfo::kSharedAlignment);
  shared.push_back(placeholder);
  offsets.push_back(exchangeStart);
  auto lanes = LaunchOp::create(
      b, loc, launch.getGrid(), launch.getStaticGridAttr(),
      launch.getClusterAttr(), launch.getWarpgroupsAttr(), b.getUnitAttr(),
      launch.getScalars(), launch.getIns(), launch.getOuts(),
      launch.getWriteOnlyOutsAttr(), launch.getGlobalScratchAttr(),
      b.getTypeArrayAttr(shared), b.getDenseI64ArrayAttr(offsets));
  Block *laneBody = lanes.createBody(b);

  IRMapping mapping;
  unsigned beforeLane = lanes.getLaneId().getArgNumber();
  mapping.map(body.getArguments().take_front(beforeLane),
              laneBody->getArguments().take_front(beforeLane));
  mapping.map(body.getArguments().drop_front(beforeLane),
              laneBody->getArguments().drop_front(beforeLane + 1).drop_back());

  // Each warpgroup's exchange area starts `perWarpgroup` bytes after the
  // previous one's.
  Value warpgroup = lanes.getWarpgroupId();
  auto perWarpgroup = arith::ConstantIndexOp::create(b, loc, 0);
  Value offset = arith::MulIOp::create(b, loc, warpgroup, perWarpgroup);
  BlockArgument exchange = laneBody->getArguments().back();
  WarpgroupScratch scratch(exchange, offset);
  WarpgroupContext context{lanes.getLaneId(), &scratch, mmaSync};
  if (failed(distributeWarpgroupBody(b, body, mapping, context)))
    return failure();

  int64_t bytesPerWarpgroup = llvm::alignTo(scratch.getRequiredBytes(), 16);
  int64_t exchangeBytes = bytesPerWarpgroup * launch.getWarpgroups();
  perWarpgroup->setAttr("value", b.getIndexAttr(bytesPerWarpgroup));
  if (exchangeBytes == 0) {
    // Nothing is exchanged: no area.
    laneBody->eraseArgument(exchange.getArgNumber());
    shared.pop_back();
    offsets.pop_back();
  } else {
    shared.back() = MemRefType::get({exchangeBytes}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(),
                                    placeholder.getMemorySpace());
    exchange.setType(shared.back());
  }
  lanes.setSharedScratchAttr(shared.empty() ? nullptr
                                            : b.getTypeArrayAttr(shared));
  lanes.setSharedOffsetsAttr(offsets.empty() ? nullptr
                                             : b.getDenseI64ArrayAttr(offsets));

  int64_t total = lanes.getSharedMemoryBytes();
  if (total > target.maxSharedMemoryBytes) {
    InFlightDiagnostic diag =
        launch.emitOpError()
        << "needs " << total << " bytes of shared memory on the GPU ("
        << exchangeStart << " for staged blocks and scratch, "
        << bytesPerWarpgroup
        << " per warpgroup for data exchanged between lanes), more than "
        << target.chip << " has (" << target.maxSharedMemoryBytes << ")";
    diag.attachNote() << "use smaller blocks or vectors";
    lanes.erase();
    return diag;
  }
  launch.erase();
  return success();
}

struct DistributeWarpgroupsPass
    : public mgpu::impl::MGPUDistributeWarpgroupsBase<
          DistributeWarpgroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<LaunchOp> launches;
    getOperation()->walk([&](LaunchOp launch) {
      if (!launch.getLanes())
        launches.push_back(launch);
    });
    for (LaunchOp launch : launches)
      if (failed(distribute(launch, mmaSync)))
        return signalPassFailure();
  }
};

} // namespace
