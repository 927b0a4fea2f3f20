//===- HostLayouts.cpp - Interpret mode's physical shared layouts ---------===//
//
// Interpret mode lays out a shared buffer with transforms as the GPU does
// (part of libmgpu_host_runtime.so): its copies in write the tiled,
// swizzled bytes that TMA writes, and what reads it through the layout
// (copies out, the tensor cores' operands) goes through the same formula
// (mgpu/Target/SwizzleFormula.h). An op that reads such a buffer as if it
// were row-major then reads scrambled numbers on the CPU too, as it would
// on the GPU, instead of passing where the hardware fails.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Target/SwizzleFormula.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#define MGPU_HOST_EXPORT __attribute__((visibility("default")))

extern "C" {

/// Moves the elements of a 2-d view of a tiled, swizzled shared buffer
/// between the buffer and the row-major `rowMajor` (`sizes[0] x sizes[1]`):
/// into the buffer with `toBuffer`, out of it otherwise. The view starts at
/// `view` (its element (0, 0), element `offset` of the buffer) and has
/// element `strides`; the buffer's rows are the larger stride (a view may
/// be transposed), its tiles `tileRows` x `tileCols`.
MGPU_HOST_EXPORT void mgpuHostMoveThroughLayout(
    char *view, int64_t offset, int64_t size0, int64_t size1, int64_t stride0,
    int64_t stride1, char *rowMajor, int64_t elementBytes, int64_t tileRows,
    int64_t tileCols, int64_t toBuffer) {
  char *buffer = view - offset * elementBytes;
  int64_t width = std::max(stride0, stride1);
  for (int64_t i = 0; i < size0; ++i)
    for (int64_t j = 0; j < size1; ++j) {
      int64_t element = offset + i * stride0 + j * stride1;
      char *physical = buffer + mgpu::swizzledByteOffset(
                                    tileRows, tileCols, elementBytes, width,
                                    element / width, element % width);
      char *logical = rowMajor + (i * size1 + j) * elementBytes;
      if (toBuffer)
        std::memcpy(physical, logical, elementBytes);
      else
        std::memcpy(logical, physical, elementBytes);
    }
}

} // extern "C"
