//===- CudaRuntime.cpp - The mgpu* C ABI on the CUDA driver API -----------===//
//
// Implements the C functions that MLIR's gpu-to-llvm lowering (and the
// nvgpu-to-nvvm lowering of TMA descriptors) emits calls to: module load and
// unload, kernel lookup and launch (with thread block clusters through
// cuLaunchKernelEx), streams, events, device and host-shared memory, copies,
// fills, host registration, the default device, and tensor-map encoding. The
// names and argument lists are those MLIR 22 declares (mgpuModuleLoad takes
// the blob size, mgpuLaunchKernel the parameter count, mgpuMemAlloc the
// host-shared flag), so stock mlir-runner can load this library with
// --shared-libs. Every driver call goes through the dlopen-ed table of
// CudaDriver.h; a failed call stops the program with the call's name and
// the driver's error, because these functions cannot return errors.
// Work runs in the primary context of the calling thread's default device,
// made current for the duration of each call and then restored, so a host
// program that manages its own contexts is left undisturbed.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "KernelTiming.h"

#include "mgpu/Runtime/CudaRuntime.h"

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

using namespace mgpu::runtime;

namespace mgpu::runtime {
/// The head of a ranked memref descriptor as MLIR lays it out in memory
/// (StridedMemRefType in mlir/ExecutionEngine/CRunnerUtils.h): the allocated
/// and aligned pointers and the offset, followed by `rank` sizes and then
/// `rank` strides. Declared here so the library needs no MLIR headers.
struct MemRefHead {
  char *allocated;
  char *aligned;
  int64_t offset;
};
} // namespace mgpu::runtime

namespace {
/// A device's primary context and the facts launches need, looked up once.
struct DeviceEntry {
  CUcontext context = nullptr;
  /// The most dynamic shared memory a block may opt in to, in bytes.
  int maxSharedOptin = 0;
};

/// A launch's grid, block and dynamic shared memory in the driver's types.
struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  /// Whether some dimension is zero: such a launch has no threads to run.
  bool empty;
};
} // namespace

/// The device that work of this thread goes to; mgpuSetDefaultDevice sets
/// it. Per thread, as in upstream MLIR, so threads can drive different GPUs.
static thread_local int32_t defaultDevice = 0;

/// The most devices this runtime keeps primary contexts for.
static constexpr int kMaxDevices = 64;

static std::mutex deviceMutex;
static DeviceEntry devices[kMaxDevices];
/// The number of devices, or -1 before the first query; under deviceMutex.
static int deviceCount = -1;

/// Returns the entry of the calling thread's default device, retaining the
/// device's primary context on first use. The primary context is the one
/// the CUDA runtime API shares, so memory and modules interoperate with
/// libraries that use it.
static const DeviceEntry &getDefaultDeviceEntry(const char *entryPoint) {
  const DriverApi &api = getDriver(entryPoint);
  int32_t ordinal = defaultDevice;
  std::lock_guard<std::mutex> lock(deviceMutex);
  if (deviceCount < 0)
    checkResult(api.cuDeviceGetCount(&deviceCount), "cuDeviceGetCount",
                entryPoint);
  if (ordinal < 0 || ordinal >= deviceCount || ordinal >= kMaxDevices)
    fatalError("%s: the default device is %d, but this machine has %d CUDA "
               "device(s) (see mgpuSetDefaultDevice)",
               entryPoint, ordinal, deviceCount);
  DeviceEntry &entry = devices[ordinal];
  if (entry.context)
    return entry;
  CUdevice device;
  checkResult(api.cuDeviceGet(&device, ordinal), "cuDeviceGet", entryPoint);
  checkResult(api.cuDeviceGetAttribute(
                  &entry.maxSharedOptin,
                  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                  device),
              "cuDeviceGetAttribute", entryPoint);
  CUcontext context = nullptr;
  checkResult(api.cuDevicePrimaryCtxRetain(&context, device),
              "cuDevicePrimaryCtxRetain", entryPoint);
  entry.context = context;
  trace("%s: retained the primary context of device %d", entryPoint, ordinal);
  return entry;
}

namespace {
/// Makes the primary context of the default device current for its lifetime
/// and restores the caller's context afterwards.
class ScopedContext {
public:
  explicit ScopedContext(const char *entryPoint)
      : entryPoint(entryPoint), entry(getDefaultDeviceEntry(entryPoint)) {
    checkResult(getDriver(entryPoint).cuCtxPushCurrent(entry.context),
                "cuCtxPushCurrent", entryPoint);
  }
  ~ScopedContext() {
    checkResult(getDriver(entryPoint).cuCtxPopCurrent(nullptr),
                "cuCtxPopCurrent", entryPoint);
  }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  const DeviceEntry &getDevice() const { return entry; }

private:
  const char *entryPoint;
  const DeviceEntry &entry;
};
} // namespace

static const int64_t *getSizes(const MemRefHead *descriptor) {
  return reinterpret_cast<const int64_t *>(descriptor + 1);
}

static const int64_t *getStrides(const MemRefHead *descriptor, int64_t rank) {
  return getSizes(descriptor) + rank;
}

/// Converts a launch dimension from MLIR's index type to the driver's
/// unsigned int, stopping with a message if it does not fit.
static unsigned toDimension(intptr_t value, const char *what,
                            const char *entryPoint) {
  if (value < 0 || static_cast<uintmax_t>(value) > UINT32_MAX)
    fatalError("%s: %s is %" PRIdPTR ", outside [0, %" PRIu32 "]", entryPoint,
               what, value, UINT32_MAX);
  return static_cast<unsigned>(value);
}

static LaunchShape checkLaunchShape(intptr_t gridX, intptr_t gridY,
                                    intptr_t gridZ, intptr_t blockX,
                                    intptr_t blockY, intptr_t blockZ,
                                    int32_t smem, const char *entryPoint) {
  LaunchShape shape;
  shape.grid[0] = toDimension(gridX, "the grid size in x", entryPoint);
  shape.grid[1] = toDimension(gridY, "the grid size in y", entryPoint);
  shape.grid[2] = toDimension(gridZ, "the grid size in z", entryPoint);
  shape.block[0] = toDimension(blockX, "the block size in x", entryPoint);
  shape.block[1] = toDimension(blockY, "the block size in y", entryPoint);
  shape.block[2] = toDimension(blockZ, "the block size in z", entryPoint);
  if (smem < 0)
    fatalError("%s: negative dynamic shared memory size %" PRId32, entryPoint,
               smem);
  shape.sharedBytes = static_cast<unsigned>(smem);
  shape.empty = false;
  for (int i = 0; i < 3; ++i)
    shape.empty |= shape.grid[i] == 0 || shape.block[i] == 0;
  return shape;
}

/// Lets `function` use `bytes` of dynamic shared memory. Kernels get 48 KiB
/// without asking; more needs the per-function opt-in, up to the device's
/// limit, which is checked first for a clearer message than the driver's.
static void prepareSharedMemory(CUfunction function, unsigned bytes,
                                const DeviceEntry &device,
                                const char *entryPoint) {
  constexpr unsigned kDefaultSharedLimit = 48 * 1024;
  if (bytes <= kDefaultSharedLimit)
    return;
  if (bytes > static_cast<unsigned>(device.maxSharedOptin))
    fatalError("%s: the kernel asks for %u bytes of dynamic shared memory, "
               "but device %d allows at most %d per block",
               entryPoint, bytes, defaultDevice, device.maxSharedOptin);
  checkResult(getDriver(entryPoint)
                  .cuFuncSetAttribute(
                      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                      static_cast<int>(bytes)),
              "cuFuncSetAttribute", entryPoint);
}

/// Loads a module image with the driver's error log captured, so that a
/// failed load (a cubin for another GPU, PTX the driver cannot compile) says
/// why. `optLevel` >= 0 also sets the PTX JIT optimization level.
static CUmodule loadModule(const void *image, int optLevel,
                           const char *entryPoint) {
  ScopedContext context(entryPoint);
  char errorLog[8192] = {0};
  CUjit_option options[3] = {CU_JIT_ERROR_LOG_BUFFER,
                             CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                             CU_JIT_OPTIMIZATION_LEVEL};
  void *values[3] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                     reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  unsigned numOptions = optLevel >= 0 ? 3 : 2;
  CUmodule module = nullptr;
  CUresult result =
      getDriver(entryPoint)
          .cuModuleLoadDataEx(&module, image, numOptions, options, values);
  if (result != CUDA_SUCCESS) {
    char description[256];
    describeResult(result, description, sizeof(description));
    const char *hint = "";
    if (result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
        result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      hint = "; was the kernel compiled for another GPU or a newer "
             "CUDA than this driver supports?";
    fatalError("cuModuleLoadDataEx failed in %s: %s%s%s%s", entryPoint,
               description, hint, errorLog[0] ? "\n" : "", errorLog);
  }
  trace("%s: loaded module %p", entryPoint, static_cast<void *>(module));
  return module;
}

/// Size in bytes of an element of each CUtensorMapDataType up to
/// CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ (the sub-byte types are not
/// produced by MLIR's lowering and are refused).
static int getTensorMapElementSize(int64_t dataType) {
  static const int sizes[] = {
      1, // UINT8
      2, // UINT16
      4, // UINT32
      4, // INT32
      8, // UINT64
      8, // INT64
      2, // FLOAT16
      4, // FLOAT32
      8, // FLOAT64
      2, // BFLOAT16
      4, // FLOAT32_FTZ
      4, // TFLOAT32
      4, // TFLOAT32_FTZ
  };
  if (dataType < 0 ||
      dataType >= static_cast<int64_t>(sizeof(sizes) / sizeof(sizes[0])))
    return 0;
  return sizes[dataType];
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// Loads a cubin or fatbin; the size is not needed, the image describes it.
extern "C" MGPU_RUNTIME_EXPORT CUmodule mgpuModuleLoad(void *data,
                                                       size_t gpuBlobSize) {
  trace("mgpuModuleLoad(%p, %zu bytes)", data, gpuBlobSize);
  return loadModule(data, /*optLevel=*/-1, __func__);
}

/// Loads NUL-terminated PTX, which the driver compiles for the device.
extern "C" MGPU_RUNTIME_EXPORT CUmodule mgpuModuleLoadJIT(void *data,
                                                          int optLevel) {
  trace("mgpuModuleLoadJIT(%p, O%d)", data, optLevel);
  // The driver accepts levels 0 to 4.
  int level = optLevel < 0 ? 0 : optLevel > 4 ? 4 : optLevel;
  return loadModule(data, level, __func__);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuModuleUnload(CUmodule module) {
  trace("mgpuModuleUnload(%p)", static_cast<void *>(module));
  if (!module)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuModuleUnload, module);
}

extern "C" MGPU_RUNTIME_EXPORT CUfunction
mgpuModuleGetFunction(CUmodule module, const char *name) {
  ScopedContext context(__func__);
  CUfunction function = nullptr;
  CUresult result =
      getDriver(__func__).cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS) {
    char description[256];
    fatalError("cuModuleGetFunction failed in %s for kernel '%s': %s", __func__,
               name ? name : "(null)",
               describeResult(result, description, sizeof(description)));
  }
  trace("mgpuModuleGetFunction(%p, %s) = %p", static_cast<void *>(module),
        name ? name : "(null)", static_cast<void *>(function));
  return function;
}

/// Launches `function`; MLIR passes sizes as index (intptr_t) rather than
/// CUDA's unsigned int, and `params` holds one pointer per kernel argument
/// (`paramsCount` of them), as cuLaunchKernel expects.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                 intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                 intptr_t blockZ, int32_t smem, CUstream stream, void **params,
                 void **extra, size_t paramsCount) {
  trace("mgpuLaunchKernel(%p, grid %" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR
        ", block %" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR ", %" PRId32
        " bytes of shared memory, stream %p, %zu parameters)",
        static_cast<void *>(function), gridX, gridY, gridZ, blockX, blockY,
        blockZ, smem, static_cast<void *>(stream), paramsCount);
  LaunchShape shape = checkLaunchShape(gridX, gridY, gridZ, blockX, blockY,
                                       blockZ, smem, __func__);
  if (shape.empty)
    return;
  ScopedContext context(__func__);
  prepareSharedMemory(function, shape.sharedBytes, context.getDevice(),
                      __func__);
  beforeLaunch(stream);
  MGPU_CU_CHECK(cuLaunchKernel, function, shape.grid[0], shape.grid[1],
                shape.grid[2], shape.block[0], shape.block[1], shape.block[2],
                shape.sharedBytes, stream, params, extra);
  afterLaunch(stream);
}

/// Launches `function` in thread block clusters (sm_90 and later). The grid
/// counts blocks, as for mgpuLaunchKernel, and must be a whole number of
/// clusters in each dimension.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                        intptr_t clusterY, intptr_t clusterZ, intptr_t gridX,
                        intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                        intptr_t blockY, intptr_t blockZ, int32_t smem,
                        CUstream stream, void **params, void **extra) {
  trace("mgpuLaunchClusterKernel(%p, cluster %" PRIdPTR "x%" PRIdPTR
        "x%" PRIdPTR ", grid %" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR
        ", block %" PRIdPTR "x%" PRIdPTR "x%" PRIdPTR ", %" PRId32
        " bytes of shared memory, stream %p)",
        static_cast<void *>(function), clusterX, clusterY, clusterZ, gridX,
        gridY, gridZ, blockX, blockY, blockZ, smem,
        static_cast<void *>(stream));
  LaunchShape shape = checkLaunchShape(gridX, gridY, gridZ, blockX, blockY,
                                       blockZ, smem, __func__);
  unsigned cluster[3] = {
      toDimension(clusterX, "the cluster size in x", __func__),
      toDimension(clusterY, "the cluster size in y", __func__),
      toDimension(clusterZ, "the cluster size in z", __func__)};
  for (int i = 0; i < 3; ++i) {
    if (cluster[i] == 0 || shape.grid[i] % cluster[i] != 0)
      fatalError("%s: the grid (%ux%ux%u blocks) is not a whole number of "
                 "clusters of %ux%ux%u blocks",
                 __func__, shape.grid[0], shape.grid[1], shape.grid[2],
                 cluster[0], cluster[1], cluster[2]);
  }
  if (shape.empty)
    return;
  const DriverApi &api = getDriver(__func__);
  if (!api.cuLaunchKernelEx)
    fatalError("%s: the CUDA driver has no cuLaunchKernelEx; thread block "
               "clusters need a driver of CUDA 12.0 or later",
               __func__);
  ScopedContext context(__func__);
  prepareSharedMemory(function, shape.sharedBytes, context.getDevice(),
                      __func__);
  // Up to 8 blocks per cluster is portable; Hopper allows 16 if the kernel
  // opts in.
  constexpr unsigned kPortableClusterSize = 8;
  if (uint64_t(cluster[0]) * cluster[1] * cluster[2] > kPortableClusterSize)
    MGPU_CU_CHECK(cuFuncSetAttribute, function,
                  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);

  CUlaunchAttribute attributes[2];
  std::memset(attributes, 0, sizeof(attributes));
  attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attributes[0].value.clusterDim.x = cluster[0];
  attributes[0].value.clusterDim.y = cluster[1];
  attributes[0].value.clusterDim.z = cluster[2];
  // Spread the blocks of a cluster over the SMs of its GPC, as upstream
  // MLIR does, rather than letting the hardware pack them.
  attributes[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attributes[1].value.clusterSchedulingPolicyPreference =
      CU_CLUSTER_SCHEDULING_POLICY_SPREAD;

  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = shape.grid[0];
  config.gridDimY = shape.grid[1];
  config.gridDimZ = shape.grid[2];
  config.blockDimX = shape.block[0];
  config.blockDimY = shape.block[1];
  config.blockDimZ = shape.block[2];
  config.sharedMemBytes = shape.sharedBytes;
  config.hStream = stream;
  config.attrs = attributes;
  config.numAttrs = 2;
  beforeLaunch(stream);
  MGPU_CU_CHECK(cuLaunchKernelEx, &config, function, params, extra);
  afterLaunch(stream);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

/// One stream for the whole program: the generated host code starts each
/// chain of device work with a new "stream" and, when the host needs no
/// result, never waits for it. Handing out the same stream orders every
/// launch and copy as the host issued them (as CUDA's legacy default stream
/// would), so kernels on device-resident data chain with no host wait, and a
/// copy back waits for all earlier work. Non-blocking: it need not
/// synchronize with the legacy default stream.
extern "C" MGPU_RUNTIME_EXPORT CUstream mgpuStreamCreate(void) {
  static std::mutex mutex;
  static CUstream stream = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!stream) {
    ScopedContext context(__func__);
    MGPU_CU_CHECK(cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING);
  }
  trace("mgpuStreamCreate() = %p", static_cast<void *>(stream));
  return stream;
}

/// The program's stream lives as long as the program (see mgpuStreamCreate).
extern "C" MGPU_RUNTIME_EXPORT void mgpuStreamDestroy(CUstream stream) {
  trace("mgpuStreamDestroy(%p)", static_cast<void *>(stream));
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  trace("mgpuStreamSynchronize(%p)", static_cast<void *>(stream));
  ScopedContext context(__func__);
  // Errors of kernels launched earlier (illegal addresses, traps) surface
  // here, so this is where a failing kernel is reported.
  MGPU_CU_CHECK(cuStreamSynchronize, stream);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuStreamWaitEvent(CUstream stream,
                                                        CUevent event) {
  trace("mgpuStreamWaitEvent(%p, %p)", static_cast<void *>(stream),
        static_cast<void *>(event));
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuStreamWaitEvent, stream, event, /*Flags=*/0);
}

extern "C" MGPU_RUNTIME_EXPORT CUevent mgpuEventCreate(void) {
  ScopedContext context(__func__);
  CUevent event = nullptr;
  // Events only order work here; timing would make them more expensive.
  MGPU_CU_CHECK(cuEventCreate, &event, CU_EVENT_DISABLE_TIMING);
  trace("mgpuEventCreate() = %p", static_cast<void *>(event));
  return event;
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuEventDestroy(CUevent event) {
  trace("mgpuEventDestroy(%p)", static_cast<void *>(event));
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuEventDestroy, event);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuEventSynchronize(CUevent event) {
  trace("mgpuEventSynchronize(%p)", static_cast<void *>(event));
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuEventSynchronize, event);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuEventRecord(CUevent event,
                                                    CUstream stream) {
  trace("mgpuEventRecord(%p, %p)", static_cast<void *>(event),
        static_cast<void *>(stream));
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuEventRecord, event, stream);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Allocates device memory, or managed memory that the host can use too when
/// `isHostShared` (gpu.alloc host_shared). The allocation is synchronous:
/// the stream is not needed.
extern "C" MGPU_RUNTIME_EXPORT void *
mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  // A zero-byte memref needs no memory, and the driver refuses to allocate
  // none.
  if (sizeBytes == 0)
    return nullptr;
  ScopedContext context(__func__);
  CUdeviceptr pointer = 0;
  if (isHostShared)
    MGPU_CU_CHECK(cuMemAllocManaged, &pointer, sizeBytes, CU_MEM_ATTACH_GLOBAL);
  else
    MGPU_CU_CHECK(cuMemAlloc, &pointer, sizeBytes);
  trace("mgpuMemAlloc(%" PRIu64 " bytes%s) = %p", sizeBytes,
        isHostShared ? ", host shared" : "", reinterpret_cast<void *>(pointer));
  return reinterpret_cast<void *>(pointer);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuMemFree(void *pointer,
                                                CUstream /*stream*/) {
  trace("mgpuMemFree(%p)", pointer);
  if (!pointer)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemFree, reinterpret_cast<CUdeviceptr>(pointer));
}

/// Copies in any direction: with unified addressing the driver tells host
/// and device pointers apart itself.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  trace("mgpuMemcpy(%p, %p, %zu bytes, stream %p)", dst, src, sizeBytes,
        static_cast<void *>(stream));
  if (sizeBytes == 0)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemcpyAsync, reinterpret_cast<CUdeviceptr>(dst),
                reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream);
}

/// Fills `count` 32-bit words; gpu.memset of 32-bit elements lowers here.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuMemset32(void *dst, unsigned int value, size_t count, CUstream stream) {
  trace("mgpuMemset32(%p, 0x%x, %zu words, stream %p)", dst, value, count,
        static_cast<void *>(stream));
  if (count == 0)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemsetD32Async, reinterpret_cast<CUdeviceptr>(dst), value,
                count, stream);
}

/// Fills `count` 16-bit words.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuMemset16(void *dst, unsigned short value, size_t count, CUstream stream) {
  trace("mgpuMemset16(%p, 0x%x, %zu halfwords, stream %p)", dst,
        static_cast<unsigned>(value), count, static_cast<void *>(stream));
  if (count == 0)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemsetD16Async, reinterpret_cast<CUdeviceptr>(dst), value,
                count, stream);
}

/// Page-locks host memory and maps it for the device, so kernels can use
/// the host pointer directly (gpu.host_register).
extern "C" MGPU_RUNTIME_EXPORT void mgpuMemHostRegister(void *pointer,
                                                        uint64_t sizeBytes) {
  trace("mgpuMemHostRegister(%p, %" PRIu64 " bytes)", pointer, sizeBytes);
  if (!pointer || sizeBytes == 0)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemHostRegister, pointer, sizeBytes, /*Flags=*/0);
}

extern "C" MGPU_RUNTIME_EXPORT void mgpuMemHostUnregister(void *pointer) {
  trace("mgpuMemHostUnregister(%p)", pointer);
  if (!pointer)
    return;
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemHostUnregister, pointer);
}

/// Registers the memory a ranked memref of rank `rank` spans, given its
/// descriptor (an unranked memref's payload). The span runs from the first
/// to the last element the sizes and strides reach, so strided memrefs are
/// covered as well as dense ones.
extern "C" MGPU_RUNTIME_EXPORT void
mgpuMemHostRegisterMemRef(int64_t rank, MemRefHead *descriptor,
                          int64_t elementSizeBytes) {
  const int64_t *sizes = getSizes(descriptor);
  const int64_t *strides = getStrides(descriptor, rank);
  int64_t lastElement = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      return; // Nothing to register.
    if (sizes[i] < 0 || strides[i] < 0)
      fatalError("%s: cannot register a memref with size %" PRId64
                 " and stride %" PRId64 " in dimension %" PRId64,
                 __func__, sizes[i], strides[i], i);
    lastElement += (sizes[i] - 1) * strides[i];
  }
  char *begin = descriptor->aligned + descriptor->offset * elementSizeBytes;
  mgpuMemHostRegister(begin, static_cast<uint64_t>(lastElement + 1) *
                                 static_cast<uint64_t>(elementSizeBytes));
}

extern "C" MGPU_RUNTIME_EXPORT void
mgpuMemHostUnregisterMemRef(int64_t rank, MemRefHead *descriptor,
                            int64_t elementSizeBytes) {
  (void)rank;
  mgpuMemHostUnregister(descriptor->aligned +
                        descriptor->offset * elementSizeBytes);
}

/// Selects the device that later work of the calling thread goes to.
extern "C" MGPU_RUNTIME_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  trace("mgpuSetDefaultDevice(%" PRId32 ")", device);
  defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// Tensor maps (TMA descriptors, CUDA 12)
//===----------------------------------------------------------------------===//

/// Encodes a tiled tensor map into host memory at `tensorMap`; a thin
/// wrapper of cuTensorMapEncodeTiled with the same arguments.
extern "C" MGPU_RUNTIME_EXPORT void mgpuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  const DriverApi &api = getDriver(__func__);
  if (!api.cuTensorMapEncodeTiled)
    fatalError("%s: the CUDA driver has no cuTensorMapEncodeTiled; tensor "
               "maps (TMA) need a driver of CUDA 12.0 or later",
               __func__);
  trace("mgpuTensorMapEncodeTiled(type %d, rank %u, address %p)",
        static_cast<int>(tensorDataType), tensorRank, globalAddress);
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuTensorMapEncodeTiled, tensorMap, tensorDataType, tensorRank,
                globalAddress, globalDim, globalStrides, boxDim, elementStrides,
                interleave, swizzle, l2Promotion, oobFill);
}

/// Encodes a tiled tensor map for the memref `descriptor` of rank
/// `tensorRank` with boxes of `inputBoxDims` (outermost dimension first, as
/// in the memref) and returns a copy of it in device memory, whose address
/// the generated code passes to kernels. This is what
/// nvgpu.tma.create.descriptor lowers to; the enumerations arrive as 64-bit
/// integers. The generated code frees nothing, so device copies are kept
/// and reused: a launch that sees the same array as an earlier one (a call
/// in a loop on device-resident data) finds its tensor map already on the
/// device, with no allocation and no copy.
extern "C" MGPU_RUNTIME_EXPORT void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, MemRefHead *descriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims) {
  constexpr int64_t kMaxRank = 5;
  if (tensorRank < 1 || tensorRank > kMaxRank)
    fatalError("%s: a tensor map has rank 1 to %" PRId64 ", not %" PRId64,
               __func__, kMaxRank, tensorRank);
  int elementSize = getTensorMapElementSize(tensorDataType);
  if (elementSize == 0)
    fatalError("%s: unsupported tensor map data type %" PRId64, __func__,
               tensorDataType);
  const int64_t *sizes = getSizes(descriptor);
  const int64_t *strides = getStrides(descriptor, tensorRank);
  // The driver lists dimensions innermost first; memrefs outermost first.
  cuuint64_t globalDim[kMaxRank] = {0};
  cuuint64_t globalStrides[kMaxRank] = {0};
  cuuint32_t boxDim[kMaxRank] = {0};
  cuuint32_t elementStrides[kMaxRank] = {0};
  for (int64_t r = 0; r < tensorRank; ++r) {
    int64_t memrefDim = tensorRank - 1 - r;
    globalDim[r] = static_cast<cuuint64_t>(sizes[memrefDim]);
    boxDim[r] = static_cast<cuuint32_t>(inputBoxDims[memrefDim]);
    elementStrides[r] = 1;
    // The driver takes the byte strides of dimensions 1 and up; dimension 0
    // must be contiguous.
    if (r == 0 && strides[memrefDim] != 1)
      fatalError("%s: the innermost dimension of the memref has stride "
                 "%" PRId64 "; a tensor map needs it contiguous",
                 __func__, strides[memrefDim]);
    if (r > 0)
      globalStrides[r - 1] =
          static_cast<cuuint64_t>(strides[memrefDim]) * elementSize;
  }
  void *globalAddress = descriptor->aligned + descriptor->offset * elementSize;

  CUtensorMap tensorMap;
  // Zeroed, so that equal maps are equal bytes (the cache key).
  std::memset(&tensorMap, 0, sizeof(tensorMap));
  mgpuTensorMapEncodeTiled(&tensorMap,
                           static_cast<CUtensorMapDataType>(tensorDataType),
                           static_cast<cuuint32_t>(tensorRank), globalAddress,
                           globalDim, globalStrides, boxDim, elementStrides,
                           static_cast<CUtensorMapInterleave>(interleave),
                           static_cast<CUtensorMapSwizzle>(swizzle),
                           static_cast<CUtensorMapL2promotion>(l2Promotion),
                           static_cast<CUtensorMapFloatOOBfill>(oobFill));

  static std::mutex cacheMutex;
  static std::map<std::string, CUdeviceptr> deviceMaps;
  std::string key(reinterpret_cast<const char *>(&tensorMap),
                  sizeof(tensorMap));
  std::lock_guard<std::mutex> lock(cacheMutex);
  CUdeviceptr &deviceMap = deviceMaps[key];
  if (deviceMap)
    return reinterpret_cast<void *>(deviceMap);
  ScopedContext context(__func__);
  MGPU_CU_CHECK(cuMemAlloc, &deviceMap, sizeof(CUtensorMap));
  MGPU_CU_CHECK(cuMemcpyHtoD, deviceMap, &tensorMap, sizeof(CUtensorMap));
  trace("mgpuTensorMapEncodeTiledMemref(rank %" PRId64 ") = %p", tensorRank,
        reinterpret_cast<void *>(deviceMap));
  return reinterpret_cast<void *>(deviceMap);
}
