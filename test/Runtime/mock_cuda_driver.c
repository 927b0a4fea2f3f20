/*===- mock_cuda_driver.c - A fake CUDA driver for runtime tests ----------===//
//
// A stand-in for libcuda.so.1 that the lit tests load into the mgpu CUDA
// runtime through MGPU_CUDA_DRIVER, so the runtime's marshaling (argument
// order, memref descriptors, launch shapes, cluster attributes, tensor-map
// dimensions, context handling) and its error reports are tested on
// machines without a GPU. "Device" memory is host memory, so copies and
// fills really happen; every call is logged to stderr as "mock: ...". One
// kernel is emulated: a kernel named "vadd" whose three memref arguments
// (five launch parameters each) get c[i] = a[i] + b[i] for each of the
// grid x block threads in x, which lets a full mlir-runner program print
// real results. The environment
// steers it: MOCK_CUDA=nodevice makes cuInit fail, MOCK_CUDA=nodevices
// reports zero devices, MOCK_CUDA_FAIL=<name> makes that call fail,
// MOCK_CUDA_COPY_LIMIT=<bytes> skips copies and fills larger than that (the
// device bundle's benchmarks move gigabytes that no kernel here reads). It
// includes cuda.h so that its definitions get the versioned symbol names
// (cuMemAlloc_v2, ...) and the exact types a real driver exports.
//
//===----------------------------------------------------------------------===*/

#include <cuda.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_EXPORT __attribute__((visibility("default")))

/* Contexts pushed by the calling thread; work needs one current, which
   checks that the runtime makes the primary context current. */
static __thread int contextDepth = 0;
static int initialized = 0;
/* One fake context for the one fake device. */
static int primaryContext;

struct MockModule {
  int unused;
};
struct MockFunction {
  char name[64];
};

static void mockLog(const char *format, ...)
    __attribute__((format(printf, 1, 2)));
static void mockLog(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("mock: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

/* Whether MOCK_CUDA_FAIL names `call`, which then fails as a driver's
   would. */
/* Whether a copy or fill of `bytes` happens (MOCK_CUDA_COPY_LIMIT). */
static int shouldMove(size_t bytes) {
  const char *limit = getenv("MOCK_CUDA_COPY_LIMIT");
  return !limit || bytes <= strtoull(limit, NULL, 10);
}

static int shouldFail(const char *call) {
  const char *fail = getenv("MOCK_CUDA_FAIL");
  return fail && strcmp(fail, call) == 0;
}

static CUresult needContext(const char *call) {
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (contextDepth <= 0) {
    mockLog("%s without a current context", call);
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr) {
  switch (error) {
  case CUDA_SUCCESS:
    *pStr = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *pStr = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *pStr = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_INITIALIZED:
    *pStr = "CUDA_ERROR_NOT_INITIALIZED";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_DEVICE:
    *pStr = "CUDA_ERROR_NO_DEVICE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_CONTEXT:
    *pStr = "CUDA_ERROR_INVALID_CONTEXT";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *pStr = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *pStr = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_FAILED:
    *pStr = "CUDA_ERROR_LAUNCH_FAILED";
    return CUDA_SUCCESS;
  default:
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

MOCK_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult error,
                                              const char **pStr) {
  switch (error) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *pStr = "out of memory";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_DEVICE:
    *pStr = "no CUDA-capable device is detected";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    *pStr = "no kernel image is available for execution on the device";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_FAILED:
    *pStr = "unspecified launch failure";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *pStr = "named symbol not found";
    return CUDA_SUCCESS;
  default:
    *pStr = "mock error";
    return CUDA_SUCCESS;
  }
}

MOCK_EXPORT CUresult CUDAAPI cuInit(unsigned int Flags) {
  const char *mode = getenv("MOCK_CUDA");
  mockLog("cuInit(%u)", Flags);
  if (mode && strcmp(mode, "nodevice") == 0)
    return CUDA_ERROR_NO_DEVICE;
  initialized = 1;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuDriverGetVersion(int *driverVersion) {
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuDeviceGetCount(int *count) {
  const char *mode = getenv("MOCK_CUDA");
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = mode && strcmp(mode, "nodevices") == 0 ? 0 : 1;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuDeviceGetAttribute(int *pi,
                                                  CUdevice_attribute attrib,
                                                  CUdevice dev) {
  (void)dev;
  /* An H100's opt-in limit of dynamic shared memory per block. */
  *pi = attrib == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN ? 232448
                                                                        : 0;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx,
                                                      CUdevice dev) {
  mockLog("cuDevicePrimaryCtxRetain(device %d)", (int)dev);
  *pctx = (CUcontext)&primaryContext;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) {
  if (ctx != (CUcontext)&primaryContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  ++contextDepth;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx) {
  if (contextDepth <= 0) {
    mockLog("cuCtxPopCurrent without a pushed context");
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  --contextDepth;
  if (pctx)
    *pctx = (CUcontext)&primaryContext;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module,
                                                const void *image,
                                                unsigned int numOptions,
                                                CUjit_option *options,
                                                void **optionValues) {
  CUresult result = needContext("cuModuleLoadDataEx");
  if (result != CUDA_SUCCESS)
    return result;
  const char *text = (const char *)image;
  char *errorLog = NULL;
  size_t errorLogSize = 0;
  int optLevel = -1;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      errorLog = (char *)optionValues[i];
    else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      errorLogSize = (size_t)(uintptr_t)optionValues[i];
    else if (options[i] == CU_JIT_OPTIMIZATION_LEVEL)
      optLevel = (int)(intptr_t)optionValues[i];
  }
  int isPtx = strstr(text, ".entry") != NULL || strncmp(text, "//", 2) == 0;
  mockLog("cuModuleLoadDataEx(%s, %u options, error log of %zu bytes, "
          "opt level %d)",
          isPtx ? "PTX" : "binary", numOptions, errorLogSize, optLevel);
  if (strncmp(text, "BADBIN", 6) == 0) {
    if (errorLog && errorLogSize)
      snprintf(errorLog, errorLogSize, "mock: the image is for sm_00");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  *module = (CUmodule)calloc(1, sizeof(struct MockModule));
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule hmod) {
  mockLog("cuModuleUnload");
  free(hmod);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc,
                                                 CUmodule hmod,
                                                 const char *name) {
  (void)hmod;
  CUresult result = needContext("cuModuleGetFunction");
  if (result != CUDA_SUCCESS)
    return result;
  if (strncmp(name, "missing", 7) == 0)
    return CUDA_ERROR_NOT_FOUND;
  struct MockFunction *function = calloc(1, sizeof(struct MockFunction));
  snprintf(function->name, sizeof(function->name), "%s", name);
  mockLog("cuModuleGetFunction(%s)", name);
  *hfunc = (CUfunction)function;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc,
                                                CUfunction_attribute attrib,
                                                int value) {
  mockLog("cuFuncSetAttribute(%s, attribute %d, %d)",
          ((struct MockFunction *)hfunc)->name, (int)attrib, value);
  return CUDA_SUCCESS;
}

/* Runs the emulated kernel, if `function` is one. */
static void emulate(CUfunction function, unsigned threads, void **params) {
  if (!params)
    return;
  if (strcmp(((struct MockFunction *)function)->name, "vadd") != 0)
    return;
  /* Each memref argument is (allocated, aligned, offset, size, stride). */
  float *a = *(float **)params[1];
  float *b = *(float **)params[6];
  float *c = *(float **)params[11];
  for (unsigned i = 0; i < threads; ++i)
    c[i] = a[i] + b[i];
}

MOCK_EXPORT CUresult CUDAAPI cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra) {
  CUresult result = needContext("cuLaunchKernel");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuLaunchKernel(%s, grid %ux%ux%u, block %ux%ux%u, shared %u, "
          "stream %s, params %s, extra %s)",
          ((struct MockFunction *)f)->name, gridDimX, gridDimY, gridDimZ,
          blockDimX, blockDimY, blockDimZ, sharedMemBytes,
          hStream ? "set" : "null", kernelParams ? "set" : "null",
          extra ? "set" : "null");
  if (shouldFail("cuLaunchKernel"))
    return CUDA_ERROR_LAUNCH_FAILED;
  emulate(f, gridDimX * blockDimX, kernelParams);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config,
                                              CUfunction f, void **kernelParams,
                                              void **extra) {
  CUresult result = needContext("cuLaunchKernelEx");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuLaunchKernelEx(%s, grid %ux%ux%u, block %ux%ux%u, shared %u, "
          "stream %s, %u attributes, params %s, extra %s)",
          ((struct MockFunction *)f)->name, config->gridDimX, config->gridDimY,
          config->gridDimZ, config->blockDimX, config->blockDimY,
          config->blockDimZ, config->sharedMemBytes,
          config->hStream ? "set" : "null", config->numAttrs,
          kernelParams ? "set" : "null", extra ? "set" : "null");
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute *attribute = &config->attrs[i];
    if (attribute->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      mockLog("  cluster dimension %ux%ux%u", attribute->value.clusterDim.x,
              attribute->value.clusterDim.y, attribute->value.clusterDim.z);
    else if (attribute->id ==
             CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
      mockLog("  cluster scheduling policy %d",
              (int)attribute->value.clusterSchedulingPolicyPreference);
    else
      mockLog("  attribute %d", (int)attribute->id);
  }
  return CUDA_SUCCESS;
}

static int streams, events;

MOCK_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream *phStream,
                                            unsigned int Flags) {
  CUresult result = needContext("cuStreamCreate");
  if (result != CUDA_SUCCESS)
    return result;
  *phStream = (CUstream)malloc(1);
  mockLog("cuStreamCreate(flags %u) -> stream %d", Flags, ++streams);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream hStream) {
  mockLog("cuStreamDestroy");
  free(hStream);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuStreamSynchronize(CUstream hStream) {
  mockLog("cuStreamSynchronize(%s)", hStream ? "stream" : "null");
  return shouldFail("cuStreamSynchronize") ? CUDA_ERROR_LAUNCH_FAILED
                                           : CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                                               unsigned int Flags) {
  mockLog("cuStreamWaitEvent(%s, %s, flags %u)", hStream ? "stream" : "null",
          hEvent ? "event" : "null", Flags);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuEventCreate(CUevent *phEvent,
                                           unsigned int Flags) {
  CUresult result = needContext("cuEventCreate");
  if (result != CUDA_SUCCESS)
    return result;
  *phEvent = (CUevent)malloc(1);
  mockLog("cuEventCreate(flags %u) -> event %d", Flags, ++events);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent hEvent) {
  mockLog("cuEventDestroy");
  free(hEvent);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  mockLog("cuEventSynchronize(%s)", hEvent ? "event" : "null");
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream) {
  mockLog("cuEventRecord(%s, %s)", hEvent ? "event" : "null",
          hStream ? "stream" : "null");
  return CUDA_SUCCESS;
}

/* Every timed launch takes half a millisecond on the mock. */
MOCK_EXPORT CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds,
                                                CUevent hStart, CUevent hEnd) {
  mockLog("cuEventElapsedTime");
  *pMilliseconds = 0.5f;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  CUresult result = needContext("cuMemAlloc");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemAlloc(%zu)", bytesize);
  if (shouldFail("cuMemAlloc"))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *dptr = (CUdeviceptr)calloc(1, bytesize);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr,
                                               size_t bytesize,
                                               unsigned int flags) {
  CUresult result = needContext("cuMemAllocManaged");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemAllocManaged(%zu, flags %u)", bytesize, flags);
  *dptr = (CUdeviceptr)calloc(1, bytesize);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  CUresult result = needContext("cuMemFree");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemFree");
  free((void *)dptr);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                           size_t ByteCount, CUstream hStream) {
  CUresult result = needContext("cuMemcpyAsync");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemcpyAsync(%zu bytes, stream %s)", ByteCount,
          hStream ? "set" : "null");
  if (shouldMove(ByteCount))
    memcpy((void *)dst, (const void *)src, ByteCount);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice,
                                          const void *srcHost,
                                          size_t ByteCount) {
  CUresult result = needContext("cuMemcpyHtoD");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemcpyHtoD(%zu bytes)", ByteCount);
  if (shouldMove(ByteCount))
    memcpy((void *)dstDevice, srcHost, ByteCount);
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice,
                                              unsigned int ui, size_t N,
                                              CUstream hStream) {
  CUresult result = needContext("cuMemsetD32Async");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemsetD32Async(0x%x, %zu words, stream %s)", ui, N,
          hStream ? "set" : "null");
  for (size_t i = 0, n = shouldMove(4 * N) ? N : 0; i < n; ++i)
    ((uint32_t *)dstDevice)[i] = ui;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice,
                                              unsigned short us, size_t N,
                                              CUstream hStream) {
  CUresult result = needContext("cuMemsetD16Async");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemsetD16Async(0x%x, %zu halfwords, stream %s)", us, N,
          hStream ? "set" : "null");
  for (size_t i = 0, n = shouldMove(2 * N) ? N : 0; i < n; ++i)
    ((uint16_t *)dstDevice)[i] = us;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize,
                                               unsigned int Flags) {
  CUresult result = needContext("cuMemHostRegister");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemHostRegister(%zu bytes, flags %u)", bytesize, Flags);
  (void)p;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *p) {
  CUresult result = needContext("cuMemHostUnregister");
  if (result != CUDA_SUCCESS)
    return result;
  mockLog("cuMemHostUnregister");
  (void)p;
  return CUDA_SUCCESS;
}

MOCK_EXPORT CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  char dims[128] = "", strides[128] = "", box[128] = "", elements[128] = "";
  for (cuuint32_t i = 0; i < tensorRank; ++i) {
    const char *separator = i ? "," : "";
    snprintf(dims + strlen(dims), sizeof(dims) - strlen(dims), "%s%llu",
             separator, (unsigned long long)globalDim[i]);
    if (i + 1 < tensorRank)
      snprintf(strides + strlen(strides), sizeof(strides) - strlen(strides),
               "%s%llu", separator, (unsigned long long)globalStrides[i]);
    snprintf(box + strlen(box), sizeof(box) - strlen(box), "%s%u", separator,
             boxDim[i]);
    snprintf(elements + strlen(elements), sizeof(elements) - strlen(elements),
             "%s%u", separator, elementStrides[i]);
  }
  mockLog("cuTensorMapEncodeTiled(type %d, rank %u, dims [%s], strides [%s], "
          "box [%s], element strides [%s], interleave %d, swizzle %d, "
          "l2 %d, oob %d)",
          (int)tensorDataType, tensorRank, dims, strides, box, elements,
          (int)interleave, (int)swizzle, (int)l2Promotion, (int)oobFill);
  // Like a real map, the bytes depend on the array's address (the runtime
  // reuses device copies of equal maps).
  memset(tensorMap, 0xab, sizeof(*tensorMap));
  memcpy(tensorMap, &globalAddress, sizeof(globalAddress));
  return CUDA_SUCCESS;
}
