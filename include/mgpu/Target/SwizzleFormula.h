//===- SwizzleFormula.h - Where a tiled, swizzled element lies --*- C++ -*-===//
//
// The one formula for the shared-memory layout that TMA's and the tensor
// cores' 128-byte swizzle give a buffer: within a 1024-byte-aligned region,
// byte b lies at b with its 16-byte chunk bits xor-ed with its 128-byte row
// bits (mod 8) (swizzle128); a buffer tiled by R x C tiles (C elements
// spanning 128 bytes, R a multiple of 8) holds its tiles in row-major
// order, each tile's rows one after another, then swizzled
// (swizzledByteOffset). Written once over any integer arithmetic: plain
// int64_t (IntArith; the compiler's static offsets and the host runtime,
// which has no MLIR) or IR values (mgpu::IndexArith, IndexArithmetic.h; the
// emulator's and interpret mode's reads of swizzled operands).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TARGET_SWIZZLEFORMULA_H
#define MGPU_TARGET_SWIZZLEFORMULA_H

#include <cstdint>

namespace mgpu {

/// The bytes of one swizzled row, and of the chunks the swizzle permutes.
constexpr int64_t kSwizzleRowBytes = 128, kSwizzleChunkBytes = 16;

/// Arithmetic on plain integers for the formulas below.
struct IntArith {
  using Value = int64_t;
  Value constant(int64_t v) const { return v; }
  Value add(Value x, Value y) const { return x + y; }
  Value mul(Value x, Value y) const { return x * y; }
  Value div(Value x, Value y) const { return x / y; }
  Value rem(Value x, Value y) const { return x % y; }
  Value bitXor(Value x, Value y) const { return x ^ y; }
};

/// The 128-byte swizzle of byte offset `bytes` from a 1024-byte-aligned
/// start.
template <typename Arith>
typename Arith::Value swizzle128(const Arith &a, typename Arith::Value bytes) {
  auto row = a.rem(a.div(bytes, a.constant(kSwizzleRowBytes)), a.constant(8));
  return a.bitXor(bytes, a.mul(row, a.constant(kSwizzleChunkBytes)));
}

/// The byte offset of element (`row`, `col`) of a buffer `width` elements
/// wide, of `elementBytes` each, tiled by `tileRows` x `tileCols` tiles
/// whose rows are swizzled.
template <typename Arith>
typename Arith::Value
swizzledByteOffset(const Arith &a, int64_t tileRows, int64_t tileCols,
                   int64_t elementBytes, int64_t width,
                   typename Arith::Value row, typename Arith::Value col) {
  auto c = [&](int64_t v) { return a.constant(v); };
  auto tile = a.add(a.mul(a.div(row, c(tileRows)), c(width / tileCols)),
                    a.div(col, c(tileCols)));
  auto bytes = a.add(a.mul(tile, c(tileRows * tileCols * elementBytes)),
                     a.add(a.mul(a.rem(row, c(tileRows)), c(kSwizzleRowBytes)),
                           a.mul(a.rem(col, c(tileCols)), c(elementBytes))));
  return swizzle128(a, bytes);
}

inline int64_t swizzledByteOffset(int64_t tileRows, int64_t tileCols,
                                  int64_t elementBytes, int64_t width,
                                  int64_t row, int64_t col) {
  return swizzledByteOffset(IntArith(), tileRows, tileCols, elementBytes, width,
                            row, col);
}

} // namespace mgpu

#endif // MGPU_TARGET_SWIZZLEFORMULA_H
