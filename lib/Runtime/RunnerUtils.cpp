//===- RunnerUtils.cpp - What lowered host programs print with ------------===//
//
// libmgpu_runner_utils.so: the functions that vector.print and memref.copy
// lower to (printF32, printOpen, ..., memrefCopy), for the executables
// `mgpu-run --emit-executable` makes. MLIR's own runner utility libraries
// link libMLIR and libLLVM (hundreds of MiB); this one needs only libc, so
// an executable and its libraries fit in a device bundle. The output format
// is the runner utilities': `( 1, 2 )` for a vector, %g for floats.
//
//===----------------------------------------------------------------------===//

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

#define MGPU_RUNNER_EXPORT extern "C" __attribute__((visibility("default")))

MGPU_RUNNER_EXPORT void printOpen() { std::fputs("( ", stdout); }
MGPU_RUNNER_EXPORT void printClose() { std::fputs(" )", stdout); }
MGPU_RUNNER_EXPORT void printComma() { std::fputs(", ", stdout); }
MGPU_RUNNER_EXPORT void printNewline() { std::fputc('\n', stdout); }
MGPU_RUNNER_EXPORT void printString(const char *text) {
  std::fputs(text, stdout);
}
MGPU_RUNNER_EXPORT void printI64(int64_t value) {
  std::printf("%" PRId64, value);
}
MGPU_RUNNER_EXPORT void printU64(uint64_t value) {
  std::printf("%" PRIu64, value);
}
MGPU_RUNNER_EXPORT void printF32(float value) {
  std::printf("%g", static_cast<double>(value));
}
MGPU_RUNNER_EXPORT void printF64(double value) { std::printf("%g", value); }

/// The descriptor of a ranked memref, as the LLVM lowering lays it out.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
};

struct UnrankedMemRef {
  int64_t rank;
  MemRefDescriptor *descriptor;
};

/// memref.copy between memrefs of the same shape, any strides.
MGPU_RUNNER_EXPORT void memrefCopy(int64_t elementBytes, UnrankedMemRef *from,
                                   UnrankedMemRef *to) {
  int64_t rank = from->rank;
  const int64_t *sizes = from->descriptor->sizesAndStrides;
  const int64_t *fromStrides = sizes + rank;
  const int64_t *toStrides = to->descriptor->sizesAndStrides + rank;
  int64_t total = 1;
  for (int64_t d = 0; d < rank; ++d)
    total *= sizes[d];
  char *source =
      from->descriptor->aligned + from->descriptor->offset * elementBytes;
  char *target =
      to->descriptor->aligned + to->descriptor->offset * elementBytes;
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat, fromOffset = 0, toOffset = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t index = rest % sizes[d];
      rest /= sizes[d];
      fromOffset += index * fromStrides[d];
      toOffset += index * toStrides[d];
    }
    std::memcpy(target + toOffset * elementBytes,
                source + fromOffset * elementBytes, elementBytes);
  }
}

/// bf16 conversions that host code lowers to libcalls. Debian 12's libgcc
/// (GCC 12) has no __truncsfbf2, so executables that round to bf16 on the
/// host take it from here. On x86-64 a bf16 travels in an SSE register like
/// a float, so the result is a float whose low 16 bits are the bf16's.
static uint16_t roundToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet and a NaN.
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  // Round to nearest, ties to even.
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

#if defined(__x86_64__)
MGPU_RUNNER_EXPORT __attribute__((weak)) float __truncsfbf2(float value) {
  uint32_t bits = roundToBF16(value);
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}
#endif

/// vector.print of f16 and bf16 values (passed as their bits).
MGPU_RUNNER_EXPORT void printBF16(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  std::printf("%g", value);
}
