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
// transfer of the same buffer at provably disjoint indices. An `scf.if` of
// the loop body before the read whose only effect is a write of the pair's
// block (Pallas's `@pl.when(k == 0) acc[...] = zeros`) is an initialization:
// it becomes a choice of the carried value, and at the loop's first step
// (`iv == lower bound`) the initial value itself, with no read before the
// loop. Only kernels with
// one Pallas thread per program are rewritten, since another thread could
// read the block between the steps, and the compute threads' loops of
// warp-specialized pipelines whose body does not synchronize (there no other
// thread can see the block between the steps without a race).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/BufferViews.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPROMOTEACCUMULATORS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

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

/// Whether `other`, an op in the loop, may access the memory of the pair
/// (`inits` are the pair's conditional initializations).
bool mayTouch(Operation *other, vector::TransferReadOp read,
              vector::TransferWriteOp write, Value root,
              ArrayRef<vector::TransferWriteOp> inits) {
  if (other == read || other == write || llvm::is_contained(inits, other))
    return false;
  auto transfer = dyn_cast<VectorTransferOpInterface>(other);
  for (Value operand : other->getOperands()) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    SmallVector<Value> otherRoots;
    collectViewedBuffers(operand, otherRoots, ViewChain::sameMemory);
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

/// Whether `write` stores a block the same way as `read` reads it.
bool isSameBlock(vector::TransferWriteOp write, vector::TransferReadOp read) {
  return write.getBase() == read.getBase() &&
         write.getVectorType() == read.getVectorType() &&
         write.getIndices() == read.getIndices() &&
         write.getPermutationMap() == read.getPermutationMap() &&
         !write.getMask() &&
         llvm::all_of(write.getInBoundsValues(), [](bool b) { return b; });
}

/// The ops of `block` that `value` is computed from, in order (empty when
/// it is defined outside `block`).
SmallVector<Operation *> getSliceInBlock(Value value, Block &block) {
  SetVector<Operation *> slice;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != &block || !slice.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return ordered;
}

/// The write of `ifOp` if it initializes `read`'s block: `ifOp` has no
/// results and no else, and its then-block writes the whole block once with
/// a value computed without side effects (its other ops may do anything to
/// other buffers: the loop-wide check sees them).
vector::TransferWriteOp getInitialization(scf::IfOp ifOp,
                                          vector::TransferReadOp read) {
  if (ifOp.getNumResults() || !ifOp.getElseRegion().empty())
    return {};
  Block &then = ifOp.getThenRegion().front();
  vector::TransferWriteOp init;
  for (auto write : then.getOps<vector::TransferWriteOp>()) {
    if (!isSameBlock(write, read))
      continue;
    if (init)
      return {};
    init = write;
  }
  if (!init ||
      llvm::any_of(getSliceInBlock(init.getVector(), then),
                   [](Operation *op) { return !isMemoryEffectFree(op); }))
    return {};
  return init;
}

/// Clones what `init` writes at the builder's insertion point.
Value cloneInitialValue(vector::TransferWriteOp init,
                        PatternRewriter &rewriter) {
  IRMapping mapping;
  for (Operation *op : getSliceInBlock(init.getVector(), *init->getBlock()))
    rewriter.clone(*op, mapping);
  return mapping.lookupOrDefault(init.getVector());
}

/// A read / write-back pair the loop can carry, with the pair's
/// conditional initializations before the read, in order.
struct Accumulator {
  vector::TransferReadOp read;
  vector::TransferWriteOp write;
  SmallVector<vector::TransferWriteOp> inits;
};

struct PromoteAccumulator : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
      std::optional<Accumulator> acc = findAccumulator(loop, read);
      if (!acc)
        continue;
      promote(loop, *acc, rewriter);
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no promotable accumulator");
  }

private:
  /// The write-back of `read`'s block later in the loop body and its
  /// initializations, if the loop can carry the block.
  static std::optional<Accumulator>
  findAccumulator(scf::ForOp loop, vector::TransferReadOp read) {
    if (read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        !read.getVectorType().getRank() ||
        read.getVectorType().getRank() != read.getShapedType().getRank() ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }) ||
        !isWorkgroupMemory(read.getBase()) ||
        llvm::any_of(read->getOperands(),
                     [&](Value v) { return !isInvariant(loop, v); }))
      return std::nullopt;
    Accumulator acc{read, {}, {}};
    for (Operation *user : read.getBase().getUsers()) {
      auto candidate = dyn_cast<vector::TransferWriteOp>(user);
      if (!candidate || candidate->getBlock() != loop.getBody() ||
          !read->isBeforeInBlock(candidate) || !isSameBlock(candidate, read))
        continue;
      if (acc.write)
        return std::nullopt;
      acc.write = candidate;
    }
    if (!acc.write)
      return std::nullopt;
    for (auto ifOp : loop.getBody()->getOps<scf::IfOp>())
      if (ifOp->isBeforeInBlock(read))
        if (vector::TransferWriteOp init = getInitialization(ifOp, read))
          acc.inits.push_back(init);
    Value root = getViewedBuffer(read.getBase(), ViewChain::sameMemory);
    WalkResult touched = loop.getBody()->walk([&](Operation *op) {
      return mayTouch(op, read, acc.write, root, acc.inits)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (touched.wasInterrupted())
      return std::nullopt;
    return acc;
  }

  /// Defined outside the loop, or a constant of its body (which can be).
  static bool isInvariant(scf::ForOp loop, Value v) {
    Operation *def = v.getDefiningOp();
    return loop.isDefinedOutsideOfLoop(v) ||
           (def && def->getBlock() == loop.getBody() &&
            def->hasTrait<OpTrait::ConstantLike>());
  }

  /// Whether `cond` is `iv == lower bound`: true at the first step only.
  static bool isFirstStep(scf::ForOp loop, Value cond) {
    auto cmp = cond.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      return false;
    Value iv = loop.getInductionVar();
    Value other = cmp.getLhs() == iv   ? cmp.getRhs()
                  : cmp.getRhs() == iv ? cmp.getLhs()
                                       : Value();
    if (!other)
      return false;
    if (other == loop.getLowerBound())
      return true;
    std::optional<int64_t> a = getConstantIntValue(other);
    std::optional<int64_t> b = getConstantIntValue(loop.getLowerBound());
    return a && b && *a == *b;
  }

  /// The value an initialization at the first step stores, built before
  /// the loop, if it depends on nothing else the loop defines.
  static Value hoistInitialValue(scf::ForOp loop, vector::TransferWriteOp init,
                                 PatternRewriter &rewriter) {
    Block &then = *init->getBlock();
    SmallVector<Operation *> slice = getSliceInBlock(init.getVector(), then);
    auto outside = [&](Value v) {
      return loop.isDefinedOutsideOfLoop(v) || v.getParentBlock() == &then;
    };
    if (!outside(init.getVector()) || llvm::any_of(slice, [&](Operation *op) {
          return !llvm::all_of(op->getOperands(), outside);
        }))
      return {};
    rewriter.setInsertionPoint(loop);
    return cloneInitialValue(init, rewriter);
  }

  static void promote(scf::ForOp loop, Accumulator &acc,
                      PatternRewriter &rewriter) {
    vector::TransferReadOp read = acc.read;
    vector::TransferWriteOp write = acc.write;
    // A sole initialization at the first step is the value the loop starts
    // with: the block is not read before the loop.
    Value initial;
    if (acc.inits.size() == 1) {
      auto last = cast<scf::IfOp>(acc.inits.back()->getParentOp());
      if (isFirstStep(loop, last.getCondition()))
        if ((initial = hoistInitialValue(loop, acc.inits.back(), rewriter))) {
          rewriter.eraseOp(acc.inits.back());
          acc.inits.pop_back();
        }
    }
    for (Value operand : read->getOperands())
      if (!loop.isDefinedOutsideOfLoop(operand))
        rewriter.moveOpBefore(operand.getDefiningOp(), loop);
    rewriter.moveOpBefore(read, loop);
    Value updated = write.getVector();
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, initial ? initial : read.getResult(),
        /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{updated};
        }));
    BlockArgument carried = newLoop.getRegionIterArgs().back();
    // The remaining initializations choose the value the step starts with.
    Value current = carried;
    for (vector::TransferWriteOp init : acc.inits) {
      auto ifOp = cast<scf::IfOp>(init->getParentOp());
      rewriter.setInsertionPoint(ifOp);
      auto choice = scf::IfOp::create(rewriter, ifOp.getLoc(),
                                      TypeRange{read.getVectorType()},
                                      ifOp.getCondition(),
                                      /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(choice.thenBlock());
      scf::YieldOp::create(rewriter, ifOp.getLoc(),
                           cloneInitialValue(init, rewriter));
      rewriter.setInsertionPointToStart(choice.elseBlock());
      scf::YieldOp::create(rewriter, ifOp.getLoc(), current);
      // What else the if does stays (an if left empty folds away).
      rewriter.eraseOp(init);
      current = choice.getResult(0);
    }
    rewriter.replaceUsesWithIf(read.getResult(), current, [&](OpOperand &use) {
      return newLoop->isProperAncestor(use.getOwner());
    });
    if (initial)
      rewriter.eraseOp(read);
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
