//===- DistributeTmem.cpp - Tensor memory to and from the lanes -----------===//
//
// The part of the warpgroup distribution that moves whole TMEM buffers
// between tensor memory and a vector value in the lanes' layout: lane l of
// the warpgroup reaches TMEM row l only (warp w rows 32w to 32w + 31), so
// each lane moves its row (mgpu.tmem_lane_load / tmem_lane_store) and the
// rows are exchanged with the value's own layout through the warpgroup
// scratch, row-major, as the other layout conversions are.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupDistributor.h"

using namespace mlir;
using namespace mlir::mgpu;
using namespace mlir::mgpu::detail;

LogicalResult Distributor::distributeTmemLoad(AsyncLoadTmemOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getType();
  int64_t columns = type.getDimSize(1);
  beforeRead(loc);
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
  // An MMA issued next reads the rows of every lane.
  hazards.write = true;
  return success();
}
