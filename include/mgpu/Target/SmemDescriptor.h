//===- SmemDescriptor.h - The tensor cores' shared-memory descriptors -*- C++
//-*-===//
//
// The one encoding of the 64-bit shared-memory matrix descriptors that
// wgmma and tcgen05 MMAs read their operands through (PTX ISA, "Matrix
// Descriptor Format"): the operand's shared-memory address / 16 in bits
// 0-13, the leading byte offset / 16 in bits 16-29, the stride byte offset
// / 16 in bits 32-45; tcgen05's descriptors carry version 1 in bit 46 and
// the swizzle mode in bits 61-63 (2: 128 bytes, 4: 64, 6: 32), wgmma's the
// swizzle mode in bits 62-63 (1: 128 bytes, 2: 64, 3: 32), the same bits.
// The NVVM lowerings encode with it; the emulator decodes with it. Plain
// C++, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TARGET_SMEMDESCRIPTOR_H
#define MGPU_TARGET_SMEMDESCRIPTOR_H

#include <cstdint>

namespace mgpu {

enum class DescriptorKind { Wgmma, Tcgen05 };

/// The bits of a shared-memory address a descriptor keeps (before / 16).
constexpr uint64_t kDescriptorAddressMask = 0x3ffff;
/// Where each 14-bit field starts.
constexpr int kDescriptorStartShift = 0, kDescriptorLeadingShift = 16,
              kDescriptorStrideShift = 32;
/// wgmma's swizzle mode: bits 62-63.
constexpr int kWgmmaSwizzleShift = 62;

/// wgmma's swizzle mode for a swizzle of `swizzleBytes` (0: none): 1 for
/// 128 bytes, 2 for 64, 3 for 32 (tcgen05's is twice it, one bit lower).
inline uint64_t wgmmaSwizzleMode(int64_t swizzleBytes) {
  switch (swizzleBytes) {
  case 128:
    return 1;
  case 64:
    return 2;
  case 32:
    return 3;
  default:
    return 0;
  }
}

/// The swizzle span that wgmma swizzle mode `mode` (bits 62-63) names, in
/// bytes (0: none): 256 >> mode.
inline int64_t wgmmaSwizzleBytes(uint64_t mode) {
  return mode ? int64_t(256) >> mode : 0;
}

/// Everything of a descriptor but its start address: the leading and stride
/// byte offsets and the swizzle (`swizzleBytes`, 0: none).
inline uint64_t encodeDescriptorFields(DescriptorKind kind, int64_t leading,
                                       int64_t stride, int64_t swizzleBytes) {
  uint64_t fields = (uint64_t(leading >> 4) << kDescriptorLeadingShift) |
                    (uint64_t(stride >> 4) << kDescriptorStrideShift);
  uint64_t mode = wgmmaSwizzleMode(swizzleBytes);
  if (kind == DescriptorKind::Wgmma)
    return fields | (mode << kWgmmaSwizzleShift);
  return fields | (uint64_t(1) << 46) | ((2 * mode) << 61);
}

/// A 14-bit field of `desc` (at `shift`), in bytes.
inline int64_t decodeDescriptorField(uint64_t desc, int shift) {
  return int64_t((desc >> shift) & 0x3fff) << 4;
}

/// The swizzle span a wgmma descriptor says, in bytes (0: none).
inline int64_t wgmmaDescriptorSwizzleBytes(uint64_t desc) {
  return wgmmaSwizzleBytes(desc >> kWgmmaSwizzleShift);
}

} // namespace mgpu

#endif // MGPU_TARGET_SMEMDESCRIPTOR_H
