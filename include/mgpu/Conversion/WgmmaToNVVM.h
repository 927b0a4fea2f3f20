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

/// Bytes from the start of an operand tile of `k` columns (2-byte elements
/// in 128-byte core matrices; the core matrices of 8 rows along M or N one
/// after another along K, 128 bytes apart, then the next 8 rows, k * 16
/// bytes further) to the element at row `mn` (M or N) and column `kIndex`.
/// A core matrix holds 8 rows of 8 consecutive K elements (K-major), or,
/// with `mnMajor`, 8 K rows of 8 consecutive M or N elements.
Value buildCoreMatrixOffset(OpBuilder &b, Location loc, Value mn, Value kIndex,
                            int64_t k, bool mnMajor = false);

/// Row and column in the 64 x N accumulator of register `reg` of the
/// fragment held by thread `lane` (0..127) of the warpgroup.
std::pair<Value, Value> buildFragmentPosition(OpBuilder &b, Location loc,
                                              Value lane, int64_t reg);

/// `acc + a * b` on the tensor cores for one 64-row tile: `fragment` is the
/// LLVM struct of the thread's N/2 f32 accumulator registers, `aAddress`
/// and `bAddress` the shared-memory addresses (i64) of a (64 x k, K-major)
/// and of b (n x k, N-major if `bMnMajor`, else K-major) in the layout of
/// buildCoreMatrixOffset; `bf16` picks bf16 over f16 inputs. Fences the
/// registers, issues one m64nNk16 MMA per 16 of K, commits and waits for the
/// group. Returns the new fragment.
Value buildTensorCoreMma(OpBuilder &b, Location loc, Value fragment,
                         Value aAddress, Value bAddress, int64_t n, int64_t k,
                         bool bf16, bool bMnMajor);

} // namespace mlir::mgpu

#endif // MGPU_CONVERSION_WGMMATONVVM_H
