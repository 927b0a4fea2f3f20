//===- EmuFloats.h - 16-bit floats widened on the host (internal) -*- C++ -*-=//
//
// f16 and bf16 bits to f32, exactly, for the host runtime's reduce-stores
// (HostRuntime.cpp) and the emulator's MMAs (EmuAsync.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_RUNTIME_EMUFLOATS_H
#define MGPU_RUNTIME_EMUFLOATS_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mgpu::emu {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  int32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24.
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  } else {
    bits = sign | uint32_t(exponent - 15 + 127) << 23 | (mantissa << 13);
  }
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

inline float bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUFLOATS_H
