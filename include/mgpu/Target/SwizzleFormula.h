//===- SwizzleFormula.h - Where a tiled, swizzled element lies --*- C++ -*-===//
//
// The one formula for the shared-memory layout that TMA's and the tensor
// cores' 128-byte swizzle give a buffer tiled by R x C tiles (C elements
// spanning 128 bytes): tiles in row-major order, each tile's 128-byte rows
// with their 16-byte chunks permuted (chunk j of tile row r stored at chunk
// j xor (r mod 8)). Plain C++ with no MLIR dependency, so that the
// compiler (MGPURules' getSwizzledByteOffset), the host runtime
// (interpret mode's physical layouts, the emulator's copies) and tests
// share it.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_TARGET_SWIZZLEFORMULA_H
#define MGPU_TARGET_SWIZZLEFORMULA_H

#include <cstdint>

namespace mgpu {

/// The bytes of one swizzled row, and of the chunks the swizzle permutes.
constexpr int64_t kSwizzleRowBytes = 128, kSwizzleChunkBytes = 16;

/// The byte offset of element (`row`, `col`) of a buffer `width` elements
/// wide, of `elementBytes` each, tiled by `tileRows` x `tileCols` tiles
/// whose rows are swizzled.
inline int64_t swizzledByteOffset(int64_t tileRows, int64_t tileCols,
                                  int64_t elementBytes, int64_t width,
                                  int64_t row, int64_t col) {
  int64_t tile = (row / tileRows) * (width / tileCols) + col / tileCols;
  int64_t inRow = (col % tileCols) * elementBytes;
  int64_t r = row % tileRows;
  int64_t chunk = (inRow / kSwizzleChunkBytes) ^ (r % 8);
  return tile * tileRows * tileCols * elementBytes + r * kSwizzleRowBytes +
         chunk * kSwizzleChunkBytes + inRow % kSwizzleChunkBytes;
}

} // namespace mgpu

#endif // MGPU_TARGET_SWIZZLEFORMULA_H
