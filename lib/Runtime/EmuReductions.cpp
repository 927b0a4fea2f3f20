//===- EmuReductions.cpp - Reduce-stores' element arithmetic --------------===//
//
// How the host backends' TMA reduce-stores (copy_smem_to_gmem with
// `reduction`) combine an element into global memory, as PTX's
// cp.reduce.async.bulk does: f16 and bf16 added, min'd and max'd in f32
// and rounded to nearest even, NaN operands ignored by min and max,
// integers with JAX's signed and unsigned kinds (see EmuReductions.h).
// Part of libmgpu_host_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "EmuReductions.h"
#include "EmuFloats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

using namespace mgpu::emu;

namespace {

/// Round to nearest even, as PTX's f16 add does.
uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  if (std::isnan(f))
    return sign | 0x7e00;
  float magnitude = std::fabs(f);
  if (magnitude >= 65520.0f)
    return sign | 0x7c00;
  if (magnitude < 6.103515625e-05f) {
    // Subnormal: units of 2^-24, rounded to nearest even.
    float units = std::nearbyint(magnitude * 16777216.0f);
    return sign | static_cast<uint16_t>(units);
  }
  uint32_t m = bits & 0x7fffffffu;
  // Rebias the exponent and round the 13 dropped mantissa bits.
  uint32_t rounded = m + 0xfffu + ((m >> 13) & 1);
  return sign |
         static_cast<uint16_t>(((rounded >> 13) - ((127 - 15) << 10)) & 0x7fff);
}

uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

/// PTX's min/max: a NaN operand is ignored.
float combineFloat(int64_t kind, float old, float x) {
  switch (kind) {
  case 0: // add
    return old + x;
  case 1: // min
    return std::fmin(old, x);
  default: // max
    return std::fmax(old, x);
  }
}

template <typename T> T combineInteger(int64_t kind, T old, T x) {
  using U = std::make_unsigned_t<T>;
  U o = static_cast<U>(old), v = static_cast<U>(x);
  switch (kind) {
  case 0: // add
    return static_cast<T>(o + v);
  case 3: // inc
    return static_cast<T>(o >= v ? 0 : o + 1);
  case 4: // dec
    return static_cast<T>(o == 0 || o > v ? v : o - 1);
  case 5: // and
    return static_cast<T>(o & v);
  case 6: // or
    return static_cast<T>(o | v);
  case 8: // smin
    return std::min(old, x);
  case 9: // smax
    return std::max(old, x);
  case 10: // umin
    return static_cast<T>(std::min(o, v));
  case 11: // umax
    return static_cast<T>(std::max(o, v));
  default: // xor
    return static_cast<T>(o ^ v);
  }
}

/// Combines the element of type T at `target` with the one at `source`
/// through `combine`, in place (unaligned bytes).
template <typename T, typename Combine>
void combineBytes(char *target, const char *source, Combine combine) {
  T a, b;
  std::memcpy(&a, target, sizeof(T));
  std::memcpy(&b, source, sizeof(T));
  T r = combine(a, b);
  std::memcpy(target, &r, sizeof(T));
}

} // namespace

void mgpu::emu::combineElement(int64_t elementType, int64_t reduction,
                               char *target, const char *source) {
  switch (elementType) {
  case 0:
  case 1: {
    bool bf16 = elementType == 1;
    combineBytes<uint16_t>(target, source, [&](uint16_t a, uint16_t b) {
      float r = bf16 ? combineFloat(reduction, bf16ToFloat(a), bf16ToFloat(b))
                     : combineFloat(reduction, halfToFloat(a), halfToFloat(b));
      return bf16 ? floatToBf16(r) : floatToHalf(r);
    });
    return;
  }
  case 2:
    combineBytes<float>(target, source, [&](float a, float b) {
      return combineFloat(reduction, a, b);
    });
    return;
  case 3:
    combineBytes<int32_t>(target, source, [&](int32_t a, int32_t b) {
      return combineInteger(reduction, a, b);
    });
    return;
  default:
    combineBytes<int64_t>(target, source, [&](int64_t a, int64_t b) {
      return combineInteger(reduction, a, b);
    });
    return;
  }
}
