//===- CpAsyncToNVVM.h - Pre-Hopper cp.async copies on the GPU --*- C++ -*-===//
//
// What the TMA copy patterns need for copy_gmem_to_smem without a barrier
// on chips without TMA (CpAsyncToNVVM.cpp). Internal to lib/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_CPASYNCTONVVM_H
#define MGPU_LIB_GPU_CPASYNCTONVVM_H

#include "mgpu/KernelForm/CopyWindows.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// The warpgroup's cp.async copy of `window` into `shared` (a converted,
/// row-major shared memref), every lane its share of 16-, 8- or 4-byte
/// pieces, closed as one copy group (cp.async.commit_group).
void copyWithCpAsync(OpBuilder &b, Location loc, const GlobalWindow &window,
                     Value shared);

} // namespace mlir::mgpu

#endif // MGPU_LIB_GPU_CPASYNCTONVVM_H
