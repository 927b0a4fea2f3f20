// RUN: mgpu-opt %s --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s

// Pre-Hopper copies on the GPU (sm_80): every lane of the warpgroup issues
// cp.async pieces (lane l takes pieces l, l + 128, ...) and the copy is
// closed as one group; the wait is cp.async.wait_group and the warpgroup
// barrier after it (each lane waits only for its own pieces). Pieces are 16
// bytes (cache global, `.cg`) where the rows allow, else 8 or 4 (`.ca`),
// never across a row.

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!wide = memref<8x16xf32, #gpu.address_space<workgroup>>
!odd = memref<16x6xf32, #gpu.address_space<workgroup>>
!thin = memref<32x3xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @pieces(%x: memref<64x16xf32>, %y: memref<64x6xf32>, %z: memref<32x3xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x, %y, %z : memref<64x16xf32>, memref<64x6xf32>, memref<32x3xf32>)
        scratch [!wide, !odd, !thin] {
    ^bb0(%xg: memref<64x16xf32>, %yg: memref<64x6xf32>, %zg: memref<32x3xf32>,
         %a: !wide, %b: !odd, %c: !thin):
      %row = mgpu.axis_index "i"
      mgpu.copy_gmem_to_smem %xg[%row, 0], %a : memref<64x16xf32>, !wide
      mgpu.copy_gmem_to_smem %yg[8, 0], %b : memref<64x6xf32>, !odd
      mgpu.copy_gmem_to_smem %zg, %c : memref<32x3xf32>, !thin
      mgpu.wait_gmem_to_smem 2
      mgpu.wait_gmem_to_smem 0
    }
    return
  }
}

// 8 x 16 f32: 32 pieces of 16 bytes, lanes 0-31 one each.
// CHECK-LABEL: func.func @pieces
// CHECK: gpu.launch
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32 step %c128
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.commit.group
// 16 x 6 f32: rows of 24 bytes, 48 pieces of 8.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c128
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca
// CHECK: nvvm.cp.async.commit.group
// 32 x 3 f32: rows of 12 bytes, 96 pieces of 4.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c96 step %c128
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.barrier
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NOT: nvvm.cp.async
// CHECK: nvvm.barrier
// CHECK-NOT: nvvm.mbarrier
