//===- HostMmaLoops.h - A tcgen05 MMA as host loops -------------*- C++ -*-===//
//
// The loops that compute a tcgen05 MMA on the host backends (interpret
// mode, the emulator, and a pair's MMA on both): each accumulator element
// summed in f32 in k order, as every backend does (WgmmaSemantics.h), its
// operands read by the caller's loads (row-major host buffers, or the
// swizzled layout TMA wrote). Internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_HOSTMMALOOPS_H
#define MGPU_LIB_HOST_HOSTMMALOOPS_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Element (`row`, `col`) of an MMA operand.
using HostMmaLoad =
    function_ref<Value(OpBuilder &, Location, Value row, Value col)>;

/// acc[i, column + j] = (accumulate ? acc[i, column + j] : 0) +
/// sum_k loadA(i, k) * loadB(k, j), for i < rows and j < cols; `acc` is an
/// f32 host buffer and `accumulate` an i1.
void buildHostMmaLoops(OpBuilder &b, Location loc, Value accumulate, Value acc,
                       int64_t column, int64_t rows, int64_t cols, int64_t k,
                       HostMmaLoad loadA, HostMmaLoad loadB);

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_HOSTMMALOOPS_H
