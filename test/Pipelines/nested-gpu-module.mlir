// GPU code written by hand (a gpu.module with its launch_func, an inline
// gpu.launch) in a nested module: --mgpu-to-binary compiles the top-level
// module's gpu.modules only, so it refuses them at their location. It made
// invalid IR before ("got 5 kernel operands but expected 1" at a launch
// whose kernel was never converted to NVVM). mgpu kernels in a nested module
// are refused the same way (nested-module.mlir).
// RUN: rm -rf %t && split-file %s %t
// RUN: not mgpu-opt --mgpu-to-binary="format=isa" %t/outlined.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTLINED
// RUN: not mgpu-opt --mgpu-to-binary="format=isa" %t/inline.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INLINE
// The same programs at the top level compile.
// RUN: sed '/inner/d' %t/outlined.mlir | mgpu-opt --mgpu-to-binary="format=isa" | FileCheck %s --check-prefix=TOP
// RUN: sed '/inner/d' %t/inline.mlir | mgpu-opt --mgpu-to-binary="format=isa" | FileCheck %s --check-prefix=TOP

// OUTLINED: outlined.mlir:3:5: error: 'gpu.module' op is in a nested module, which the GPU pipeline does not compile: move it to the top-level module
// INLINE: inline.mlir:6:7: error: 'gpu.launch' op is in a nested module, which the GPU pipeline does not compile: move it to the top-level module
// TOP: gpu.binary

//--- outlined.mlir
module attributes {gpu.container_module} {
  module @inner attributes {gpu.container_module} {
    gpu.module @kernels {
      gpu.func @fill(%out: memref<8xf32>) kernel {
        %i = gpu.thread_id x
        %one = arith.constant 1.0 : f32
        memref.store %one, %out[%i] : memref<8xf32>
        gpu.return
      }
    }
    func.func @run(%out: memref<8xf32>) {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1)
          threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
      return
    }
  } // inner
}

//--- inline.mlir
module {
  module @inner {
    func.func @run(%out: memref<8xf32>) {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
        %one = arith.constant 1.0 : f32
        memref.store %one, %out[%tx] : memref<8xf32>
        gpu.terminator
      }
      return
    }
  } // inner
}
