// Without a CUDA driver, a program that uses the runtime must stop with a
// clear message and a non-zero status, never crash: here for stock
// mlir-runner running an upstream-style GPU program, for a C host program,
// and for the device probe. MGPU_CUDA_DRIVER names a driver file that does
// not exist, so the test means the same on machines that have a GPU.

// RUN: mlir-opt %S/Inputs/vector-add.mlir \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa" \
// RUN:   -o %t.mlir
// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 not mlir-runner %t.mlir \
// RUN:   -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=RUNNER < %t.err
// RUN: count 0 < %t.out

// The kernels are loaded by a global constructor, before main runs.
// RUNNER: mgpu runtime: cannot load the CUDA driver ({{.*}}.missing/libcuda.so.1): {{.*}}; no NVIDIA driver on this machine?
// RUNNER-NEXT: mgpu runtime: mgpuModuleLoadJIT needs a CUDA driver and device; stopping

// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 not %mgpu_runtime_client round-trip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLIENT
// CLIENT: mgpu runtime: cannot load the CUDA driver ({{.*}}): {{.*}}No such file or directory; no NVIDIA driver on this machine?
// CLIENT-NEXT: mgpu runtime: mgpuStreamCreate needs a CUDA driver and device; stopping
// CLIENT-NOT: round trip

// The queries answer without printing or stopping.
// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 %mgpu_runtime_client has-device 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUERY
// QUERY: has device: 0
// QUERY-NEXT: reason: cannot load the CUDA driver

// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 not %mgpu_cuda_probe 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PROBE
// PROBE: mgpu runtime: no CUDA device: cannot load the CUDA driver

// A library that is not a CUDA driver.
// RUN: env MGPU_CUDA_DRIVER=libc.so.6 not %mgpu_runtime_client round-trip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-A-DRIVER
// NOT-A-DRIVER: mgpu runtime: the CUDA driver libc.so.6 has no cuGetErrorName; is it a real NVIDIA driver of CUDA 11 or later?
