//===- WgmmaToNVVM.h - Warpgroup MMAs on Hopper's tensor cores --*- C++ -*-===//
//
// The pieces of mgpu.wgmma's tensor-core lowering (sm_90a, 16-bit inputs,
// f32 accumulator): the K-major core-matrix layout the operands are copied
// into in shared memory (8x8-element core matrices of 128 contiguous bytes,
// the layout wgmma reads without swizzling), the 64-bit matrix descriptor of
// such a tile, the position of each register of a thread's m64nN
// accumulator fragment, and the fenced, committed and waited chain of
// wgmma.mma_async instructions over K.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_CONVERSION_WGMMATONVVM_H
#define MGPU_CONVERSION_WGMMATONVVM_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Bytes from the start of a rows x `k` tile (2-byte elements, K-major core
/// matrices, rows of core matrices one after another) to element (row, col).
Value buildCoreMatrixOffset(OpBuilder &b, Location loc, Value row, Value col,
                            int64_t k);

/// Row and column in the 64 x N accumulator of register `reg` of the
/// fragment held by thread `lane` (0..127) of the warpgroup.
std::pair<Value, Value> buildFragmentPosition(OpBuilder &b, Location loc,
                                              Value lane, int64_t reg);

/// `acc + a * b` on the tensor cores for one 64-row tile: `fragment` is the
/// LLVM struct of the thread's N/2 f32 accumulator registers, `aAddress`
/// and `bAddress` the shared-memory addresses (i64) of a (64 x k) and of
/// b transposed (n x k), both in the core-matrix layout; `bf16` picks bf16
/// over f16 inputs. Fences the registers, issues one m64nNk16 MMA per 16 of
/// K, commits and waits for the group. Returns the new fragment.
Value buildTensorCoreMma(OpBuilder &b, Location loc, Value fragment,
                         Value aAddress, Value bAddress, int64_t n, int64_t k,
                         bool bf16);

} // namespace mlir::mgpu

#endif // MGPU_CONVERSION_WGMMATONVVM_H
