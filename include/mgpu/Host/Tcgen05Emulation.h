//===- Tcgen05Emulation.h - Tensor memory and tcgen05 on host threads -*- C++
//-*-===//
//
// The emulator's Blackwell ops (Tcgen05Emulation.cpp): a CTA's tensor
// memory is a region of its slice of the emulated shared-memory buffer,
// after its shared memory; an MMA is computed when it is issued, reading
// its operands where the swizzled tiled layout puts them, so a commit is a
// plain arrival.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_HOST_TCGEN05EMULATION_H
#define MGPU_HOST_TCGEN05EMULATION_H

#include "mlir/IR/Builders.h"

namespace mlir::mgpu {

/// Bytes of tensor memory a CTA of `launch` uses (its mgpu.tmem_ref ops).
int64_t getEmulatedTmemBytes(Operation *launch);

/// The unit attribute of a barrier_arrive that was a tcgen05_commit_arrive:
/// the checks complete the issuing thread's MMAs when the barrier is
/// waited for (mgpuEmuCheckMmaCommit).
constexpr llvm::StringLiteral kCommitsMmasAttrName = "mgpu_emu.commits_mmas";

/// Replaces the tcgen05_commit_arrive ops of `launch` by barrier_arrive:
/// the MMAs they wait for were computed when issued (the checks keep their
/// accumulator rows pending until the barrier is waited for). A pair's
/// commits stay, for emulatePairCommit.
void replaceTcgen05Commits(Operation *launch);

/// Whether `op` is a Blackwell op the emulator rewrites here.
bool isEmulatedTcgen05Op(Operation *op);

/// Emits at `b`'s insertion point the host code of `op` (see
/// isEmulatedTcgen05Op) and replaces its results; the caller erases it.
/// `smem` is the emulated shared memory (memref<?xi8>), `tmemBase` the
/// byte offset of this CTA's tensor memory in it and `peerBytes` the bytes
/// from this CTA's slice to the next CTA's (a pair's peer). With `check`,
/// the TMEM accesses of this CTA's threads (an MMA's accumulator writes
/// and a in TMEM, the lanes' row moves) go to the checker
/// (mgpuEmuCheckAccess) as shared-memory accesses, so that an MMA that
/// overwrites rows another thread reads without a barrier in between is
/// a reported race, and a lane that reads or writes an accumulator's rows
/// before a wait on the MMA's commit barrier a reported hazard.
LogicalResult emulateTcgen05Op(OpBuilder &b, Operation *op, Value smem,
                               Value tmemBase, Value peerBytes, bool check);

} // namespace mlir::mgpu

#endif // MGPU_HOST_TCGEN05EMULATION_H
