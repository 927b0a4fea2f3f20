//===- AtomicKinds.h - mgpu atomic kinds as memref.atomic_rmw ---*- C++ -*-===//
//
// Every backend implements mgpu.atomic_store element by element with
// memref.atomic_rmw (the host's atomics on the CPU and in the emulator,
// LLVM's atomicrmw and so PTX atom/red on the GPU), so the one choice that
// carries meaning, which arith kind each mgpu kind is for an element type,
// is made here once: integer max and min compare signed (JAX's int32),
// umax and umin unsigned (JAX's uint32), and float max and min ignore a NaN
// operand as PTX's atom.max/min do.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_KERNELFORM_ATOMICKINDS_H
#define MGPU_KERNELFORM_ATOMICKINDS_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::mgpu {

/// The memref.atomic_rmw kind of `kind` on elements of type `element` (one
/// the verifier of mgpu.atomic_store accepts).
inline arith::AtomicRMWKind getAtomicRMWKind(AtomicKind kind, Type element) {
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case AtomicKind::add:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case AtomicKind::max:
    return isFloat ? arith::AtomicRMWKind::maxnumf : arith::AtomicRMWKind::maxs;
  case AtomicKind::min:
    return isFloat ? arith::AtomicRMWKind::minnumf : arith::AtomicRMWKind::mins;
  case AtomicKind::bit_and:
    return arith::AtomicRMWKind::andi;
  case AtomicKind::bit_or:
    return arith::AtomicRMWKind::ori;
  case AtomicKind::bit_xor:
    return arith::AtomicRMWKind::xori;
  case AtomicKind::umax:
    return arith::AtomicRMWKind::maxu;
  case AtomicKind::umin:
    return arith::AtomicRMWKind::minu;
  }
  llvm_unreachable("unknown atomic kind");
}

} // namespace mlir::mgpu

#endif // MGPU_KERNELFORM_ATOMICKINDS_H
