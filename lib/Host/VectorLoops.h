//===- VectorLoops.h - Big vectors held in buffers, ops as loops -*- C++
//-*-===//
//
// What --mgpu-vectors-to-loops (VectorsToLoops.cpp) shares with its
// reductions and contractions (VectorLoopReductions.cpp): how the pass holds
// a big vector (a splat, or a buffer whose dimensions follow the vector's)
// and the builder that rewrites the ops on them into loops over chunks of
// the innermost dimension. Internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_VECTORLOOPS_H
#define MGPU_LIB_HOST_VECTORLOOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mgpu::vector_loops {

/// A big vector as this pass holds it: one scalar everywhere, or a buffer
/// whose dimension k follows vector dimension `dims[k]` (-1: always index 0,
/// the vector repeats along it).
struct BigVector {
  Value splat;
  Value buffer;
  SmallVector<int64_t> dims;
  /// Or an elementwise op or a read computed chunk by chunk where its only
  /// user needs it, so that chains of them make one pass over memory.
  Operation *deferred = nullptr;
};

/// Chunk width along the innermost dimension: up to 16 elements, dividing
/// the extent so that no chunk needs a mask.
inline int64_t chunkWidth(VectorType type) {
  int64_t inner = type.getShape().back();
  int64_t width = 16;
  while (inner % width != 0)
    width /= 2;
  return width;
}

inline bool allTrue(std::optional<ArrayAttr> inBounds) {
  return !inBounds || llvm::all_of(*inBounds, [](Attribute a) {
    return cast<BoolAttr>(a).getValue();
  });
}

class VectorLoopsBuilder {
public:
  explicit VectorLoopsBuilder(int64_t maxElements) : maxElements(maxElements) {}

  /// Ops whose results are computed where their one user needs them.
  llvm::SmallPtrSet<Operation *, 16> deferred;

  bool isBig(Type type) const {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getRank() > 0 && !vector.isScalable() &&
           vector.getNumElements() > maxElements;
  }

  /// Whether this pass rewrites `op`, which must touch a big vector.
  bool handles(Operation *op) const;
  /// Rewrites `op`; its results become big vectors or plain values.
  void rewrite(Operation *op);
  /// Gives the users this pass does not rewrite the whole vectors back.
  void materializeForOthers(Operation *op,
                            const llvm::SetVector<Operation *> &rewritten);

private:
  Value constant(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// A buffer for a value of `type`, freed at the end of the current block.
  Value allocate(OpBuilder &b, Location loc, ShapedType type);
  BigVector &lookup(Value vector);
  /// Runs `body` once per chunk of `type` (outer indices, chunk start).
  void forEachChunk(OpBuilder &b, Location loc, VectorType type,
                    function_ref<void(OpBuilder &, Location, ValueRange)> body);
  Value loadChunk(OpBuilder &b, Location loc, const BigVector &big,
                  ValueRange ivs, VectorType chunk);
  Value wholeVector(OpBuilder &b, Location loc, const BigVector &big,
                    VectorType type);
  void setIdentity(Value result, Value buffer, int64_t rank) {
    bigs[result] = {Value(), buffer,
                    llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  }

  Value readChunk(OpBuilder &b, Location loc, Value source, ValueRange indices,
                  ValueRange ivs, VectorType chunk, Value padding);
  Value elementwiseChunk(OpBuilder &b, Location loc, Operation *op,
                         ValueRange ivs, int64_t width);
  void rewriteElementwise(Operation *op);
  void rewriteBroadcast(vector::BroadcastOp op);
  void rewriteRead(Operation *op, Value source, ValueRange indices,
                   VectorType type, Value padding);
  void rewriteWrite(Operation *op, Value vector, Value dest, ValueRange indices,
                    bool transfer);
  void rewriteReduction(Operation *op, vector::CombiningKind kind, Value source,
                        Value acc, ArrayRef<bool> reduced);
  void rewriteContraction(vector::ContractionOp op);

  int64_t maxElements;
  DenseMap<Value, BigVector> bigs;
};

} // namespace mlir::mgpu::vector_loops

#endif // MGPU_LIB_HOST_VECTORLOOPS_H
