// Device-resident data on the mock driver: test/Integration/Kernels/
// device_resident.mlir copies its input to the device once, chains ten
// pallas_calls on two device buffers, and copies the result back once.
// Between the first launch and the copy back there is no allocation, no copy
// and no host wait: every launch goes on the program's one stream.

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mgpu-run %S/../Integration/Kernels/device_resident.mlir -e main --backend=cuda 2>&1 >/dev/null | grep -E 'cuStream|cuMem|cuLaunch' | FileCheck %s

// CHECK: mock: cuStreamCreate(flags 1) -> stream 1
// CHECK-NEXT: mock: cuMemAlloc(4096)
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NEXT: mock: cuMemAlloc(4096)
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NEXT: mock: cuMemcpyAsync(4096 bytes, stream set)
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuLaunchKernel(step_kernel,
// CHECK-NEXT: mock: cuMemcpyAsync(4096 bytes, stream set)
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NEXT: mock: cuMemFree
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NEXT: mock: cuMemFree
// CHECK-NEXT: mock: cuStreamSynchronize(stream)
// CHECK-NOT: cuStreamCreate
