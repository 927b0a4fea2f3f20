// Where no CUDA device answers, the runtime's own default (dlopen of
// libcuda.so.1) fails with a clear message and a non-zero status. Which
// message depends on what the machine lacks: the driver, or a device.

// UNSUPPORTED: cuda-device
// RUN: not %mgpu_runtime_client round-trip 2>&1 | FileCheck %s
// RUN: not %mgpu_cuda_probe 2>&1 | FileCheck %s --check-prefix=PROBE

// CHECK: mgpu runtime: {{cannot load the CUDA driver \(libcuda.so.1\)|cuInit failed|the CUDA driver loaded, but there is no CUDA device}}
// CHECK-NEXT: mgpu runtime: mgpuStreamCreate needs a CUDA driver and device; stopping
// PROBE: mgpu runtime: no CUDA device:
