//===- SwizzleFormula.h - Where a tiled, swizzled element lies --*- C++ -*-===//
//
// The one formula for the shared-memory layouts that TMA's and the tensor
// cores' swizzle modes give a buffer. With a swizzle of S bytes (32, 64 or
// 128), byte b of a region aligned to 8 S bytes lies at b with its 16-byte
// chunk bits (the low log2(S / 16) of them) xor-ed with its 128-byte line
// bits (mod S / 16): the pattern repeats every 8 S bytes (swizzle). A buffer
// tiled by R x C tiles (C elements spanning S bytes, R a multiple of 8)
// holds its tiles in row-major order, each tile's rows one after another,
// then swizzled (swizzledByteOffset). Written once over any integer
// arithmetic: plain int64_t (IntArith; the compiler's static offsets and the
// host runtime, which has no MLIR) or IR values (mgpu::IndexArith,
// IndexArithmetic.h; the emulator's and interpret mode's reads of swizzled
// operands).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TARGET_SWIZZLEFORMULA_H
#define MGPU_TARGET_SWIZZLEFORMULA_H

#include <cstdint>

namespace mgpu {

/// The bytes of the line whose index the swizzle xors into the chunk bits,
/// of the chunks it permutes, and of the widest swizzle.
constexpr int64_t kSwizzleLineBytes = 128, kSwizzleChunkBytes = 16,
                  kMaxSwizzleBytes = 128;

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

/// The swizzle whose span holds `chunks` 16-byte chunks (S / 16, a value:
/// the emulator reads S from a descriptor at run time) of byte offset
/// `bytes` from a start aligned to 8 S bytes: the formula itself.
template <typename Arith>
typename Arith::Value swizzleChunks(const Arith &a,
                                    typename Arith::Value chunks,
                                    typename Arith::Value bytes) {
  auto line = a.rem(a.div(bytes, a.constant(kSwizzleLineBytes)), chunks);
  return a.bitXor(bytes, a.mul(line, a.constant(kSwizzleChunkBytes)));
}

/// The `swizzleBytes`-byte swizzle of byte offset `bytes` from a start
/// aligned to 8 x `swizzleBytes` bytes.
template <typename Arith>
typename Arith::Value swizzle(const Arith &a, int64_t swizzleBytes,
                              typename Arith::Value bytes) {
  return swizzleChunks(a, a.constant(swizzleBytes / kSwizzleChunkBytes), bytes);
}

/// The 128-byte swizzle (the tensor cores' operands).
template <typename Arith>
typename Arith::Value swizzle128(const Arith &a, typename Arith::Value bytes) {
  return swizzle(a, kMaxSwizzleBytes, bytes);
}

/// The byte offset of element (`row`, `col`) of a buffer `width` elements
/// wide, of `elementBytes` each, tiled by `tileRows` x `tileCols` tiles
/// whose rows are swizzled (by their own span, `tileCols` x
/// `elementBytes` bytes).
template <typename Arith>
typename Arith::Value
swizzledByteOffset(const Arith &a, int64_t tileRows, int64_t tileCols,
                   int64_t elementBytes, int64_t width,
                   typename Arith::Value row, typename Arith::Value col) {
  auto c = [&](int64_t v) { return a.constant(v); };
  auto tile = a.add(a.mul(a.div(row, c(tileRows)), c(width / tileCols)),
                    a.div(col, c(tileCols)));
  int64_t rowBytes = tileCols * elementBytes;
  auto bytes = a.add(a.mul(tile, c(tileRows * rowBytes)),
                     a.add(a.mul(a.rem(row, c(tileRows)), c(rowBytes)),
                           a.mul(a.rem(col, c(tileCols)), c(elementBytes))));
  return swizzle(a, rowBytes, bytes);
}

inline int64_t swizzledByteOffset(int64_t tileRows, int64_t tileCols,
                                  int64_t elementBytes, int64_t width,
                                  int64_t row, int64_t col) {
  return swizzledByteOffset(IntArith(), tileRows, tileCols, elementBytes, width,
                            row, col);
}

} // namespace mgpu

#endif // MGPU_TARGET_SWIZZLEFORMULA_H
