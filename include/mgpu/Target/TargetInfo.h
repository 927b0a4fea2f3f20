//===- TargetInfo.h - What mgpu knows about each chip -----------*- C++ -*-===//
//
// The one description of the chips mgpu compiles for (sm_80, sm_90, sm_90a,
// sm_100, sm_100a): shared memory, registers, multiprocessors, named
// barriers, launch limits, the PTX version, which tensor-core and copy
// instructions exist, and the alignments shared memory needs. The support
// rules of the dialect, the kernel-form passes and the backends all ask it,
// so that no chip fact is written twice. Plain C++ (no MLIR IR), so that the
// runtime and tools may use it too.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TARGET_TARGETINFO_H
#define MGPU_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::mgpu {

/// Lanes (CUDA threads) of a warpgroup, the unit a Pallas thread runs on.
constexpr int64_t kWarpgroupLanes = 128;

/// The tensor-core instructions of a chip family.
enum class TensorCoreKind {
  /// mma.sync only (sm_80): mgpu.wgmma runs on ordinary instructions.
  MmaSync,
  /// wgmma.mma_async with shared-memory descriptors (sm_90a).
  Wgmma,
  /// tcgen05.mma with tensor memory (sm_100a).
  Tcgen05,
};

struct TargetInfo {
  /// The chip's name as `mgpu.target` and `#nvvm.target` spell it.
  llvm::StringLiteral chip;
  /// Shared memory one CTA may use (the opt-in maximum).
  int64_t maxSharedMemoryBytes;
  /// 32-bit registers of one multiprocessor.
  int64_t registersPerMultiprocessor;
  /// Multiprocessors of the smallest part of the family: that many CTAs of
  /// at most 1024 threads and `maxSharedMemoryBytes` are resident at once on
  /// any GPU of it (what kernels whose CTAs wait on each other rely on).
  int64_t guaranteedResidentCtas;
  /// Hardware named barriers per CTA (bar.sync ids).
  int64_t namedBarriers;
  /// The PTX features code for the chip is generated with (its version).
  llvm::StringLiteral ptxFeatures;
  TensorCoreKind tensorCores;
  /// Bulk tensor copies (TMA), mbarrier.try_wait, clusters, setmaxnreg.
  bool hasTma;
  /// Whether the `a` suffix's architecture-specific instructions (wgmma,
  /// tcgen05, setmaxnreg) exist: sm_90a, not sm_90.
  bool archSpecific;

  bool hasWgmma() const { return tensorCores == TensorCoreKind::Wgmma; }
  /// tcgen05 MMAs and tensor memory (sm_100a).
  bool hasTcgen05() const { return tensorCores == TensorCoreKind::Tcgen05; }
  /// Pre-Hopper chips (no TMA) copy global memory into shared memory with
  /// cp.async, in copy groups waited for with cp.async.wait_group; JAX
  /// takes copy_gmem_to_smem without a barrier, and wait_gmem_to_smem, only
  /// there.
  bool hasCpAsyncGroups() const { return !hasTma; }

  /// Threads of one CTA, and CTAs along x of one launch.
  static constexpr int64_t kMaxThreadsPerCta = 1024;
  static constexpr int64_t kMaxCtasX = (int64_t(1) << 31) - 1;
  /// CTAs of a portable cluster.
  static constexpr int64_t kMaxClusterCtas = 8;
  /// Every shared-memory buffer starts at a multiple of this (128-bit
  /// accesses and TMA boxes).
  static constexpr int64_t kSharedAlignment = 128;
  /// Buffers that TMA or the tensor cores read with the 128-byte swizzle
  /// start at a multiple of this: the swizzle pattern repeats every 1024
  /// bytes of absolute shared-memory address.
  static constexpr int64_t kSwizzleAtomBytes = 1024;
  /// The widest swizzle, in bytes of one swizzled row.
  static constexpr int64_t kMaxSwizzleBytes = 128;
  /// Registers one lane may hold (setmaxnreg's and .maxnreg's ceiling is
  /// 255 allocated, 256 requested).
  static constexpr int64_t kMaxRegistersPerLane = 256;

  /// The description of `chip`, or null when mgpu does not know it.
  static const TargetInfo *lookup(llvm::StringRef chip);
  /// The description of the default chip, sm_90a.
  static const TargetInfo &getDefault();
  /// Every known chip, in the order diagnostics list them.
  static llvm::ArrayRef<TargetInfo> getAll();

  /// The registers per lane of a CTA of `warpgroups` warpgroups when the
  /// register file is shared out evenly, in steps of 8, at most 255 (what
  /// ptxas must know at entry of a kernel that uses setmaxnreg).
  int64_t getEntryRegisters(int64_t warpgroups) const;
};

} // namespace mlir::mgpu

#endif // MGPU_TARGET_TARGETINFO_H
