// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s

// Pre-Hopper copies round-trip: copy_gmem_to_smem without a barrier (a
// cp.async copy group) and wait_gmem_to_smem.

#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>
!tile = memref<8x16xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  // CHECK-LABEL: func.func @cp_async
  func.func @cp_async(%x: memref<64x16xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<64x16xf32>) scratch [!tile, !tile] {
    ^bb0(%xg: memref<64x16xf32>, %a: !tile, %b: !tile):
      %c8 = arith.constant 8 : index
      // CHECK: mgpu.copy_gmem_to_smem %{{.*}}[0, 0], %{{.*}} : memref<64x16xf32>, memref<8x16xf32, #gpu.address_space<workgroup>>
      mgpu.copy_gmem_to_smem %xg[0, 0], %a : memref<64x16xf32>, !tile
      // CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}, 0], %{{.*}} : memref<64x16xf32>, memref<8x16xf32, #gpu.address_space<workgroup>>
      mgpu.copy_gmem_to_smem %xg[%c8, 0], %b : memref<64x16xf32>, !tile
      // CHECK: mgpu.wait_gmem_to_smem 1
      mgpu.wait_gmem_to_smem 1
      // CHECK: mgpu.wait_gmem_to_smem 0
      mgpu.wait_gmem_to_smem 0
    }
    return
  }
}
