//===- Tcgen05ToNVVM.h - Tensor memory and tcgen05 on the GPU ---*- C++ -*-===//
//
// The Blackwell part of --mgpu-primitives-to-nvvm (Tcgen05ToNVVM.cpp): TMEM
// allocation, tcgen05 MMAs with their shared-memory and instruction
// descriptors, commits, and the lane moves between TMEM and registers.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_TCGEN05TONVVM_H
#define MGPU_LIB_GPU_TCGEN05TONVVM_H

#include "mgpu/Target/TargetInfo.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// Adds the patterns for chip `target`: without tcgen05 (before sm_100a)
/// the ops are errors that say so.
void populateTcgen05ToNVVMPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const TargetInfo &target);

} // namespace mlir::mgpu

#endif // MGPU_LIB_GPU_TCGEN05TONVVM_H
