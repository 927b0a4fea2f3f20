//===- KernelTiming.h - CUDA events around launches -------------*- C++ -*-===//
//
// While a host program times its kernels (mgpuTimingStart), every launch is
// bracketed by two CUDA events on its stream; mgpuTimingReport prints the
// median time of the launches (after a warm-up), with TFLOP/s and GB/s.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_RUNTIME_KERNELTIMING_H
#define MGPU_LIB_RUNTIME_KERNELTIMING_H

#include <cuda.h>

namespace mgpu::runtime {

/// Called around each launch (in the launch's context); no-ops unless a
/// host program is timing its kernels.
void beforeLaunch(CUstream stream);
void afterLaunch(CUstream stream);

} // namespace mgpu::runtime

#endif // MGPU_LIB_RUNTIME_KERNELTIMING_H
