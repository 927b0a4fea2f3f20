//===- WgmmaSteps.h - Warpgroup MMAs as the lanes issue them ----*- C++ -*-===//
//
// The pieces of the distribution of mgpu.wgmma onto the tensor cores
// (sm_90a; 16-bit, 8-bit float and tf32 inputs, f32 accumulator): the
// K-major core-matrix layout the operands are copied into in shared memory
// (core matrices of 8 rows of 16 bytes, 128 contiguous bytes, the layout
// wgmma reads without swizzling), the 64-bit matrix descriptor of such a
// tile, the position of each register of a thread's m64nN accumulator
// fragment, and the fenced, committed and waited chain of per-lane wgmma
// steps over K as mgpu ops (mgpu.wgmma_fence, mgpu.wgmma_shared or
// mgpu.wgmma_register_a, mgpu.wgmma_commit_group, mgpu.wgmma_wait_group),
// which --mgpu-primitives-to-nvvm lowers (WgmmaToNVVM.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_GPU_WGMMASTEPS_H
#define MGPU_GPU_WGMMASTEPS_H

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::mgpu {

/// Bytes from the start of an operand tile of `k` columns (elements of
/// `elementBytes` in 128-byte core matrices; the core matrices of 8 rows
/// along M or N one after another along K, 128 bytes apart, then the next 8
/// rows, k * elementBytes * 8 bytes further) to the element at row `mn` (M
/// or N) and column `kIndex`. A core matrix holds 8 rows of 16 bytes of
/// consecutive K elements (K-major), or, with `mnMajor`, 8 K rows of 16
/// bytes of consecutive M or N elements.
Value buildCoreMatrixOffset(OpBuilder &b, Location loc, Value mn, Value kIndex,
                            int64_t k, bool mnMajor = false,
                            int64_t elementBytes = 2);

/// Row and column in the 64 x N accumulator of register `reg` of the
/// fragment held by thread `lane` (0..127) of the warpgroup.
std::pair<Value, Value> buildFragmentPosition(OpBuilder &b, Location loc,
                                              Value lane, int64_t reg);

/// Where the tensor cores find one operand of the MMAs of a 64-row tile in
/// shared memory: the address (i64) of each K step's 16 columns, and the
/// byte distances a descriptor gives (`leading`, `stride`: between core
/// matrices along K and along M or N without swizzling; with a swizzle,
/// between swizzle atoms along M or N and between groups of 8 rows along K
/// for an MN-major operand, the 8-row stride for a K-major one), and the
/// swizzle span in bytes (0: none; 32, 64 or 128).
struct MmaOperand {
  std::function<Value(int64_t step)> address;
  int64_t leading = 0, stride = 0;
  bool mnMajor = false;
  int64_t swizzleBytes = 0;
};

/// An operand of `rows` (M or N) x `k` copied in the layout of
/// buildCoreMatrixOffset at `address`.
MmaOperand getCoreMatrixOperand(OpBuilder &b, Location loc, Value address,
                                int64_t k, bool mnMajor,
                                int64_t elementBytes = 2);

/// The K of one wgmma.mma_async for inputs of `elementBytes`: 32 bytes of
/// K (16 f16, 32 f8, 8 tf32).
inline int64_t getWgmmaKStep(int64_t elementBytes) { return 32 / elementBytes; }

/// `acc + a * b` on the tensor cores for one 64-row tile: `accumulator` is
/// the lane's N/2 f32 registers of the tile as a vector; a is K-major or
/// M-major (`a.mnMajor`) and b K-major or N-major (`b.mnMajor`; 16-bit
/// inputs only); `aType` and `bType` are the inputs' element types (f16,
/// bf16, f8E4M3FN, f8E5M2, or f32 read as tf32). Writes mgpu.wgmma_fence,
/// one mgpu.wgmma_shared per S of K (getWgmmaKStep) and
/// mgpu.wgmma_commit_group; then mgpu.wgmma_wait_group 0 unless `async`
/// (a later wait must). Returns the new accumulator.
Value buildTensorCoreMma(OpBuilder &b, Location loc, Value accumulator,
                         const MmaOperand &a, const MmaOperand &bOperand,
                         int64_t k, Type aType, Type bType, bool async);

/// The same with a in registers (mgpu.wgmma_register_a per K step):
/// `accumulator` is the thread's N/2 f32 registers of one 64-row tile as a
/// vector, `a` its k/2 elements of the tile's a in the WGMMA fragment
/// layout. Returns the new accumulator.
Value buildRegisterATensorCoreMma(OpBuilder &b, Location loc, Value accumulator,
                                  Value a, const MmaOperand &bOperand,
                                  int64_t k, bool async);

} // namespace mlir::mgpu

#endif // MGPU_GPU_WGMMASTEPS_H
