// A TMEM load whose value only goes into a row-major buffer of shared
// memory (the epilogue of a Blackwell matmul) skips the exchange through
// the warpgroup scratch: each lane reads its row 32 columns at a time
// (tmem_lane_load ... column c) and stores each piece straight into its
// row of the buffer; the store itself is not distributed again. A load
// with another use, or with a memory access between it and the store,
// exchanges as before (its whole row, then the scratch).
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_100a" | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: func.func @to_smem
// CHECK: %[[ACC:.*]] = mgpu.tmem_ref %{{.*}}[0] : {{.*}} -> !mgpu.tmem<128x128xf32>
// CHECK: mgpu.barrier_wait
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[LANE:.*]] : index
// CHECK-NEXT: %[[P0:.*]] = mgpu.tmem_lane_load %[[ACC]][%[[LANE]]] : !mgpu.tmem<128x128xf32> -> vector<32xf32>
// CHECK: vector.store %[[P0]], %[[OUT:.*]][%[[ROW]], %{{.*}}] {alignment = 16 : i64}
// CHECK-NEXT: %[[P1:.*]] = mgpu.tmem_lane_load %[[ACC]][%[[LANE]]] column 32 : !mgpu.tmem<128x128xf32> -> vector<32xf32>
// CHECK: vector.store %[[P1]], %[[OUT]]
// CHECK-NEXT: %[[P2:.*]] = mgpu.tmem_lane_load %[[ACC]][%[[LANE]]] column 64 : !mgpu.tmem<128x128xf32> -> vector<32xf32>
// CHECK: vector.store %[[P2]], %[[OUT]]
// CHECK-NEXT: %[[P3:.*]] = mgpu.tmem_lane_load %[[ACC]][%[[LANE]]] column 96 : !mgpu.tmem<128x128xf32> -> vector<32xf32>
// CHECK: vector.store %[[P3]], %[[OUT]]
// CHECK-NOT: mgpu.tmem_lane_load
// CHECK: mgpu.copy_smem_to_gmem
// CHECK-LABEL: func.func @exchanged
// CHECK: mgpu.tmem_lane_load %{{.*}} : !mgpu.tmem<128x128xf32> -> vector<128xf32>

// The pieces: tcgen05.ld 32x32b.x32 at columns 0, 32, 64 and 96 of the row.
// NVVM-LABEL: func.func @to_smem
// NVVM-COUNT-4: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// NVVM-NOT: nvvm.tcgen05.ld
// NVVM-LABEL: func.func @exchanged

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x128xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x128xf32>
!out = memref<128x128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @to_smem(%o: memref<128x128xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128x128xf32>) scratch [!a, !b, !acc, !out, !bar] {
    ^bb0(%og: memref<128x128xf32>, %as: !a, %bs: !b, %acc: !acc, %os: !out, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      mgpu.tcgen05_mma %acc, %as, %bs accumulate(%false)
          a_transforms #sw b_transforms #sw : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %os[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %os, %og[%c0, %c0] : !out, memref<128x128xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @exchanged(%o: memref<128x128xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128x128xf32>) scratch [!a, !b, !acc, !out, !bar] {
    ^bb0(%og: memref<128x128xf32>, %as: !a, %bs: !b, %acc: !acc, %os: !out, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      %one = arith.constant 1.0 : f32
      mgpu.tcgen05_mma %acc, %as, %bs accumulate(%false)
          a_transforms #sw b_transforms #sw : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      memref.store %one, %og[%c0, %c0] : memref<128x128xf32>
      vector.transfer_write %v, %os[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
    }
    return
  }
}
