// RUN: mgpu-opt %s --mgpu-attach-target | FileCheck %s
// RUN: not mgpu-opt %s --mgpu-attach-target="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=HOPPER

// mgpu ops still in the module are verified against its mgpu.target, so
// they keep it: a copy without a barrier is valid before Hopper only, and
// dropping the sm_80 target left invalid IR (the default target is sm_90a).
// A chip given to the pass that they are not valid on is refused, at the op
// and for the module.

// CHECK: #target = #mgpu.target<chip = "sm_80">
// CHECK: module attributes {gpu.container_module, mgpu.target = #target}
// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// CHECK: mgpu.copy_gmem_to_smem

// HOPPER: error: 'mgpu.copy_gmem_to_smem' op copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation
// HOPPER: error: mgpu-attach-target: the module's mgpu ops are not valid on chip 'sm_90a' (their target is 'sm_80')

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
module attributes {gpu.container_module, mgpu.target = #mgpu.target<chip = "sm_80">} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @copy(%x: memref<64xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<64xf32>) scratch [memref<64xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%xs: memref<64xf32>, %s: memref<64xf32, #gpu.address_space<workgroup>>):
      mgpu.copy_gmem_to_smem %xs, %s : memref<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
      mgpu.wait_gmem_to_smem 0
    }
    return
  }
}
