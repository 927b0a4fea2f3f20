//===- SmemDescriptor.h - The tensor cores' shared-memory descriptors -*- C++
//-*-===//
//
// The one encoding of the 64-bit shared-memory matrix descriptors that
// wgmma and tcgen05 MMAs read their operands through (PTX ISA, "Matrix
// Descriptor Format"): the operand's shared-memory address / 16 in bits
// 0-13, the leading byte offset / 16 in bits 16-29, the stride byte offset
// / 16 in bits 32-45; tcgen05's descriptors carry version 1 in bit 46 and
// the swizzle mode in bits 61-63 (2: 128 bytes), wgmma's the swizzle mode
// in bits 62-63 (1: 128 bytes). The NVVM lowerings encode with it; the
// emulator decodes with it. Plain C++, no MLIR.
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
/// wgmma's swizzle mode: bits 62-63, 1 for the 128-byte swizzle.
constexpr int kWgmmaSwizzleShift = 62;

/// Everything of a descriptor but its start address: the leading and stride
/// byte offsets and the swizzle.
inline uint64_t encodeDescriptorFields(DescriptorKind kind, int64_t leading,
                                       int64_t stride, bool swizzle128) {
  uint64_t fields = (uint64_t(leading >> 4) << kDescriptorLeadingShift) |
                    (uint64_t(stride >> 4) << kDescriptorStrideShift);
  if (kind == DescriptorKind::Wgmma)
    return fields | (uint64_t(swizzle128 ? 1 : 0) << kWgmmaSwizzleShift);
  return fields | (uint64_t(1) << 46) | (uint64_t(swizzle128 ? 2 : 0) << 61);
}

/// A 14-bit field of `desc` (at `shift`), in bytes.
inline int64_t decodeDescriptorField(uint64_t desc, int shift) {
  return int64_t((desc >> shift) & 0x3fff) << 4;
}

/// Whether a wgmma descriptor says the 128-byte swizzle.
inline bool isWgmmaDescriptorSwizzled(uint64_t desc) {
  return (desc >> kWgmmaSwizzleShift) == 1;
}

} // namespace mgpu

#endif // MGPU_TARGET_SMEMDESCRIPTOR_H
