//===- TmaReductions.h - Reduce-store kinds, element by element -*- C++ -*-===//
//
// copy_smem_to_gmem with `reduction K` combines each element it copies into
// global memory atomically. The host backend and the GPU's copy without TMA
// (lanes copying element by element) both do so with one memref atomic per
// element, so what each kind means is written here once: add, min, max, the
// integer smin/smax (signed) and umin/umax (unsigned) and the bitwise kinds
// are memref.atomic_rmw kinds (float min/max ignore a NaN operand, as PTX's
// min/max do); inc and dec, which no arith kind has, are a
// generic_atomic_rmw with PTX's unsigned rules. The emulator's runtime
// (lib/Runtime/HostRuntime.cpp) combines with the same rules in C++, and the
// TMA path hands the kind to cp.reduce.async.bulk.tensor.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_TMAREDUCTIONS_H
#define MGPU_KERNELFORM_TMAREDUCTIONS_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::mgpu {

/// Combines `value` into `ref[indices]` atomically, as reduction `kind`
/// does (a kind the verifier of copy_smem_to_gmem accepts for the type).
inline void emitTmaReductionAtomic(OpBuilder &b, Location loc,
                                   TmaReduction kind, Value value, Value ref,
                                   ValueRange indices) {
  bool isFloat = isa<FloatType>(value.getType());
  std::optional<arith::AtomicRMWKind> rmw;
  switch (kind) {
  case TmaReduction::add:
    rmw = isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
    break;
  case TmaReduction::min:
    rmw = arith::AtomicRMWKind::minnumf;
    break;
  case TmaReduction::max:
    rmw = arith::AtomicRMWKind::maxnumf;
    break;
  case TmaReduction::bit_and:
    rmw = arith::AtomicRMWKind::andi;
    break;
  case TmaReduction::bit_or:
    rmw = arith::AtomicRMWKind::ori;
    break;
  case TmaReduction::bit_xor:
    rmw = arith::AtomicRMWKind::xori;
    break;
  case TmaReduction::smin:
    rmw = arith::AtomicRMWKind::mins;
    break;
  case TmaReduction::smax:
    rmw = arith::AtomicRMWKind::maxs;
    break;
  case TmaReduction::umin:
    rmw = arith::AtomicRMWKind::minu;
    break;
  case TmaReduction::umax:
    rmw = arith::AtomicRMWKind::maxu;
    break;
  case TmaReduction::inc:
  case TmaReduction::dec:
    break;
  }
  if (rmw) {
    memref::AtomicRMWOp::create(b, loc, *rmw, value, ref, indices);
    return;
  }
  auto generic = memref::GenericAtomicRMWOp::create(b, loc, ref, indices);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(generic.getBody());
  Value old = generic.getCurrentValue();
  Type type = old.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value result;
  if (kind == TmaReduction::inc) {
    // old >= value ? 0 : old + 1
    Value wraps =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, old, value);
    result = arith::SelectOp::create(b, loc, wraps, zero,
                                     arith::AddIOp::create(b, loc, old, one));
  } else {
    // old == 0 || old > value ? value : old - 1
    Value reload = arith::OrIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, old, value));
    result = arith::SelectOp::create(b, loc, reload, value,
                                     arith::SubIOp::create(b, loc, old, one));
  }
  memref::AtomicYieldOp::create(b, loc, result);
}

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_TMAREDUCTIONS_H
