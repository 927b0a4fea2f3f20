// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// copy_smem_to_gmem with `reduction K` (JAX's reduction_op=) round trips
// with every kind, with and without window offsets, next to commit_group.

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!row = memref<1x64xi32, #gpu.address_space<workgroup>>
!half = memref<64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @kinds
func.func @kinds(%o: memref<4x64xi32>, %h: memref<64xf16>, %w: memref<64xi64>) {
  mgpu.mpmd_map meshes [#m] outs(%o, %h, %w : memref<4x64xi32>, memref<64xf16>, memref<64xi64>)
      scratch [!row, !half, memref<64xi64, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<4x64xi32>, %hg: memref<64xf16>, %wg: memref<64xi64>, %r: !row, %hs: !half,
       %ws: memref<64xi64, #gpu.address_space<workgroup>>):
    %p = mgpu.program_id 0
    mgpu.commit_smem
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}, 0] reduction add : memref<1x64xi32, #gpu.address_space<workgroup>>, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[%p, 0] reduction add : !row, memref<4x64xi32>
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[1, 0] reduction inc {commit_group = false}
    mgpu.copy_smem_to_gmem %r, %og[1, 0] reduction inc {commit_group = false} : !row, memref<4x64xi32>
    // CHECK: reduction dec :
    mgpu.copy_smem_to_gmem %r, %og[1, 0] reduction dec : !row, memref<4x64xi32>
    // CHECK: reduction and :
    mgpu.copy_smem_to_gmem %r, %og[2, 0] reduction and : !row, memref<4x64xi32>
    // CHECK: reduction or :
    mgpu.copy_smem_to_gmem %r, %og[2, 0] reduction or : !row, memref<4x64xi32>
    // CHECK: reduction xor :
    mgpu.copy_smem_to_gmem %r, %og[3, 0] reduction xor : !row, memref<4x64xi32>
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}} reduction min : memref<64xf16, #gpu.address_space<workgroup>>, memref<64xf16>
    mgpu.copy_smem_to_gmem %hs, %hg reduction min : !half, memref<64xf16>
    // CHECK: reduction max :
    mgpu.copy_smem_to_gmem %hs, %hg reduction max : !half, memref<64xf16>
    // CHECK: reduction add : memref<64xi64, #gpu.address_space<workgroup>>, memref<64xi64>
    mgpu.copy_smem_to_gmem %ws, %wg reduction add : memref<64xi64, #gpu.address_space<workgroup>>, memref<64xi64>
    // CHECK: reduction smin :
    mgpu.copy_smem_to_gmem %r, %og[0, 0] reduction smin : !row, memref<4x64xi32>
    // CHECK: reduction smax :
    mgpu.copy_smem_to_gmem %r, %og[0, 0] reduction smax : !row, memref<4x64xi32>
    // CHECK: reduction umin : memref<64xi64, #gpu.address_space<workgroup>>, memref<64xi64>
    mgpu.copy_smem_to_gmem %ws, %wg reduction umin : memref<64xi64, #gpu.address_space<workgroup>>, memref<64xi64>
    // CHECK: reduction umax :
    mgpu.copy_smem_to_gmem %r, %og[0, 0] reduction umax : !row, memref<4x64xi32>
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[0, 0] : memref
    mgpu.copy_smem_to_gmem %r, %og[0, 0] : !row, memref<4x64xi32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}
