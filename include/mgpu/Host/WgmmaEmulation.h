//===- WgmmaEmulation.h - wgmma.mma_async on host threads -------*- C++ -*-===//
//
// The GPU emulator runs the tensor-core lowering of mgpu.wgmma as it is, so
// that its conventions (core-matrix copies, descriptors, the fragment layout
// of the accumulator and its handovers) are checked with numbers. Each host
// thread computes the registers of its own fragment: it decodes the two
// matrix descriptors, reads the elements of a and b from its CTA's slice of
// the emulated shared memory, and adds the products in k order in f32, as
// every other backend does.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_WGMMAEMULATION_H
#define MGPU_HOST_WGMMAEMULATION_H

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Emits at `b`'s insertion point the host code of `op` for thread `lane`
/// (0..127) of its warpgroup; `smem` is the host buffer (memref<?xi8>)
/// emulating shared memory and `ctaBase` the byte offset of this CTA's
/// slice. Returns the new fragment, or fails with a diagnostic for forms
/// the lowering never produces (swizzled, transposed or non-16-bit inputs).
FailureOr<Value> emulateWgmmaMmaAsync(OpBuilder &b, NVVM::WgmmaMmaAsyncOp op,
                                      Value smem, Value ctaBase, Value lane);

/// For the emulator's checks (EmuChecks.cpp): emits loops that call
/// `mgpuEmuCheckWgmmaRead(address, 2, where)` for every shared-memory
/// element `op` reads (a: 64 x 16, b: N x 16), to be run by one lane of
/// the warpgroup.
void emitWgmmaReadChecks(OpBuilder &b, NVVM::WgmmaMmaAsyncOp op, Value smem,
                         Value ctaBase, Value where);

} // namespace mlir::mgpu

#endif // MGPU_HOST_WGMMAEMULATION_H
