//===- ProfileRecord.cpp - One profiler event as memory accesses ----------===//
//
// See ProfileRecord.h. The count lives in the trace itself, so that a
// scope inside any loop or branch needs no value carried through it; only
// the one thread that records a trace touches it, so the accesses need no
// synchronization.
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/ProfileRecord.h"
#include "mgpu/KernelForm/IfThen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mgpu;

void mlir::mgpu::emitProfileRecord(OpBuilder &b, ProfileEventOp op,
                                   Value buffer, Value base) {
  Location loc = op.getLoc();
  // The clock first: the bookkeeping below is not part of the scope.
  Value time = GlobalTimerOp::create(b, loc, b.getI64Type());
  Value count = memref::LoadOp::create(b, loc, buffer, base);
  Value capacity = arith::ConstantIntOp::create(b, loc, op.getCapacity(), 64);
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, count, capacity);
  buildIfThen(b, loc, fits, [&] {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value two = arith::ConstantIndexOp::create(b, loc, 2);
    Value n = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
    Value tagAt =
        arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, base, one),
                              arith::MulIOp::create(b, loc, n, two));
    Value timeAt = arith::AddIOp::create(b, loc, tagAt, one);
    Value tag = arith::ConstantIntOp::create(b, loc, op.getTag(), 64);
    memref::StoreOp::create(b, loc, tag, buffer, tagAt);
    memref::StoreOp::create(b, loc, time, buffer, timeAt);
    Value next = arith::AddIOp::create(
        b, loc, count, arith::ConstantIntOp::create(b, loc, 1, 64));
    memref::StoreOp::create(b, loc, next, buffer, base);
  });
}
