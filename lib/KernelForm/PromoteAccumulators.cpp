//===- PromoteAccumulators.cpp - Loop-carried vectors for revisited blocks ===//
//
// A body that accumulates into a shared-memory block across the steps of a
// loop (an emit_pipeline over K reading, updating and writing back its output
// tile) round-trips the accumulator through shared memory at every step. This
// pass turns such a read / update / write-back pair into a vector carried by
// the loop: the read moves before the loop, the write after it. The GPU
// distribution can then keep the accumulator in registers, in the layout the
// tensor cores use, for the whole loop.
//
// The pair is promoted when both transfers access the same memref at the same
// loop-invariant indices with the same in-bounds vector type, and no other op
// in the loop may touch that memory: every other memref operand in the loop
// must come from a different shared-memory buffer of the kernel, or be a
// transfer of the same buffer at provably disjoint indices. Only kernels with
// one Pallas thread per program are rewritten, since another thread could
// read the block between the steps, and the compute threads' loops of
// warp-specialized pipelines whose body does not synchronize (there no other
// thread can see the block between the steps without a race).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPROMOTEACCUMULATORS
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// The buffer a memref is a view of.
Value getRootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The buffers a memref may be a view of: through views and the choices of
/// an arith.select (a compute thread picking its block).
void collectRootBuffers(Value memref, SmallVectorImpl<Value> &roots) {
  memref = getRootBuffer(memref);
  if (auto select = memref.getDefiningOp<arith::SelectOp>()) {
    collectRootBuffers(select.getTrueValue(), roots);
    collectRootBuffers(select.getFalseValue(), roots);
    return;
  }
  roots.push_back(memref);
}

bool isWorkgroupMemory(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  return type && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

/// A distinct shared-memory buffer of the kernel: a block argument of the
/// kernel's region (scratch or staged block), which no other argument
/// aliases.
bool isKernelBuffer(Value root) {
  auto arg = dyn_cast<BlockArgument>(root);
  return arg && isWorkgroupMemory(arg) &&
         isa<PallasCallOp, MpmdMapOp>(arg.getOwner()->getParentOp());
}

/// Whether `other`, an op in the loop, may access the memory of the pair.
bool mayTouch(Operation *other, vector::TransferReadOp read,
              vector::TransferWriteOp write, Value root) {
  if (other == read || other == write)
    return false;
  auto transfer = dyn_cast<VectorTransferOpInterface>(other);
  for (Value operand : other->getOperands()) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    SmallVector<Value> otherRoots;
    collectRootBuffers(operand, otherRoots);
    for (Value otherRoot : otherRoots) {
      if (otherRoot != root) {
        // Global memory never aliases shared memory; two kernel buffers
        // never alias each other.
        if (!isWorkgroupMemory(operand) ||
            (isKernelBuffer(root) && isKernelBuffer(otherRoot)))
          continue;
        return true;
      }
      if (transfer && operand == transfer.getBase() &&
          transfer.getBase() == read.getBase() &&
          vector::isDisjointTransferSet(
              transfer, cast<VectorTransferOpInterface>(read.getOperation())))
        continue;
      return true;
    }
  }
  return false;
}

struct PromoteAccumulator : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
      vector::TransferWriteOp write = findWriteBack(loop, read);
      if (!write)
        continue;
      promote(loop, read, write, rewriter);
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no promotable accumulator");
  }

private:
  /// The write-back of `read`'s block later in the loop body, if the pair
  /// can be carried by the loop.
  static vector::TransferWriteOp findWriteBack(scf::ForOp loop,
                                               vector::TransferReadOp read) {
    if (read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        !read.getVectorType().getRank() ||
        read.getVectorType().getRank() != read.getShapedType().getRank() ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }) ||
        !isWorkgroupMemory(read.getBase()) ||
        llvm::any_of(read->getOperands(),
                     [&](Value v) { return !isInvariant(loop, v); }))
      return {};
    vector::TransferWriteOp write;
    for (Operation *user : read.getBase().getUsers()) {
      auto candidate = dyn_cast<vector::TransferWriteOp>(user);
      if (!candidate || candidate->getBlock() != loop.getBody() ||
          !read->isBeforeInBlock(candidate) ||
          candidate.getVectorType() != read.getVectorType() ||
          candidate.getIndices() != read.getIndices() ||
          candidate.getPermutationMap() != read.getPermutationMap() ||
          candidate.getMask() ||
          llvm::any_of(candidate.getInBoundsValues(),
                       [](bool b) { return !b; }))
        continue;
      if (write)
        return {};
      write = candidate;
    }
    if (!write)
      return {};
    Value root = getRootBuffer(read.getBase());
    WalkResult touched = loop.getBody()->walk([&](Operation *op) {
      return mayTouch(op, read, write, root) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    });
    return touched.wasInterrupted() ? vector::TransferWriteOp() : write;
  }

  /// Defined outside the loop, or a constant of its body (which can be).
  static bool isInvariant(scf::ForOp loop, Value v) {
    Operation *def = v.getDefiningOp();
    return loop.isDefinedOutsideOfLoop(v) ||
           (def && def->getBlock() == loop.getBody() &&
            def->hasTrait<OpTrait::ConstantLike>());
  }

  static void promote(scf::ForOp loop, vector::TransferReadOp read,
                      vector::TransferWriteOp write,
                      PatternRewriter &rewriter) {
    for (Value operand : read->getOperands())
      if (!loop.isDefinedOutsideOfLoop(operand))
        rewriter.moveOpBefore(operand.getDefiningOp(), loop);
    rewriter.moveOpBefore(read, loop);
    Value updated = write.getVector();
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{updated};
        }));
    rewriter.moveOpAfter(write, newLoop);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(newLoop.getResults().back());
    });
  }
};

struct MGPUPromoteAccumulatorsPass
    : mgpu::impl::MGPUPromoteAccumulatorsBase<MGPUPromoteAccumulatorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PromoteAccumulator>(&getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    getOperation()->walk([&](Operation *kernel) {
      if (!isa<PallasCallOp, MpmdMapOp>(kernel))
        return;
      auto call = dyn_cast<PallasCallOp>(kernel);
      MeshAttr mesh = call ? call.getMeshAttrOrNull() : MeshAttr();
      bool oneThread = call && (!mesh || mesh.getNumThreads().value_or(1) == 1);
      SmallVector<Operation *> loops;
      kernel->walk([&](scf::ForOp loop) {
        if (oneThread || loop->hasAttr(MGPUDialect::getComputeStepsAttrName()))
          loops.push_back(loop);
      });
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      (void)applyOpPatternsGreedily(loops, frozen, config);
    });
  }
};

} // namespace
