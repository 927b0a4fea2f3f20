// --mgpu-to-cpu on GPU code already lowered (gpu.launch_func) refuses it
// with a located error and exit status 1 (it used to exit 0 with
// unrealized casts left).
// RUN: not mgpu-opt --mgpu-to-cpu %s -o /dev/null 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // CHECK: to-cpu-gpu-code.mlir:[[@LINE+1]]:5: error: 'gpu.launch_func' op is GPU code, which interpret mode does not run
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
