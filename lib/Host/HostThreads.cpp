//===- HostThreads.cpp - Kernel threads as an OpenMP team -----------------===//
//
// The OpenMP team interpret mode runs waiting threads on (HostThreads.h).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostThreads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

using namespace mlir;

Value mlir::mgpu::beginThreadTeam(OpBuilder &b, Location loc, Value count) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  omp::ParallelOperands team;
  team.numThreads = arith::IndexCastOp::create(b, loc, b.getI32Type(), count);
  auto parallel = omp::ParallelOp::create(b, loc, team);
  b.createBlock(&parallel.getRegion());
  omp::WsloopOperands schedule;
  schedule.scheduleKind = omp::ClauseScheduleKindAttr::get(
      b.getContext(), omp::ClauseScheduleKind::Static);
  schedule.scheduleChunk = arith::ConstantIntOp::create(b, loc, 1, 32);
  auto wsloop = omp::WsloopOp::create(b, loc, schedule);
  omp::TerminatorOp::create(b, loc);
  b.createBlock(&wsloop.getRegion());
  omp::LoopNestOperands bounds;
  bounds.loopLowerBounds = {zero};
  bounds.loopUpperBounds = {count};
  bounds.loopSteps = {one};
  auto nest = omp::LoopNestOp::create(b, loc, bounds);
  Block *block =
      b.createBlock(&nest.getRegion(), {}, {b.getIndexType()}, {loc});
  omp::YieldOp::create(b, loc);
  b.setInsertionPointToStart(block);
  return block->getArgument(0);
}

void mlir::mgpu::forEachOnOwnThread(
    OpBuilder &b, Location loc, Value count,
    function_ref<void(OpBuilder &, Value)> body) {
  OpBuilder::InsertionGuard guard(b);
  Value i = beginThreadTeam(b, loc, count);
  body(b, i);
}
