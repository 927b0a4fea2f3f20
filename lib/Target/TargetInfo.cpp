//===- TargetInfo.cpp - The chip table ------------------------------------===//
//
// The figures behind TargetInfo, one row per chip. Sources: the CUDA C
// Programming Guide's tables of compute capabilities (shared memory per
// block, registers per multiprocessor), the PTX ISA (versions that introduce
// sm_90a and sm_100a, 16 named barriers) and the smallest part of each
// family (A100 PCIe 40 GB: 108 SMs, H100 PCIe: 114, B200: 148).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Target/TargetInfo.h"

#include <algorithm>

using namespace mlir::mgpu;

static constexpr TargetInfo kChips[] = {
    {"sm_80", 163 * 1024, 65536, 108, 16, "+ptx80", TensorCoreKind::MmaSync,
     /*hasTma=*/false, /*archSpecific=*/false},
    {"sm_90", 227 * 1024, 65536, 114, 16, "+ptx80", TensorCoreKind::MmaSync,
     /*hasTma=*/true, /*archSpecific=*/false},
    {"sm_90a", 227 * 1024, 65536, 114, 16, "+ptx80", TensorCoreKind::Wgmma,
     /*hasTma=*/true, /*archSpecific=*/true},
    {"sm_100", 227 * 1024, 65536, 148, 16, "+ptx86", TensorCoreKind::MmaSync,
     /*hasTma=*/true, /*archSpecific=*/false},
    {"sm_100a", 227 * 1024, 65536, 148, 16, "+ptx86", TensorCoreKind::Tcgen05,
     /*hasTma=*/true, /*archSpecific=*/true},
};

const TargetInfo *TargetInfo::lookup(llvm::StringRef chip) {
  for (const TargetInfo &info : kChips)
    if (info.chip == chip)
      return &info;
  return nullptr;
}

const TargetInfo &TargetInfo::getDefault() { return *lookup("sm_90a"); }

llvm::ArrayRef<TargetInfo> TargetInfo::getAll() { return kChips; }

int64_t TargetInfo::getEntryRegisters(int64_t warpgroups) const {
  int64_t perLane = registersPerMultiprocessor / kWarpgroupLanes;
  return std::min<int64_t>(255,
                           perLane / std::max<int64_t>(1, warpgroups) / 8 * 8);
}
