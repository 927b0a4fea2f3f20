//===- EmulateLaneOps.h - One CUDA thread's ops on the host -----*- C++ -*-===//
//
// The emulator (EmulateGPU.cpp) turns a kernel into a lane function that
// the host runtime calls once per CUDA thread; LaneOpRewriter rewrites the
// ops of that function, one at a time, into host code for the thread:
// thread and block ids, shared memory as views of the host buffer, CTA,
// named and warp barriers, shuffles and mma.sync through the exchange
// words, cluster ops, wgmma, tcgen05, and the kernel-level primitives
// (EmulatePrimitives.h). Internal to lib/Host.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_HOST_EMULATELANEOPS_H
#define MGPU_LIB_HOST_EMULATELANEOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mgpu::emulation {

/// Barrier slots per CTA: 16 named barriers, then one per warp (32 warps),
/// then the cluster's (in its first CTA's slots).
constexpr int64_t kSlotsPerCta = 64;
constexpr int64_t kFirstWarpSlot = 16;
constexpr int64_t kClusterSlot = 48;

/// The location strings the emulator's runtime calls take, one constant
/// global per location of a module (a kernel has thousands of checked
/// ops).
class LocationStrings {
public:
  explicit LocationStrings(ModuleOp module) : module(module) {}
  /// A pointer to the string of `op`'s location.
  Value get(OpBuilder &b, Operation *op);

private:
  ModuleOp module;
  DenseMap<Location, LLVM::GlobalOp> globals;
};

/// The launch's sizes and host buffers, and this thread's place, as values
/// of the lane function.
struct LaneValues {
  Value gx, gy, gz, bx, by, bz, cx, cy, cz, perCta;
  /// Bytes between CTA slots of `smem` (shared, then tensor memory).
  Value stride;
  /// The host shared memory, barrier words and exchange words.
  Value smem, sync, exchange;
  /// The group's (cluster's) sizes in x and y.
  Value groupX, groupY;
  /// The CTA slot, the thread in the CTA, the block ids, the thread among
  /// all slots, and the thread ids.
  Value slot, tid, bxId, byId, bzId, t, tx, ty, tz;
  /// Byte offsets of this CTA's shared and tensor memory in `smem`, and its
  /// first barrier slot.
  Value ctaBase, tmemBase, slotBase;
};

/// Rewrites the ops of a lane function (a snapshot of them, in pre-order)
/// into host code for one CUDA thread.
struct LaneOpRewriter : LaneValues {
  /// With `globalChecks`, the lanes' loads and stores of global memory go
  /// to the checks of races between CTAs.
  LaneOpRewriter(const LaneValues &values, func::FuncOp yield,
                 func::FuncOp barrier, int64_t checks, LocationStrings &strings,
                 ArrayRef<Operation *> ops, bool globalChecks = false);

  /// Rewrites `op` (not yet erased: see `erased`); interrupts where it
  /// cannot be emulated, with a diagnostic.
  WalkResult rewrite(Operation *op);

  /// Ops of the snapshot that earlier rewrites erased.
  llvm::SmallPtrSet<Operation *, 16> erased;
  /// The fragments of the deferred MMAs (placeholders until their wait).
  SmallVector<Value> mmaResults;

private:
  Value getThreadValue(OpBuilder &nb, Operation *op);
  std::optional<WalkResult> rewriteMemoryAndSync(OpBuilder &nb, Operation *op);
  std::optional<WalkResult> rewriteMmaAndAsync(OpBuilder &nb, Operation *op);
  Value where(OpBuilder &b, Operation *op) { return strings.get(b, op); }
  void checkAccess(OpBuilder &b, Operation *op);
  void callBarrier(OpBuilder &nb, Location l, Value slot, Value count,
                   Value checked = Value());
  void callCheckedBarrier(OpBuilder &nb, Operation *op, Value slot,
                          Value count);
  Value clusterLeaderSlot(OpBuilder &nb, Location l);
  static Value pick(gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  }

  func::FuncOp yield, barrier;
  /// The checks (EmuChecks.h bits; 0: none).
  int64_t checks;
  LocationStrings &strings;
  /// The ops that access shared memory, known by their types before the
  /// rewrites give them host types.
  llvm::DenseSet<Operation *> sharedAccesses;
  /// Of those, the ones through a peer CTA's view (mgpu.cluster_ref).
  llvm::DenseSet<Operation *> peerAccesses;
  /// The loads and stores of other memrefs (global memory, and a lane's own
  /// stack, which the runtime leaves out).
  llvm::DenseSet<Operation *> globalAccesses;
  /// cluster_ref results and their bytes from this CTA's shared memory.
  DenseMap<Value, Value> peerOffsets;
};

} // namespace mlir::mgpu::emulation

#endif // MGPU_LIB_HOST_EMULATELANEOPS_H
