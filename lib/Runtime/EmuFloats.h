//===- EmuFloats.h - 16-bit floats widened on the host (internal) -*- C++ -*-=//
//
// f16, bf16 and f8 (e4m3fn, e5m2) bits to f32, exactly, for the host
// runtime's reduce-stores (HostRuntime.cpp) and the emulator's MMAs
// (EmuAsync.cpp).
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

/// float8_e4m3fn: 4 exponent bits (bias 7), 3 mantissa bits, no
/// infinities, NaN at S.1111.111.
inline float e4m3ToFloat(uint8_t v) {
  float sign = (v & 0x80) ? -1.0f : 1.0f;
  int32_t exponent = (v >> 3) & 0xf;
  int32_t mantissa = v & 0x7;
  if (exponent == 0xf && mantissa == 0x7)
    return std::nanf("");
  if (exponent == 0)
    return sign * std::ldexp(static_cast<float>(mantissa), -9);
  return sign * std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
}

/// float8_e5m2: the upper byte of an f16.
inline float e5m2ToFloat(uint8_t v) { return halfToFloat(uint16_t(v) << 8); }

} // namespace mgpu::emu

#endif // MGPU_RUNTIME_EMUFLOATS_H
