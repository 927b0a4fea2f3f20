//===- VectorsToLoops.cpp - Whole-block vectors as loops on the host ------===//
//
// Pallas bodies compute on whole blocks: `vector<4x4096xf32>` values that the
// GPU lowering spreads over lanes. On the host backends LLVM would hold each
// such value in registers and unroll every op on it, one libm call per
// element for `math.exp`: compile time grows with the block (minutes for a
// 4x4096 softmax) and the values spill to the stack. This pass keeps big
// vectors in heap buffers instead and turns the ops on them into loops over
// chunks of the innermost dimension. A big value is either a splat (one
// scalar) or a buffer plus, per buffer dimension, the vector dimension it
// follows, so broadcasts cost nothing. Contractions become loops over their
// parallel dimensions around a scalar loop over the reduced ones
// (VectorLoopReductions.cpp; the builder's declaration is VectorLoops.h). Users
// this pass does not know get the whole vector back (a transfer_read of the
// buffer), so nothing is refused.
//
//===----------------------------------------------------------------------===//

#include "VectorLoops.h"

#include "mgpu/Passes.h"

#include "mlir/Analysis/AliasAnalysis/LocalAliasAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUVECTORSTOLOOPS
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::vector_loops;

namespace mlir::mgpu::vector_loops {

Value VectorLoopsBuilder::allocate(OpBuilder &b, Location loc,
                                   ShapedType type) {
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer =
      memref::AllocOp::create(b, loc, memrefType, b.getI64IntegerAttr(64));
  Block *block = b.getInsertionBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(block->getTerminator());
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

BigVector &VectorLoopsBuilder::lookup(Value vector) {
  auto it = bigs.find(vector);
  if (it != bigs.end())
    return it->second;
  // A vector this pass did not make (an unknown op, a block argument, a
  // small vector broadcast to a big one): stored into a buffer once.
  OpBuilder b(vector.getContext());
  b.setInsertionPointAfterValue(vector);
  Location loc = vector.getLoc();
  auto type = cast<VectorType>(vector.getType());
  Value buffer = allocate(b, loc, type);
  SmallVector<Value> zeros(type.getRank(), constant(b, loc, 0));
  SmallVector<bool> inBounds(type.getRank(), true);
  vector::TransferWriteOp::create(b, loc, vector, buffer, zeros,
                                  ArrayRef<bool>(inBounds));
  setIdentity(vector, buffer, type.getRank());
  return bigs[vector];
}

void VectorLoopsBuilder::forEachChunk(
    OpBuilder &b, Location loc, VectorType type,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (auto [dim, extent] : llvm::enumerate(type.getShape())) {
    lbs.push_back(constant(b, loc, 0));
    ubs.push_back(constant(b, loc, extent));
    bool inner = dim + 1 == (size_t)type.getRank();
    steps.push_back(constant(b, loc, inner ? chunkWidth(type) : 1));
  }
  scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
}

Value VectorLoopsBuilder::loadChunk(OpBuilder &b, Location loc,
                                    const BigVector &big, ValueRange ivs,
                                    VectorType chunk) {
  if (big.splat)
    return vector::BroadcastOp::create(b, loc, chunk, big.splat);
  if (Operation *op = big.deferred) {
    if (auto read = dyn_cast<vector::TransferReadOp>(op))
      return readChunk(b, loc, read.getBase(), read.getIndices(), ivs, chunk,
                       read.getPadding());
    if (auto load = dyn_cast<vector::LoadOp>(op))
      return readChunk(b, loc, load.getBase(), load.getIndices(), ivs, chunk,
                       Value());
    return elementwiseChunk(b, loc, op, ivs, chunk.getDimSize(0));
  }
  SmallVector<Value> indices;
  for (int64_t dim : big.dims)
    indices.push_back(dim < 0 ? constant(b, loc, 0) : ivs[dim]);
  int64_t inner = ivs.size() - 1;
  if (!big.dims.empty() && big.dims.back() == inner)
    return vector::LoadOp::create(b, loc, chunk, big.buffer, indices);
  // The vector repeats along its innermost dimension: one element.
  Value scalar = memref::LoadOp::create(b, loc, big.buffer, indices);
  return vector::BroadcastOp::create(b, loc, chunk, scalar);
}

Value VectorLoopsBuilder::wholeVector(OpBuilder &b, Location loc,
                                      const BigVector &big, VectorType type) {
  if (big.splat)
    return vector::BroadcastOp::create(b, loc, type, big.splat);
  // A transfer whose map drops the repeated buffer dimensions and
  // broadcasts (constant 0) the vector dimensions no buffer dimension
  // follows.
  SmallVector<AffineExpr> results;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    const auto *it = llvm::find(big.dims, dim);
    results.push_back(it == big.dims.end()
                          ? b.getAffineConstantExpr(0)
                          : b.getAffineDimExpr(it - big.dims.begin()));
  }
  auto map = AffineMap::get(big.dims.size(), 0, results, b.getContext());
  SmallVector<Value> zeros(big.dims.size(), constant(b, loc, 0));
  SmallVector<bool> inBounds(type.getRank(), true);
  return vector::TransferReadOp::create(b, loc, type, big.buffer, zeros,
                                        std::nullopt, map,
                                        ArrayRef<bool>(inBounds));
}

bool VectorLoopsBuilder::handles(Operation *op) const {
  // Buffers are freed at the end of their block: structured code only.
  if (!op->getParentRegion()->hasOneBlock() ||
      isa<vector::MaskOp>(op->getParentOp()))
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    return dense && isBig(constant.getType());
  }
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      op->getNumRegions() == 0 && isBig(op->getResult(0).getType())) {
    auto shape = cast<VectorType>(op->getResult(0).getType()).getShape();
    return llvm::all_of(op->getOperandTypes(), [&](Type type) {
      auto vector = dyn_cast<VectorType>(type);
      return !vector || vector.getShape() == shape;
    });
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op))
    return isBig(broadcast.getType());
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    return isBig(read.getType()) && isa<MemRefType>(read.getShapedType()) &&
           !read.getMask() && read.getPermutationMap().isMinorIdentity() &&
           allTrue(read.getInBounds());
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return isBig(write.getVectorType()) &&
           isa<MemRefType>(write.getShapedType()) && !write.getMask() &&
           write.getPermutationMap().isMinorIdentity() &&
           allTrue(write.getInBounds());
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return isBig(load.getVectorType());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return isBig(store.getVectorType());
  if (auto reduction = dyn_cast<vector::ReductionOp>(op))
    return isBig(reduction.getSourceVectorType());
  if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op))
    return isBig(reduction.getSourceVectorType());
  if (auto contract = dyn_cast<vector::ContractionOp>(op))
    return (isBig(contract.getLhsType()) || isBig(contract.getRhsType()) ||
            isBig(contract.getResultType())) &&
           llvm::all_of(contract.getIndexingMapsArray(), [](AffineMap map) {
             return map.isProjectedPermutation();
           });
  return false;
}

void VectorLoopsBuilder::rewrite(Operation *op) {
  OpBuilder b(op);
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    bigs[constant] = {
        arith::ConstantOp::create(
            b, op->getLoc(), cast<TypedAttr>(splat.getSplatValue<Attribute>())),
        Value(),
        {}};
  } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    rewriteBroadcast(broadcast);
  } else if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    rewriteRead(op, read.getBase(), read.getIndices(), read.getVectorType(),
                read.getPadding());
  } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
    rewriteRead(op, load.getBase(), load.getIndices(), load.getVectorType(),
                Value());
  } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    rewriteWrite(op, write.getVector(), write.getBase(), write.getIndices(),
                 /*transfer=*/true);
  } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
    rewriteWrite(op, store.getValueToStore(), store.getBase(),
                 store.getIndices(), /*transfer=*/false);
  } else if (auto reduction = dyn_cast<vector::ReductionOp>(op)) {
    rewriteReduction(op, reduction.getKind(), reduction.getVector(),
                     reduction.getAcc(), {true});
  } else if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op)) {
    rewriteReduction(op, reduction.getKind(), reduction.getSource(),
                     reduction.getAcc(), reduction.getReductionMask());
  } else if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    rewriteContraction(contract);
  } else {
    rewriteElementwise(op);
  }
}

Value VectorLoopsBuilder::elementwiseChunk(OpBuilder &b, Location loc,
                                           Operation *op, ValueRange ivs,
                                           int64_t width) {
  OperationState state(loc, op->getName());
  for (Value operand : op->getOperands()) {
    auto vector = dyn_cast<VectorType>(operand.getType());
    state.addOperands(
        vector ? loadChunk(b, loc, lookup(operand), ivs,
                           VectorType::get({width}, vector.getElementType()))
               : operand);
  }
  auto type = cast<VectorType>(op->getResult(0).getType());
  state.addTypes(VectorType::get({width}, type.getElementType()));
  state.addAttributes(op->getAttrs());
  return b.create(state)->getResult(0);
}

void VectorLoopsBuilder::rewriteElementwise(Operation *op) {
  if (deferred.contains(op)) {
    bigs[op->getResult(0)] = {Value(), Value(), {}, op};
    return;
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto type = cast<VectorType>(op->getResult(0).getType());
  int64_t width = chunkWidth(type);
  Value result = allocate(b, loc, type);
  forEachChunk(b, loc, type, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    vector::StoreOp::create(b, loc, elementwiseChunk(b, loc, op, ivs, width),
                            result, ivs);
  });
  setIdentity(op->getResult(0), result, type.getRank());
}

void VectorLoopsBuilder::rewriteBroadcast(vector::BroadcastOp op) {
  Value source = op.getSource();
  auto sourceType = dyn_cast<VectorType>(source.getType());
  if (!sourceType || sourceType.getRank() == 0) {
    OpBuilder b(op);
    Value scalar = source;
    if (sourceType)
      scalar = vector::ExtractOp::create(b, op.getLoc(), source,
                                         ArrayRef<int64_t>{});
    bigs[op.getResult()] = {scalar, Value(), {}};
    return;
  }
  BigVector from = lookup(source);
  if (from.splat) {
    bigs[op.getResult()] = from;
    return;
  }
  // Source dimension d is result dimension d + shift (trailing dimensions
  // line up); a source extent of 1 repeats along a longer result one.
  int64_t shift = op.getResultVectorType().getRank() - sourceType.getRank();
  BigVector result{Value(), from.buffer, {}};
  for (int64_t dim : from.dims) {
    bool repeated =
        dim < 0 || (sourceType.getDimSize(dim) == 1 &&
                    op.getResultVectorType().getDimSize(dim + shift) != 1);
    result.dims.push_back(repeated ? -1 : dim + shift);
  }
  bigs[op.getResult()] = result;
}

Value VectorLoopsBuilder::readChunk(OpBuilder &b, Location loc, Value source,
                                    ValueRange indices, ValueRange ivs,
                                    VectorType chunk, Value padding) {
  SmallVector<Value> at(indices);
  int64_t shift = indices.size() - ivs.size();
  for (auto [dim, iv] : llvm::enumerate(ivs))
    at[dim + shift] = arith::AddIOp::create(b, loc, at[dim + shift], iv);
  if (padding)
    return vector::TransferReadOp::create(b, loc, chunk, source, at, padding,
                                          ArrayRef<bool>{true});
  return vector::LoadOp::create(b, loc, chunk, source, at);
}

void VectorLoopsBuilder::rewriteRead(Operation *op, Value source,
                                     ValueRange indices, VectorType type,
                                     Value padding) {
  if (deferred.contains(op)) {
    bigs[op->getResult(0)] = {Value(), Value(), {}, op};
    return;
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto chunkType = VectorType::get({chunkWidth(type)}, type.getElementType());
  Value result = allocate(b, loc, type);
  forEachChunk(b, loc, type, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    vector::StoreOp::create(
        b, loc, readChunk(b, loc, source, indices, ivs, chunkType, padding),
        result, ivs);
  });
  setIdentity(op->getResult(0), result, type.getRank());
}

void VectorLoopsBuilder::rewriteWrite(Operation *op, Value vector, Value dest,
                                      ValueRange indices, bool transfer) {
  OpBuilder b(op);
  auto type = cast<VectorType>(vector.getType());
  auto chunkType = VectorType::get({chunkWidth(type)}, type.getElementType());
  BigVector big = lookup(vector);
  int64_t shift = indices.size() - type.getRank();
  forEachChunk(
      b, op->getLoc(), type, [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> at(indices);
        for (auto [dim, iv] : llvm::enumerate(ivs))
          at[dim + shift] = arith::AddIOp::create(b, loc, at[dim + shift], iv);
        Value chunk = loadChunk(b, loc, big, ivs, chunkType);
        if (transfer)
          vector::TransferWriteOp::create(b, loc, chunk, dest, at,
                                          ArrayRef<bool>{true});
        else
          vector::StoreOp::create(b, loc, chunk, dest, at);
      });
}

void VectorLoopsBuilder::materializeForOthers(
    Operation *op, const llvm::SetVector<Operation *> &rewritten) {
  for (Value result : op->getResults()) {
    auto it = bigs.find(result);
    if (it == bigs.end())
      continue;
    if (llvm::all_of(result.getUsers(),
                     [&](Operation *user) { return rewritten.contains(user); }))
      continue;
    OpBuilder b(op);
    Value whole = wholeVector(b, op->getLoc(), it->second,
                              cast<VectorType>(result.getType()));
    result.replaceUsesWithIf(whole, [&](OpOperand &use) {
      return !rewritten.contains(use.getOwner()) &&
             use.getOwner() != whole.getDefiningOp();
    });
  }
}

} // namespace mlir::mgpu::vector_loops

namespace {

/// Whether `op` may write memory (unknown effects count as writes).
bool mayWrite(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return !effects || llvm::any_of(*effects, [](auto &effect) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
  });
}

/// Chooses the ops computed where their only user needs them: elementwise
/// ops and reads whose one user, in the same block, takes its operands
/// chunk by chunk. A read moves only past ops that write no memory, and
/// into a write of memory that cannot be its own except at the same place.
void chooseDeferred(const llvm::SetVector<Operation *> &rewritten,
                    llvm::SmallPtrSet<Operation *, 16> &deferred) {
  LocalAliasAnalysis aliases;
  DenseMap<Operation *, Operation *> evaluatedAt;
  for (Operation *op : llvm::reverse(rewritten)) {
    evaluatedAt[op] = op;
    bool read = isa<vector::TransferReadOp, vector::LoadOp>(op);
    if ((!read && !op->hasTrait<OpTrait::Elementwise>()) ||
        op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
      continue;
    Operation *user = *op->getResult(0).getUsers().begin();
    if (!rewritten.contains(user) || user->getBlock() != op->getBlock() ||
        isa<vector::BroadcastOp>(user))
      continue;
    Operation *at = evaluatedAt.lookup(user);
    if (read) {
      bool written = false;
      for (Operation *o = op->getNextNode(); o != at && !written;
           o = o->getNextNode())
        written = mayWrite(o);
      if (written)
        continue;
      // A vector.load is a read too, but no VectorTransferOpInterface.
      Value sourceBase;
      ValueRange sourceIndices;
      if (auto load = dyn_cast<vector::LoadOp>(op)) {
        sourceBase = load.getBase();
        sourceIndices = load.getIndices();
      } else {
        auto transfer = cast<vector::TransferReadOp>(op);
        sourceBase = transfer.getBase();
        sourceIndices = transfer.getIndices();
      }
      if (auto dest = dyn_cast<VectorTransferOpInterface>(at);
          dest && mayWrite(at)) {
        bool samePlace = dest.getBase() == sourceBase &&
                         llvm::equal(dest.getIndices(), sourceIndices);
        if (!samePlace && !aliases.alias(dest.getBase(), sourceBase).isNo())
          continue;
      } else if (mayWrite(at)) {
        continue;
      }
    }
    deferred.insert(op);
    evaluatedAt[op] = at;
  }
}

struct VectorsToLoopsPass
    : public mgpu::impl::MGPUVectorsToLoopsBase<VectorsToLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    VectorLoopsBuilder builder(maxElements);
    llvm::SetVector<Operation *> rewritten;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != getOperation() && builder.handles(op))
        rewritten.insert(op);
    });
    chooseDeferred(rewritten, builder.deferred);
    for (Operation *op : rewritten)
      builder.rewrite(op);
    for (Operation *op : rewritten)
      builder.materializeForOthers(op, rewritten);
    for (Operation *op : llvm::reverse(rewritten)) {
      op->dropAllUses();
      op->erase();
    }
  }
};

} // namespace
