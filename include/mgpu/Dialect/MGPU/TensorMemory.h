//===- TensorMemory.h - Where a kernel's TMEM scratch lives -----*- C++ -*-===//
//
// The plan of a kernel's tensor-memory scratch (`!mgpu.tmem` entries), which
// every backend follows: the entries in order, each at the sum of the
// columns before it, in one allocation of the total rounded up to a power of
// two of at least 32 columns (JAX's rounding), at most 512. On the GPU each
// entry also takes a small shared-memory slot, where tcgen05.alloc writes
// the address.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_TENSORMEMORY_H
#define MGPU_DIALECT_MGPU_TENSORMEMORY_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

namespace mlir::mgpu {

/// Bytes of shared memory a TMEM scratch entry takes: the address slot.
constexpr int64_t kTmemSlotBytes = 16;

/// The most TMEM columns of a CTA.
constexpr int64_t kTmemMaxColumns = 512;

/// The columns one allocation of `columns` takes: JAX's rounding.
int64_t getTmemAllocationColumns(int64_t columns);

/// The column offset of each TMEM entry of `types` (0 for the others) and
/// the total columns, unrounded.
SmallVector<int64_t> getTmemColumnOffsets(ArrayRef<Type> types, int64_t &total);

/// Host bytes of the TMEM entries of `types` (4 per row and column), laid
/// out at 512 bytes per column in column-offset order.
int64_t getTmemHostBytes(ArrayRef<Type> types);

/// Checks the TMEM entries of a kernel's scratch `types` at `op`: their
/// columns, rounded up, fit the 512 of a CTA.
LogicalResult verifyTmemScratch(Operation *op, ArrayRef<Type> types);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_TENSORMEMORY_H
