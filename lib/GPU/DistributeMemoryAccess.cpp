//===- DistributeMemoryAccess.cpp - Vector reads and writes ---------------===//
//
// The distribution of vector.transfer_read/transfer_write and
// vector.load/store on memrefs: each lane reads or writes the chunks it owns,
// with one V-wide access per chunk when the access is a minor identity, in
// bounds and unit-stride (aligned as far as the indices are known to be), and
// element by element otherwise, guarded by the bounds the transfer may leave.
// Accesses to lane-private views need no barriers; others are recorded for
// the hazard tracker. mgpu.atomic_store is a write of the same shape whose
// elements each lane combines into memory with its own memref.atomic_rmw.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

#include "mgpu/KernelForm/AtomicKinds.h"
#include "mgpu/KernelForm/DebugPrint.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

/// Whether `base` is a view whose elements each lane accesses alone.
static bool isLanePrivate(Value base) {
  auto view = base.getDefiningOp<memref::SubViewOp>();
  return view && view->hasAttr(MGPUDialect::getLanePrivateAttrName());
}

/// Where one V-wide access of a minor-identity access of `type` at
/// `indices` of `base` finds the chunk that starts at flat element `start`
/// of the vector, and the alignment it may claim there.
static std::pair<SmallVector<Value>, int64_t>
locateChunk(OpBuilder &b, Location loc, Value base, ArrayRef<Value> indices,
            VectorType type, const Layout &layout, Value start) {
  int64_t rankDiff = indices.size() - type.getRank();
  SmallVector<Value> multi = delinearize(b, loc, start, layout.shape);
  SmallVector<Value> at(indices);
  for (int64_t d = 0; d < type.getRank(); ++d)
    at[rankDiff + d] =
        arith::AddIOp::create(b, loc, at[rankDiff + d], multi[d]);
  int64_t chunkBytes =
      layout.v * static_cast<int64_t>(storageBytes(type.getElementType()));
  return {at, std::min(getKnownAlignment(base, at), chunkBytes)};
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

bool Distributor::isSharedAccess(Operation *op, Value base) {
  return !isLanePrivate(base) &&
         !op->hasAttr(MGPUDialect::getUnsyncedAttrName());
}

LogicalResult Distributor::distributeTransfer(VectorTransferOpInterface op) {
  if (op.getMask())
    return cannotDistribute(op, "masked transfers are not supported");
  if (!isa<MemRefType>(op.getBase().getType()))
    return cannotDistribute(op, "the body must be in memref form");
  if (isFragmentLayout(layoutOf(op.getVector())) && canAccessInFragments(op))
    return distributeHeldAccess(op);
  if (auto read = dyn_cast<vector::TransferReadOp>(op.getOperation()))
    return distributeRead(op, op.getBase(), op.getIndices(), op.getVectorType(),
                          op.getPermutationMap(), op.getInBoundsValues(),
                          read.getPadding());
  return distributeWrite(op, op.getVector(), op.getBase(), op.getIndices(),
                         op.getVectorType(), op.getPermutationMap(),
                         op.getInBoundsValues());
}

LogicalResult Distributor::distributeRead(Operation *op, Value memref,
                                          ValueRange indices, VectorType type,
                                          AffineMap permutation,
                                          ArrayRef<bool> inBounds,
                                          Value padding) {
  Location loc = op->getLoc();
  Value base = lookup(memref);
  SmallVector<Value> baseIndices = lookupAll(indices);
  Layout layout(type);
  Type element = type.getElementType();
  Value lane;
  if (hasFastPath(base, type, permutation, inBounds)) {
    lane = zeroVector(loc, getLaneType(type));
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/true);
      auto [at, align] =
          locateChunk(b, loc, base, baseIndices, type, layout, start);
      throughLayout(op, base, at);
      Value chunk =
          vector::LoadOp::create(b, loc, VectorType::get({layout.v}, element),
                                 base, at, false, llvm::MaybeAlign(align));
      lane = vector::InsertStridedSliceOp::create(b, loc, chunk, lane,
                                                  slot * layout.v, 1);
    }
  } else {
    Value pad = padding ? lookup(padding) : Value();
    lane = buildPerElement(loc, type, [&](ArrayRef<Value> multi, Value) {
      SmallVector<Value> at =
          transferIndices(loc, baseIndices, permutation, multi);
      Value inside = transferInBounds(loc, base, at, permutation, inBounds);
      if (!inside)
        return Value(memref::LoadOp::create(b, loc, base, at));
      auto ifOp = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &nb, Location l) {
            scf::YieldOp::create(
                nb, l, Value(memref::LoadOp::create(nb, l, base, at)));
          },
          [&](OpBuilder &nb, Location l) {
            Value p = pad;
            if (!p)
              p = arith::ConstantOp::create(
                  nb, l, cast<TypedAttr>(nb.getZeroAttr(element)));
            scf::YieldOp::create(nb, l, p);
          });
      return ifOp.getResult(0);
    });
  }
  map.map(op->getResult(0), lane);
  return success();
}

LogicalResult Distributor::distributeWrite(Operation *op, Value value,
                                           Value memref, ValueRange indices,
                                           VectorType type,
                                           AffineMap permutation,
                                           ArrayRef<bool> inBounds) {
  Location loc = op->getLoc();
  Value base = lookup(memref);
  Value lane = lookup(value);
  SmallVector<Value> baseIndices = lookupAll(indices);
  if (isSharedAccess(op, base))
    beforeWrite(loc);
  Layout layout(type);
  if (hasFastPath(base, type, permutation, inBounds)) {
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/false);
      Value valid =
          layout.isFullSlot(slot) ? Value() : chunkValid(loc, layout, start);
      guarded(loc, valid, [&] {
        auto [at, align] =
            locateChunk(b, loc, base, baseIndices, type, layout, start);
        throughLayout(op, base, at);
        Value chunk = vector::ExtractStridedSliceOp::create(
            b, loc, lane, slot * layout.v, layout.v, 1);
        vector::StoreOp::create(b, loc, chunk, base, at, false,
                                llvm::MaybeAlign(align));
      });
    }
  } else {
    forEachHeldElement(loc, layout, [&](Value flat, int64_t held) {
      SmallVector<Value> multi = delinearize(b, loc, flat, layout.shape);
      SmallVector<Value> at =
          transferIndices(loc, baseIndices, permutation, multi);
      Value inside = transferInBounds(loc, base, at, permutation, inBounds);
      guarded(loc, inside, [&] {
        Value x = vector::ExtractOp::create(b, loc, lane, held);
        memref::StoreOp::create(b, loc, x, base, at);
      });
    });
  }
  return success();
}

/// Each lane combines the elements of `value` it holds, one atomic per
/// element (LLVM's atomicrmw, so PTX atom/red in global or shared memory);
/// a scalar is one atomic of lane 0, once per Pallas thread. The barrier
/// before it orders other lanes' plain accesses before the atomics; atomics
/// need none among themselves, but later plain accesses wait for them.
LogicalResult Distributor::distributeAtomic(AtomicStoreOp op) {
  Location loc = op.getLoc();
  Value base = lookup(op.getRef());
  SmallVector<Value> baseIndices = lookupAll(op.getIndices());
  Type element = cast<MemRefType>(base.getType()).getElementType();
  arith::AtomicRMWKind kind = getAtomicRMWKind(op.getKind(), element);
  auto type = dyn_cast<VectorType>(op.getValue().getType());
  if (!type) {
    beforeWrite(loc);
    Value value = lookup(op.getValue());
    guarded(loc, isLaneZero(loc), [&] {
      memref::AtomicRMWOp::create(b, loc, kind, value, base, baseIndices);
    });
    return success();
  }
  Value lane = lookup(op.getValue());
  if (!isLanePrivate(base))
    beforeWrite(loc);
  Layout layout(type);
  int64_t extra = baseIndices.size() - type.getRank();
  forEachHeldElement(loc, layout, [&](Value flat, int64_t held) {
    SmallVector<Value> multi = delinearize(b, loc, flat, layout.shape);
    SmallVector<Value> at(baseIndices);
    for (auto [d, offset] : llvm::enumerate(multi))
      at[extra + d] = arith::AddIOp::create(b, loc, at[extra + d], offset);
    Value x = vector::ExtractOp::create(b, loc, lane, held);
    memref::AtomicRMWOp::create(b, loc, kind, x, base, at);
  });
  return success();
}

/// Each lane prints the elements of the vector it holds, each with its
/// indices (JAX's FragmentedArray.debug_print does the same), so every
/// element is printed once per Pallas thread, in no defined order.
LogicalResult Distributor::distributeDebugPrint(DebugPrintOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getValue().getType();
  Value lane = lookup(op.getValue());
  Layout layout(type);
  forEachHeldElement(loc, layout, [&](Value flat, int64_t held) {
    SmallVector<Value> at = delinearize(b, loc, flat, layout.shape);
    Value x = vector::ExtractOp::create(b, loc, lane, held);
    emitDebugPrintElement(b, loc, op, at, x);
  });
  return success();
}
