//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The mgpu CUDA runtime never links libcuda: it opens libcuda.so.1 (or the
// file named by MGPU_CUDA_DRIVER) with dlopen the first time an entry point
// needs the driver, and looks up every driver function it calls with dlsym
// into a table. cuda.h is included for its types and for its macros, which
// map a name such as cuMemAlloc to the versioned symbol (cuMemAlloc_v2) that
// a program linked against libcuda would bind to; the table uses the same
// mapping, so `getDriver(..).cuMemAlloc(...)` calls that symbol. Failures
// are reported with the name of the call and the driver's own error name and
// text, and stop the program: the mgpu* ABI has no way to return an error,
// and carrying on would print wrong results instead.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_RUNTIME_CUDADRIVER_H
#define MGPU_LIB_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <cstdint>

namespace mgpu::runtime {

/// Driver functions that every driver this runtime supports (CUDA 11 and
/// later) exports. A driver that lacks one of them is reported as unusable.
#define MGPU_REQUIRED_DRIVER_FUNCTIONS(X)                                      \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventSynchronize)                                                        \
  X(cuEventRecord)                                                             \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpyAsync)                                                             \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemsetD32Async)                                                          \
  X(cuMemsetD16Async)                                                          \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)

/// Driver functions of CUDA 12 (thread block clusters, the tensor memory
/// accelerator). They stay null on an older driver, and only the entry
/// points that need them fail, saying so.
#define MGPU_OPTIONAL_DRIVER_FUNCTIONS(X)                                      \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuEventElapsedTime)

/// The table of driver entry points. Each member is named and typed after
/// the cuda.h declaration *after* macro expansion (cuMemAlloc names the
/// member cuMemAlloc_v2 of type decltype(&cuMemAlloc_v2)), so calls through
/// it read like direct driver calls and are type-checked against cuda.h.
struct DriverApi {
#define MGPU_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
  MGPU_REQUIRED_DRIVER_FUNCTIONS(MGPU_DECLARE_MEMBER)
  MGPU_OPTIONAL_DRIVER_FUNCTIONS(MGPU_DECLARE_MEMBER)
#undef MGPU_DECLARE_MEMBER
};

/// Returns the driver table, loading the driver, calling cuInit and
/// checking that a device exists on first use (once, thread-safely). If any
/// of that fails, prints why, naming `entryPoint` (the mgpu* function that
/// needed the driver), and stops the program.
const DriverApi &getDriver(const char *entryPoint);

/// Whether the driver loaded, initialized and has a device; never prints.
bool hasUsableDevice();

/// Why hasUsableDevice() is false; empty when it is true.
const char *getNoDeviceReason();

/// Prints "mgpu runtime: <message>" to stderr, flushes all output and ends
/// the process with exit status 1. printf-style.
[[noreturn]] void fatalError(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// If `result` is not CUDA_SUCCESS, reports that `call` failed inside
/// `entryPoint`, with the driver's error name and description, and stops.
void checkResult(CUresult result, const char *call, const char *entryPoint);

/// Formats "CUDA_ERROR_X (description)" for `result` into `buffer`.
const char *describeResult(CUresult result, char *buffer, std::size_t size);

/// Whether MGPU_RUNTIME_DEBUG is set: entry points then trace their calls.
bool isTracing();

/// Prints "mgpu runtime: <message>" to stderr when tracing. printf-style.
void trace(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace mgpu::runtime

/// Calls driver function `fn` with the given arguments and checks its result,
/// naming the call by its unversioned name and the enclosing entry point.
/// `#fn` is taken before macro expansion (so "cuMemAlloc"), while the member
/// access expands it (so the cuMemAlloc_v2 member).
#define MGPU_CU_CHECK(fn, ...)                                                 \
  ::mgpu::runtime::checkResult(                                                \
      ::mgpu::runtime::getDriver(__func__).fn(__VA_ARGS__), #fn, __func__)

#endif // MGPU_LIB_RUNTIME_CUDADRIVER_H
