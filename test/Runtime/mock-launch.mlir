// Launch shapes through the runtime, on the mock driver: thread block
// clusters go through cuLaunchKernelEx with the cluster dimension and the
// spread scheduling policy (and the non-portable size opt-in above 8 blocks
// per cluster), dynamic shared memory above 48 KiB is opted in per kernel
// and checked against the device's limit, empty grids launch nothing,
// joined streams wait on events, and failures name the failed call.

// RUN: mlir-opt %s --gpu-to-llvm -o %t.mlir
// DEFINE: %{run} = mlir-runner %t.mlir --entry-point-result=void \
// DEFINE:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %{run} -e clusters 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLUSTERS
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %{run} -e streams 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STREAMS
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda not %{run} -e too_much_shared_memory 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MOCK_CUDA_FAIL=cuLaunchKernel not %{run} -e streams 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAILED
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda not %{run} -e missing_kernel 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda MOCK_CUDA=nodevice not %{run} -e streams 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-DEVICE

module attributes {gpu.container_module} {
  // Stands for PTX; the mock driver only logs what it loads.
  gpu.binary @kernels [#gpu.object<#nvvm.target, assembly = "// mock PTX">]

  // CLUSTERS: mock: cuModuleLoadDataEx(PTX, 3 options
  // CLUSTERS: mock: cuModuleGetFunction(k)
  // CLUSTERS-NEXT: mock: cuFuncSetAttribute(k, attribute 8, 100000)
  // CLUSTERS-NEXT: mock: cuLaunchKernelEx(k, grid 4x2x1, block 128x1x1, shared 100000, stream set, 2 attributes, params set, extra null)
  // CLUSTERS-NEXT: mock:   cluster dimension 2x1x1
  // CLUSTERS-NEXT: mock:   cluster scheduling policy 1
  // CLUSTERS: mock: cuModuleGetFunction(k)
  // CLUSTERS-NEXT: mock: cuFuncSetAttribute(k, attribute 14, 1)
  // CLUSTERS-NEXT: mock: cuLaunchKernelEx(k, grid 8x4x1, block 32x1x1, shared 0, stream set, 2 attributes, params set, extra null)
  // CLUSTERS-NEXT: mock:   cluster dimension 4x4x1
  // CLUSTERS-NEXT: mock:   cluster scheduling policy 1
  // CLUSTERS-NEXT: mock: cuModuleGetFunction(k)
  // CLUSTERS-NEXT: mock: cuStreamSynchronize(stream)
  func.func @clusters() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %shared = arith.constant 100000 : i32
    %value = arith.constant 7 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k
        clusters in (%c2, %c1, %c1) blocks in (%c4, %c2, %c1)
        threads in (%c128, %c1, %c1) dynamic_shared_memory_size %shared
        args(%value : i32)
    %t2 = gpu.launch_func async [%t1] @kernels::@k
        clusters in (%c4, %c4, %c1) blocks in (%c8, %c4, %c1)
        threads in (%c32, %c1, %c1) args(%value : i32)
    // An empty grid has nothing to run.
    %c0 = arith.constant 0 : index
    %t3 = gpu.launch_func async [%t2] @kernels::@k
        blocks in (%c0, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%value : i32)
    gpu.wait [%t3]
    return
  }

  // Each launch asks for a stream and gets the program's one stream (created
  // once, never destroyed: mgpuStreamCreate), so the work is ordered as
  // issued; joining still records an event on each and makes the stream wait
  // for both, which costs nothing. Events are created with
  // CU_EVENT_DISABLE_TIMING (2), the stream with CU_STREAM_NON_BLOCKING (1).
  // STREAMS: mock: cuStreamCreate(flags 1) -> stream 1
  // STREAMS-NEXT: mock: cuModuleGetFunction(k)
  // STREAMS-NEXT: mock: cuLaunchKernel(k, grid 1x1x1, block 32x1x1, shared 0, stream set, params set, extra null)
  // STREAMS-NEXT: mock: cuEventCreate(flags 2) -> event 1
  // STREAMS-NEXT: mock: cuEventRecord(event, stream)
  // STREAMS-NEXT: mock: cuModuleGetFunction(k)
  // STREAMS-NEXT: mock: cuLaunchKernel(k, grid 1x1x1, block 32x1x1, shared 0, stream set, params set, extra null)
  // STREAMS-NEXT: mock: cuEventCreate(flags 2) -> event 2
  // STREAMS-NEXT: mock: cuEventRecord(event, stream)
  // STREAMS-NEXT: mock: cuStreamWaitEvent(stream, event, flags 0)
  // STREAMS-NEXT: mock: cuStreamWaitEvent(stream, event, flags 0)
  // STREAMS-NEXT: mock: cuEventDestroy
  // STREAMS-NEXT: mock: cuEventDestroy
  // STREAMS-NEXT: mock: cuStreamSynchronize(stream)
  // STREAMS-NEXT: mock: cuModuleUnload
  func.func @streams() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %value = arith.constant 7 : i32
    %a = gpu.wait async
    %b = gpu.wait async
    %a1 = gpu.launch_func async [%a] @kernels::@k
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%value : i32)
    %b1 = gpu.launch_func async [%b] @kernels::@k
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%value : i32)
    %joined = gpu.wait async [%a1, %b1]
    gpu.wait [%joined]
    return
  }

  // SHARED: mgpu runtime: mgpuLaunchKernel: the kernel asks for 300000 bytes of dynamic shared memory, but device 0 allows at most 232448 per block
  // SHARED-NOT: cuLaunchKernel
  func.func @too_much_shared_memory() {
    %c1 = arith.constant 1 : index
    %shared = arith.constant 300000 : i32
    %value = arith.constant 7 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %shared args(%value : i32)
    gpu.wait [%t1]
    return
  }

  // FAILED: mock: cuLaunchKernel(k,
  // FAILED-NEXT: mgpu runtime: cuLaunchKernel failed in mgpuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)
  // FAILED-NOT: mock:

  // MISSING: mgpu runtime: cuModuleGetFunction failed in mgpuModuleGetFunction for kernel 'missing_kernel': CUDA_ERROR_NOT_FOUND (named symbol not found)
  func.func @missing_kernel() {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@missing_kernel
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    return
  }

  // NO-DEVICE: mock: cuInit(0)
  // NO-DEVICE-NEXT: mgpu runtime: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected); no CUDA device on this machine?
  // NO-DEVICE-NEXT: mgpu runtime: mgpuModuleLoadJIT needs a CUDA driver and device; stopping
}
