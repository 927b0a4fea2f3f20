// A kernel image the driver cannot load (here one the mock driver says is
// for another GPU) stops the program when the kernels are loaded, with the
// driver's error, a hint, and the driver's error log.

// RUN: mlir-opt %s --gpu-to-llvm \
// RUN: | env MGPU_CUDA_DRIVER=%mgpu_mock_cuda not mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s

// CHECK: mock: cuModuleLoadDataEx(binary, 2 options, error log of 8192 bytes, opt level -1)
// CHECK-NEXT: mgpu runtime: cuModuleLoadDataEx failed in mgpuModuleLoad: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is available for execution on the device); was the kernel compiled for another GPU or a newer CUDA than this driver supports?
// CHECK-NEXT: mock: the image is for sm_00
// CHECK-NOT: cuLaunchKernel

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "BADBIN">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}
