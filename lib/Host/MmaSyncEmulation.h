//===- MmaSyncEmulation.h - The emulator's mma.sync -------------*- C++ -*-===//
//
// How the GPU emulator runs Ampere's warp-wide mgpu.mma_sync
// (MmaSyncEmulation.cpp); internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_MMASYNCEMULATION_H
#define MGPU_LIB_HOST_MMASYNCEMULATION_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Replaces the uses of `mma` by host code of the calling lane: its
/// fragments go through `exchange` (one i64 word per thread, this lane's at
/// `thread`; `warpStart` is the word of lane 0 of its warp, `laneInWarp`
/// its place there) in three rounds, each between two calls of
/// `warpBarrier`, and the lane computes its four sums.
void emulateMmaSync(OpBuilder &b, MmaSyncOp mma, Value exchange, Value thread,
                    Value warpStart, Value laneInWarp,
                    function_ref<void()> warpBarrier);

/// For a wgmma with a in registers (mgpu.wgmma_register_a): trades the
/// lane's 8 elements of a (vector<8xf16> or bf16, the fragment layout of
/// mma.sync's a) with its quad as emulateMmaSync does (two rounds) and
/// returns the 32 values of rows g and g + 8, K 0..15 each, in f32.
SmallVector<Value> exchangeRegisterA(OpBuilder &b, Location loc, Value a,
                                     Value exchange, Value thread,
                                     Value warpStart, Value laneInWarp,
                                     function_ref<void()> warpBarrier);

} // namespace mlir::mgpu

#endif // MGPU_LIB_HOST_MMASYNCEMULATION_H
