// --mgpu-lower-run-scoped: a scope's buffers and barriers become internal
// scratch of its kernel, its accumulators zero vectors, and its region is
// inlined with its results replaced by what it yields. Nested scopes land
// in the same kernel, after the user's scratch.
// RUN: mgpu-opt %s --mgpu-lower-run-scoped -split-input-file | FileCheck %s

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @scopes(%x: memref<64x64xf16>, %o: memref<64x64xf32>) {
  mgpu.mpmd_map meshes [#one] ins(%x : memref<64x64xf16>) outs(%o : memref<64x64xf32>) {
  ^bb0(%gx: memref<64x64xf16>, %go: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %acc = mgpu.run_scoped -> vector<64x64xf32> {
    ^bb0(%buf: !smem, %bar: !mgpu.barrier<count = 1>, %zero: vector<64x64xf32>):
      mgpu.copy_gmem_to_smem %gx, %buf, %bar[%c0] : memref<64x64xf16>, !smem, !mgpu.barrier<count = 1>
      mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
      %d = mgpu.wgmma %zero, %buf, %buf : vector<64x64xf32>, !smem, !smem
      mgpu.wgmma_wait 0
      mgpu.yield %d : vector<64x64xf32>
    }
    vector.transfer_write %acc, %go[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  }
  return
}
// CHECK-LABEL: func.func @scopes
// CHECK: mgpu.mpmd_map {{.*}} scratch [memref<64x64xf16, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>] attributes {mgpu.internal_scratch = 2 : i64}
// CHECK-NEXT: ^bb0(%[[X:.*]]: memref<64x64xf16>, %[[O:.*]]: memref<64x64xf32>, %[[BUF:.*]]: memref<64x64xf16, #gpu.address_space<workgroup>>, %[[BAR:.*]]: !mgpu.barrier<count = 1>):
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<64x64xf32>
// CHECK: mgpu.copy_gmem_to_smem %[[X]], %[[BUF]], %[[BAR]]
// CHECK: %[[D:.*]] = mgpu.wgmma %[[ZERO]], %[[BUF]], %[[BUF]]
// CHECK-NOT: mgpu.run_scoped
// CHECK: vector.transfer_write %[[D]], %[[O]]

// -----

// A pallas_call's scratch keeps the user's entries first.
#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
func.func @nested(%x: memref<128xf32>, %o: memref<128xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<128xf32>) outs(%o : memref<128xf32>)
      in_specs [#b] out_specs [#b] scratch [memref<4xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%xs: memref<64xf32, #gpu.address_space<workgroup>>, %os: memref<64xf32, #gpu.address_space<workgroup>>,
       %user: memref<4xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = mgpu.run_scoped -> vector<64xf32> {
    ^bb0(%outer: memref<64xf32, #gpu.address_space<workgroup>>):
      %w = mgpu.run_scoped -> vector<64xf32> {
      ^bb0(%inner: memref<64xf32, #gpu.address_space<workgroup>>):
        %r = vector.load %xs[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        vector.store %r, %inner[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        %s = vector.load %inner[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
        mgpu.yield %s : vector<64xf32>
      }
      vector.store %w, %outer[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
      %t = vector.load %outer[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
      mgpu.yield %t : vector<64xf32>
    }
    vector.store %v, %os[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
  }
  return
}
// CHECK-LABEL: func.func @nested
// CHECK: scratch [memref<4xi32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>] attributes {mgpu.internal_scratch = 2 : i64}
// CHECK-NEXT: ^bb0(%{{.*}}: memref<64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<4xi32, #gpu.address_space<workgroup>>, %[[INNER:.*]]: memref<64xf32, #gpu.address_space<workgroup>>, %[[OUTER:.*]]: memref<64xf32, #gpu.address_space<workgroup>>):
// CHECK: vector.store %{{.*}}, %[[INNER]]
// CHECK: %[[S:.*]] = vector.load %[[INNER]]
// CHECK: vector.store %[[S]], %[[OUTER]]
// CHECK-NOT: mgpu.run_scoped
