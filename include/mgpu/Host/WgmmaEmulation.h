//===- WgmmaEmulation.h - wgmma operand reads on the host -------*- C++ -*-===//
//
// The GPU emulator runs the tensor-core lowering of mgpu.wgmma as it is; the
// MMAs themselves are computed at their wait by the runtime
// (WgmmaDeferral.h, lib/Runtime/EmuAsync.cpp). What stays here is the
// decoding of the two matrix descriptors into the shared-memory elements a
// wgmma step (mgpu.wgmma_shared, mgpu.wgmma_register_a) reads, for the
// emulator's hazard checks.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_WGMMAEMULATION_H
#define MGPU_HOST_WGMMAEMULATION_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// For the emulator's checks (EmuChecks.cpp): emits loops that call
/// `mgpuEmuCheckWgmmaRead(address, 2, where)` for every shared-memory
/// element `op` reads (a: 64 x 16, b: N x 16), to be run by one lane of
/// the warpgroup.
void emitWgmmaReadChecks(OpBuilder &b, WgmmaSharedOp op, Value smem,
                         Value ctaBase, Value where);

/// The same for a wgmma with a in registers: b's elements only.
void emitWgmmaReadChecks(OpBuilder &b, WgmmaRegisterAOp op, Value smem,
                         Value ctaBase, Value where);

} // namespace mlir::mgpu

#endif // MGPU_HOST_WGMMAEMULATION_H
