//===- DistributeTmem.cpp - Tensor memory to and from the lanes -----------===//
//
// The part of the warpgroup distribution that moves whole TMEM buffers
// between tensor memory and a vector value in the lanes' layout: lane l of
// the warpgroup reaches TMEM row l only (warp w rows 32w to 32w + 31), so
// each lane moves its row (mgpu.tmem_lane_load / tmem_lane_store) and the
// rows are exchanged with the value's own layout through the warpgroup
// scratch, row-major, as the other layout conversions are.
//
// A load whose value only goes into a row-major buffer of shared memory
// (the epilogue's `out[...] = acc[...]`) skips the exchange: each lane
// reads its row kRowStoreColumns columns at a time and stores each piece
// straight into its row of the buffer, so a wide accumulator needs neither
// the scratch nor a whole row of registers.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

/// Columns of a row that a lane moves at a time from TMEM to shared memory.
static constexpr int64_t kRowStoreColumns = 32;

/// The store that takes a TMEM load's value straight into shared memory:
/// its only use, a whole, unmasked, in-bounds vector.transfer_write or
/// vector.store into a 2-D workgroup buffer whose rows are contiguous, in
/// the same block, with only wait_load_tmem and ops without memory effects
/// in between. Null if there is none.
static Operation *getRowStore(AsyncLoadTmemOp op) {
  Value value = op.getResult();
  if (!value.hasOneUse())
    return nullptr;
  Operation *user = *value.getUsers().begin();
  if (user->getBlock() != op->getBlock())
    return nullptr;
  Value base;
  if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
    if (write.getVector() != value || write.getMask() ||
        !write.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(write.getInBoundsValues(), [](bool b) { return b; }))
      return nullptr;
    base = write.getBase();
  } else if (auto store = dyn_cast<vector::StoreOp>(user)) {
    if (store.getValueToStore() != value)
      return nullptr;
    base = store.getBase();
  } else {
    return nullptr;
  }
  auto type = dyn_cast<MemRefType>(base.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || type.getRank() != 2 || !isWorkgroupMemRef(type) ||
      failed(type.getStridesAndOffset(strides, offset)) || strides[1] != 1)
    return nullptr;
  for (Operation *between = op->getNextNode(); between != user;
       between = between->getNextNode())
    if (!isa<WaitLoadTmemOp>(between) && !isMemoryEffectFree(between))
      return nullptr;
  return user;
}

LogicalResult Distributor::distributeTmemLoadToSmem(AsyncLoadTmemOp op,
                                                    Operation *store) {
  Location loc = op.getLoc();
  VectorType type = op.getType();
  int64_t columns = type.getDimSize(1);
  Value base = lookup(store->getOperand(1));
  SmallVector<Value> indices = lookupAll(
      isa<vector::TransferWriteOp>(store)
          ? ValueRange(cast<vector::TransferWriteOp>(store).getIndices())
          : ValueRange(cast<vector::StoreOp>(store).getIndices()));
  if (isSharedAccess(store, base))
    beforeWrite(loc);
  Value row = arith::AddIOp::create(b, loc, indices[0], ctx.lane);
  for (int64_t first = 0; first < columns; first += kRowStoreColumns) {
    int64_t count = std::min(kRowStoreColumns, columns - first);
    Value piece = TmemLaneLoadOp::create(
        b, loc, VectorType::get({count}, type.getElementType()),
        lookup(op.getSrc()), ctx.lane, first);
    SmallVector<Value> at = {
        row, arith::AddIOp::create(b, loc, indices[1], index(loc, first))};
    int64_t align = std::min<int64_t>(getKnownAlignment(base, at), count * 4);
    vector::StoreOp::create(b, loc, piece, base, at, false,
                            llvm::MaybeAlign(align));
  }
  absorbed.insert(store);
  return success();
}

LogicalResult Distributor::distributeTmemLoad(AsyncLoadTmemOp op) {
  if (Operation *store = getRowStore(op))
    return distributeTmemLoadToSmem(op, store);
  Location loc = op.getLoc();
  VectorType type = op.getType();
  int64_t columns = type.getDimSize(1);
  Value row = TmemLaneLoadOp::create(
      b, loc, VectorType::get({columns}, type.getElementType()),
      lookup(op.getSrc()), ctx.lane);
  beginExchange(loc);
  Value buffer = ctx.scratch->allocate(b, loc, type.getElementType(),
                                       type.getNumElements());
  vector::StoreOp::create(
      b, loc, row, buffer,
      ValueRange{arith::MulIOp::create(b, loc, ctx.lane, index(loc, columns))});
  hazards.scratch = true;
  barrier(loc);
  map.map(op.getResult(), unstage(loc, buffer, type));
  return success();
}

LogicalResult Distributor::distributeTmemStore(AsyncStoreTmemOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getValue().getType();
  int64_t columns = type.getDimSize(1);
  Value value = lookup(op.getValue());
  beforeWrite(loc);
  beginExchange(loc);
  Value buffer = stage(loc, value, type);
  barrier(loc);
  Value row = vector::LoadOp::create(
      b, loc, VectorType::get({columns}, type.getElementType()), buffer,
      ValueRange{arith::MulIOp::create(b, loc, ctx.lane, index(loc, columns))});
  TmemLaneStoreOp::create(b, loc, row, lookup(op.getDst()), ctx.lane);
  return success();
}
