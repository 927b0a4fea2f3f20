// RUN: mgpu-opt %s --mgpu-attach-target | FileCheck %s
// RUN: mgpu-opt %s --mgpu-attach-target="chip=sm_100a O=2" | FileCheck %s --check-prefix=SM100
// RUN: not mgpu-opt %s --mgpu-attach-target="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=BAD

// The chip comes from mgpu.target, an existing target is replaced (not
// appended to), and mgpu.target is dropped once carried over.

// CHECK: module attributes {gpu.container_module} {
// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] {
// SM100: gpu.module @kernels [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
// BAD: error: mgpu-attach-target: unknown chip 'sm_75'

module attributes {gpu.container_module, mgpu.target = #mgpu.target<chip = "sm_80">} {
  gpu.module @kernels [#nvvm.target<chip = "sm_50">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
