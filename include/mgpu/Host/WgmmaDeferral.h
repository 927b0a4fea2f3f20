//===- WgmmaDeferral.h - wgmma completed at its wait, on the host -*- C++ -*-=//
//
// The GPU emulator's wgmma.mma_async does its work when the group it belongs
// to is waited for, as on the GPU: the issue hands the lane's accumulator
// registers to the host runtime (mgpuEmuWgmmaIssue, lib/Runtime/EmuAsync.cpp)
// and gets placeholders back; wgmma.wait_group computes the completed MMAs,
// reading their shared-memory operands then. A value derived from an MMA's
// result only by moving it (extracted, inserted, carried by a loop, handed
// to the next MMA of the chain) may stay a placeholder; every other op that
// reads one first calls mgpuEmuWgmmaResolve, which swaps in the values and
// reports a register read before its wait at that op.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_WGMMADEFERRAL_H
#define MGPU_HOST_WGMMADEFERRAL_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Emits at `b`'s insertion point the issue of `op` by thread `lane`
/// (0..127) of its warpgroup; `smem` is the host buffer (memref<?xi8>)
/// emulating shared memory and `ctaBase` the byte offset of this CTA's
/// slice, `where` the op's location string. Returns the new accumulator
/// vector (of placeholders).
Value issueDeferredWgmma(OpBuilder &b, WgmmaSharedOp op, Value smem,
                         Value ctaBase, Value lane, Value where);

/// The same for a wgmma with a in registers: `aRows` (32 f32) are the
/// lane's rows g and g + 8 of a, K 0..15 each, gathered from its quad
/// (exchangeRegisterA). Returns the new accumulator vector.
Value issueDeferredRegisterAWgmma(OpBuilder &b, WgmmaRegisterAOp op,
                                  ValueRange aRows, Value smem, Value ctaBase,
                                  Value lane, Value where);

/// Makes every op that reads a value derived from one of `results` (the
/// fragments issueDeferredWgmma returned) other than by moving it call
/// mgpuEmuWgmmaResolve on it first, with the location string `where`
/// gives for the op.
void resolveDeferredResults(
    ArrayRef<Value> results,
    function_ref<Value(OpBuilder &, Operation *)> where);

} // namespace mlir::mgpu

#endif // MGPU_HOST_WGMMADEFERRAL_H
