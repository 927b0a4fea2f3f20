//===- CheckVectorAccesses.cpp - Bounds checks of vector accesses ---------===//
//
// Interpret mode and the emulator run kernels on host memory, where a vector
// access past the end of a memref reads or writes whatever lies there.
// Upstream runtime verification covers memref.load/store but no vector op,
// so this pass asserts, before each vector load, store and transfer (for
// the dimensions it claims in bounds), that the vector lies in the memref,
// and before each memref.view (a RefUnion's ref), that the view lies in
// its byte buffer.
// --mgpu-report-failed-checks turns the asserts into located errors.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostRuntimeCalls.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUCHECKVECTORACCESSES
#include "mgpu/Host/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Asserts 0 <= index and index <= dim(memref, d) - extent for each checked
/// dimension d (the memref's last `extents.size()` dimensions, or those
/// `map` names for transfers). Not `index + extent <= dim`: that sum wraps
/// for an index near INT64_MAX and lets the access through. `dim - extent`
/// cannot wrap (a dim is in [0, INT64_MAX], an extent is a small positive
/// vector size); where it is negative, no index passes.
void assertInside(OpBuilder &b, Operation *op, Value memref, ValueRange indices,
                  ArrayRef<std::pair<unsigned, int64_t>> dims) {
  if (dims.empty())
    return;
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [d, extent] : dims) {
    Value size = memref::DimOp::create(b, loc, memref, d);
    Value last = arith::SubIOp::create(
        b, loc, size, arith::ConstantIndexOp::create(b, loc, extent));
    ok = andIndexInBounds(b, loc, ok, zero, indices[d],
                          arith::CmpIPredicate::sle, last);
  }
  cf::AssertOp::create(b, loc, ok,
                       "^ vector access out of bounds of its memref");
}

/// Every dimension of a vector.load/store of `vectorType`: the innermost
/// ones it covers, and the others at one index (extent 1).
SmallVector<std::pair<unsigned, int64_t>> trailingDims(MemRefType memref,
                                                       VectorType vector) {
  SmallVector<std::pair<unsigned, int64_t>> dims;
  int64_t offset = memref.getRank() - vector.getRank();
  for (int64_t d = 0; d < offset; ++d)
    dims.push_back({static_cast<unsigned>(d), 1});
  for (int64_t i = 0; i < vector.getRank(); ++i)
    dims.push_back({static_cast<unsigned>(offset + i), vector.getDimSize(i)});
  return dims;
}

/// The memref dimensions of a transfer that must be in bounds: those it
/// marks in bounds, and those it does not transfer along (one index, which
/// no mask covers).
SmallVector<std::pair<unsigned, int64_t>>
inBoundsDims(VectorTransferOpInterface op) {
  SmallVector<std::pair<unsigned, int64_t>> dims;
  AffineMap map = op.getPermutationMap();
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (!map.isFunctionOfDim(d))
      dims.push_back({d, 1});
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || !op.isDimInBounds(i))
      continue;
    dims.push_back({dim.getPosition(), op.getVectorType().getDimSize(i)});
  }
  return dims;
}

/// Asserts that a memref.view (a RefUnion's ref: a typed view of a byte
/// buffer at a byte shift) lies inside its buffer: 0 <= shift and shift <=
/// size - bytes, bytes being the view's element bytes times its sizes.
void assertViewInside(OpBuilder &b, memref::ViewOp view) {
  MemRefType type = view.getType();
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat())
    return;
  Location loc = view.getLoc();
  int64_t elementBytes =
      element.isIndex() ? 8
                        : llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  Value bytes = arith::ConstantIndexOp::create(b, loc, elementBytes);
  auto dynamicSizes = view.getSizes().begin();
  for (int64_t size : type.getShape())
    bytes = arith::MulIOp::create(
        b, loc, bytes,
        ShapedType::isDynamic(size)
            ? *dynamicSizes++
            : Value(arith::ConstantIndexOp::create(b, loc, size)));
  Value size = memref::DimOp::create(b, loc, view.getSource(), 0);
  Value shift = view.getByteShift();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value ok = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, shift, zero),
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, bytes, size),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, shift,
                                arith::SubIOp::create(b, loc, size, bytes))));
  cf::AssertOp::create(b, loc, ok, "^ memref.view out of bounds of its buffer");
}

struct CheckVectorAccessesPass
    : public mgpu::impl::MGPUCheckVectorAccessesBase<CheckVectorAccessesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      OpBuilder b(op);
      if (auto load = dyn_cast<vector::LoadOp>(op))
        assertInside(b, op, load.getBase(), load.getIndices(),
                     trailingDims(load.getMemRefType(), load.getVectorType()));
      else if (auto store = dyn_cast<vector::StoreOp>(op))
        assertInside(
            b, op, store.getBase(), store.getIndices(),
            trailingDims(store.getMemRefType(), store.getVectorType()));
      else if (auto transfer = dyn_cast<VectorTransferOpInterface>(op);
               transfer && isa<MemRefType>(transfer.getShapedType()))
        assertInside(b, op, transfer.getBase(), transfer.getIndices(),
                     inBoundsDims(transfer));
      else if (auto view = dyn_cast<memref::ViewOp>(op))
        assertViewInside(b, view);
    });
  }
};

} // namespace
