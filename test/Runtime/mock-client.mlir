// A C host program calling the runtime's C ABI directly, on the mock
// driver: device and host-shared memory, fills and copies; memref host
// registration (the span of a strided view, a scalar, an empty memref);
// a rank-3 tensor map; first use from eight threads at once; and the
// errors for a wrong default device and a grid that is not a whole number
// of clusters. Then the device queries and the probe under the mock's
// device states.

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_runtime_client round-trip 2> %t.err \
// RUN:   | FileCheck %s --check-prefix=ROUND-TRIP
// RUN: FileCheck %s --check-prefix=ROUND-TRIP-LOG < %t.err
// ROUND-TRIP: round trip: 42 42 42 42
// ROUND-TRIP-NEXT: host shared: 7 7 7
// ROUND-TRIP-LOG: mock: cuMemAlloc(16)
// ROUND-TRIP-LOG-NEXT: mock: cuMemsetD32Async(0x2a, 4 words, stream set)
// ROUND-TRIP-LOG-NEXT: mock: cuMemcpyAsync(16 bytes, stream set)
// ROUND-TRIP-LOG: mock: cuMemAllocManaged(6, flags 1)
// ROUND-TRIP-LOG-NEXT: mock: cuMemsetD16Async(0x7, 3 halfwords, stream null)

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_runtime_client register 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REGISTER
// memref<3x4xf32, strided<[8, 1], offset: 2>> spans 2*8 + 3 + 1 = 20 floats.
// REGISTER: mock: cuMemHostRegister(80 bytes, flags 0)
// REGISTER-NEXT: mock: cuMemHostUnregister
// REGISTER-NEXT: mock: cuMemHostRegister(8 bytes, flags 0)
// REGISTER-NOT: cuMemHostRegister
// REGISTER: registered

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_runtime_client tensor-map 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TENSOR-MAP
// TENSOR-MAP: mock: cuTensorMapEncodeTiled(type 6, rank 3, dims [128,64,2], strides [256,16384], box [64,32,1], element strides [1,1,1], interleave 0, swizzle 3, l2 0, oob 0)
// TENSOR-MAP: tensor map in device memory: yes

// The driver is initialized and the context retained once.
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_runtime_client threads 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// THREADS: mock: cuInit(0)
// THREADS-NEXT: mock: cuDevicePrimaryCtxRetain(device 0)
// THREADS-NOT: cuInit
// THREADS-NOT: cuDevicePrimaryCtxRetain
// THREADS-NOT: without
// THREADS: threads done

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda not %mgpu_runtime_client bad-device 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-DEVICE
// BAD-DEVICE: mgpu runtime: mgpuStreamCreate: the default device is 3, but this machine has 1 CUDA device(s) (see mgpuSetDefaultDevice)

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda not %mgpu_runtime_client bad-cluster 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-CLUSTER
// BAD-CLUSTER: mgpu runtime: mgpuLaunchClusterKernel: the grid (6x1x1 blocks) is not a whole number of clusters of 4x1x1 blocks

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_runtime_client has-device 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HAS-DEVICE
// HAS-DEVICE: has device: 1
// HAS-DEVICE-NEXT: reason: {{$}}
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %mgpu_cuda_probe | FileCheck %s --check-prefix=PROBE
// PROBE: mgpu runtime: a CUDA device is present

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MOCK_CUDA=nodevices not %mgpu_cuda_probe 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-DEVICES
// NO-DEVICES: mgpu runtime: no CUDA device: the CUDA driver loaded, but there is no CUDA device
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MOCK_CUDA=nodevice not %mgpu_cuda_probe 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT-FAILS
// INIT-FAILS: mgpu runtime: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected); no CUDA device on this machine?

// An allocation failure names the call and the driver's error.
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MOCK_CUDA_FAIL=cuMemAlloc not %mgpu_runtime_client round-trip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUT-OF-MEMORY
// OUT-OF-MEMORY: mgpu runtime: cuMemAlloc failed in mgpuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// OUT-OF-MEMORY-NOT: round trip

// MGPU_RUNTIME_DEBUG traces the entry points.
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MGPU_RUNTIME_DEBUG=1 %mgpu_runtime_client round-trip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRACE
// TRACE: mgpu runtime: mgpuStreamCreate() = 0x
// TRACE: mgpu runtime: mgpuMemAlloc(16 bytes) = 0x
// TRACE: mgpu runtime: mgpuMemset32(0x{{[0-9a-f]+}}, 0x2a, 4 words, stream 0x
