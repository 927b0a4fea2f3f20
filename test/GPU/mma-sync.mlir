// RUN: mgpu-opt %s --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --cse | FileCheck %s
// RUN: mgpu-opt %s --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups="mma-sync=0" --cse | FileCheck %s --check-prefix=LANES

// mgpu.mma distributed: a, b and the accumulator staged in the warpgroup
// scratch, then warp w (lane / 32) computes rows 16 w .. 16 w + 15 of the
// 64 x 64 result, 16 x 8 tiles along N (8 of them) and K in steps of 16
// (4), with mgpu.mma_sync (m16n8k16) on f16 fragments; its sums written back in place
// and read back into the lanes' layout after a barrier. With mma-sync=0
// (tensor cores off) no mma_sync: each lane sums its elements over K.

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @mma(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %o: memref<64x64xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
        outs(%o : memref<64x64xf32>) {
    ^bb0(%ag: memref<64x64xf16>, %bg: memref<64x64xf16>, %og: memref<64x64xf32>):
      %c0 = arith.constant 0 : index
      %av = vector.load %ag[%c0, %c0] : memref<64x64xf16>, vector<64x64xf16>
      %bv = vector.load %bg[%c0, %c0] : memref<64x64xf16>, vector<64x64xf16>
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %d = mgpu.mma %zero, %av, %bv : vector<64x64xf32>, vector<64x64xf16>, vector<64x64xf16>
      vector.store %d, %og[%c0, %c0] : memref<64x64xf32>, vector<64x64xf32>
    }
    return
  }
}

// CHECK-LABEL: func.func @mma
// CHECK: mgpu.launch
// CHECK: mgpu.warpgroup_barrier
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: %[[SUMS:.*]] = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
// CHECK-COUNT-4: vector.load %{{.*}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: vector.shuffle
// CHECK: %[[D:.*]] = mgpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>, vector<4xf16>
// CHECK: scf.yield %[[D]] : vector<4xf32>
// CHECK-COUNT-4: vector.extract %[[SUMS]][{{[0-3]}}]
// CHECK: mgpu.warpgroup_barrier

// LANES-LABEL: func.func @mma
// LANES-NOT: mgpu.mma_sync
// LANES: arith.extf
// LANES-NOT: mgpu.mma_sync
