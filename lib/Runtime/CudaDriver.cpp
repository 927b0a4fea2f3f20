//===- CudaDriver.cpp - Loading the CUDA driver at run time ---------------===//
//
// Opens the CUDA driver with dlopen on first use, fills the table of driver
// functions with dlsym, initializes the driver and counts the devices, all
// once per process under a C++ function-local static (thread-safe). The
// outcome, good or bad, is remembered with a one-line reason, which the
// mgpu* entry points print before stopping and mgpuRuntimeHasDevice() turns
// into a plain yes or no. Nothing here links against libcuda, so the library
// loads on machines without an NVIDIA driver and fails only when used.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "mgpu/Runtime/CudaRuntime.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

using namespace mgpu::runtime;

#define MGPU_STRINGIFY(x) #x
// Stringifies after macro expansion, so cuMemAlloc gives "cuMemAlloc_v2":
// the symbol that cuda.h would have bound a linked program to.
#define MGPU_SYMBOL_NAME(x) MGPU_STRINGIFY(x)

namespace {
/// What loading the driver came to, computed once.
struct DriverState {
  DriverApi api;
  /// The driver library, as passed to dlopen.
  std::string path;
  /// Empty when the driver is usable; otherwise the reason, one line.
  std::string failure;
};
} // namespace

/// Formats "CUDA_ERROR_X (description)" with the error queries of `api`,
/// which may be only partly filled while the driver is being loaded.
static const char *describeWith(const DriverApi &api, CUresult result,
                                char *buffer, std::size_t size) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &text);
  if (name)
    std::snprintf(buffer, size, "%s (%s)", name,
                  text ? text : "no description");
  else
    std::snprintf(buffer, size, "CUresult %d", static_cast<int>(result));
  return buffer;
}

static DriverState loadDriver() {
  DriverState state;
  // MGPU_CUDA_DRIVER lets a test (or a user with an unusual install) pick
  // another driver library, including one that does not exist.
  const char *override = std::getenv("MGPU_CUDA_DRIVER");
  state.path = override && *override ? override : "libcuda.so.1";

  // RTLD_LOCAL keeps the driver's symbols out of the global namespace, where
  // they could be mistaken for the program's own.
  void *handle = dlopen(state.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = dlerror();
    state.failure = "cannot load the CUDA driver (" + state.path +
                    "): " + (error ? error : "unknown error") +
                    "; no NVIDIA driver on this machine?";
    return state;
  }

  auto resolve = [&](auto &slot, const char *symbol) {
    dlerror();
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        dlsym(handle, symbol));
    return slot != nullptr;
  };
#define MGPU_RESOLVE_REQUIRED(name)                                            \
  if (!resolve(state.api.name, MGPU_SYMBOL_NAME(name))) {                      \
    state.failure = "the CUDA driver " + state.path + " has no " +             \
                    MGPU_SYMBOL_NAME(name) +                                   \
                    "; is it a real NVIDIA driver of CUDA 11 or later?";       \
    return state;                                                              \
  }
  MGPU_REQUIRED_DRIVER_FUNCTIONS(MGPU_RESOLVE_REQUIRED)
#undef MGPU_RESOLVE_REQUIRED
#define MGPU_RESOLVE_OPTIONAL(name)                                            \
  resolve(state.api.name, MGPU_SYMBOL_NAME(name));
  MGPU_OPTIONAL_DRIVER_FUNCTIONS(MGPU_RESOLVE_OPTIONAL)
#undef MGPU_RESOLVE_OPTIONAL

  char description[256];
  CUresult result = state.api.cuInit(0);
  if (result != CUDA_SUCCESS) {
    state.failure =
        std::string("cuInit failed: ") +
        describeWith(state.api, result, description, sizeof(description)) +
        (result == CUDA_ERROR_NO_DEVICE ? "; no CUDA device on this machine?"
                                        : "");
    return state;
  }
  int count = 0;
  result = state.api.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    state.failure =
        std::string("cuDeviceGetCount failed: ") +
        describeWith(state.api, result, description, sizeof(description));
    return state;
  }
  if (count <= 0)
    state.failure = "the CUDA driver loaded, but there is no CUDA device";
  return state;
}

static const DriverState &getDriverState() {
  // A function-local static: initialized once, by the first caller, while
  // any concurrent callers wait (C++11 thread-safe statics).
  static const DriverState state = loadDriver();
  return state;
}

const DriverApi &mgpu::runtime::getDriver(const char *entryPoint) {
  const DriverState &state = getDriverState();
  if (!state.failure.empty())
    fatalError("%s\nmgpu runtime: %s needs a CUDA driver and device; "
               "stopping",
               state.failure.c_str(), entryPoint);
  return state.api;
}

bool mgpu::runtime::hasUsableDevice() {
  return getDriverState().failure.empty();
}

const char *mgpu::runtime::getNoDeviceReason() {
  return getDriverState().failure.c_str();
}

/// Prints "mgpu runtime: " and the message to stderr, on a line of its own.
static void printMessage(const char *format, va_list args) {
  std::fputs("mgpu runtime: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
}

void mgpu::runtime::fatalError(const char *format, ...) {
  va_list args;
  va_start(args, format);
  printMessage(format, args);
  va_end(args);
  // Flush what the program printed so far, then leave with _exit rather than
  // exit: we may be deep inside JIT-compiled code or one of its global
  // constructors, where running atexit handlers and static destructors (some
  // of which call back into this runtime) is not safe.
  std::fflush(nullptr);
  _exit(EXIT_FAILURE);
}

const char *mgpu::runtime::describeResult(CUresult result, char *buffer,
                                          std::size_t size) {
  return describeWith(getDriverState().api, result, buffer, size);
}

void mgpu::runtime::checkResult(CUresult result, const char *call,
                                const char *entryPoint) {
  if (result == CUDA_SUCCESS)
    return;
  char description[256];
  fatalError("%s failed in %s: %s", call, entryPoint,
             describeResult(result, description, sizeof(description)));
}

bool mgpu::runtime::isTracing() {
  static const bool enabled = [] {
    const char *value = std::getenv("MGPU_RUNTIME_DEBUG");
    return value && *value && std::string(value) != "0";
  }();
  return enabled;
}

void mgpu::runtime::trace(const char *format, ...) {
  if (!isTracing())
    return;
  va_list args;
  va_start(args, format);
  printMessage(format, args);
  va_end(args);
}

extern "C" MGPU_RUNTIME_EXPORT bool mgpuRuntimeHasDevice(void) {
  return hasUsableDevice();
}

extern "C" MGPU_RUNTIME_EXPORT const char *mgpuRuntimeNoDeviceReason(void) {
  return getNoDeviceReason();
}
