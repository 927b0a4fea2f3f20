/*===- CudaRuntime.h - Queries of the mgpu CUDA runtime ----------*- C -*-===//
//
// libmgpu_cuda_runtime.so implements the `mgpu*` C ABI that MLIR's
// gpu-to-llvm lowering calls (module load, launch, streams, events, memory,
// tensor maps) on the CUDA driver API, which it loads with dlopen at first
// use, so the library builds, links and loads on machines without a driver.
// Those entry points take CUDA driver handles and are declared by the code
// that MLIR generates, not here. This header declares the few functions the
// library adds for tools: whether a usable device is present (mgpu-run
// --backend=auto picks the CPU when it is not) and, if not, why. It is
// plain C so that C programs and dlsym users can include it.
//
//===----------------------------------------------------------------------===*/

#ifndef MGPU_RUNTIME_CUDARUNTIME_H
#define MGPU_RUNTIME_CUDARUNTIME_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

#if defined(_WIN32)
#define MGPU_RUNTIME_EXPORT __declspec(dllexport)
#else
#define MGPU_RUNTIME_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Returns true when the CUDA driver library loads, cuInit succeeds and at
/// least one device is present. Never prints and never terminates the
/// process, unlike the mgpu* entry points, which stop the program with a
/// message when the driver is unusable. Thread-safe; the answer is computed
/// once per process.
MGPU_RUNTIME_EXPORT bool mgpuRuntimeHasDevice(void);

/// Returns why mgpuRuntimeHasDevice() is false, as one line of text (for
/// example "cannot load the CUDA driver (libcuda.so.1): ..."), or an empty
/// string when a device is present. The string lives as long as the process.
MGPU_RUNTIME_EXPORT const char *mgpuRuntimeNoDeviceReason(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif /* MGPU_RUNTIME_CUDARUNTIME_H */
