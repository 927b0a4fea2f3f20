// RUN: mgpu-opt %s --mgpu-attach-target | FileCheck %s

// A module that never mentions the mgpu dialect (as after a partial
// pipeline, or IR from another compiler) gets the default chip, sm_90a:
// the pass must not depend on the input having loaded the mgpu dialect.

// CHECK-LABEL: gpu.module @plain
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
module attributes {gpu.container_module} {
  gpu.module @plain {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
