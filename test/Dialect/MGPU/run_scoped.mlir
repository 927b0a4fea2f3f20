// mgpu.run_scoped round-trips: buffers and barriers (collective in a
// multithreaded kernel), accumulators, results, an empty scope.
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
#two = #mgpu.mesh<grid = [1], grid_names = ["g"], num_threads = 2, thread_name = "wg">
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @scopes
func.func @scopes(%x: memref<64x64xf16>) {
  mgpu.mpmd_map meshes [#one] ins(%x : memref<64x64xf16>) {
  ^bb0(%gx: memref<64x64xf16>):
    // CHECK: %[[ACC:.*]] = mgpu.run_scoped -> vector<64x64xf32> {
    // CHECK-NEXT: ^bb0(%{{.*}}: memref<64x64xf16, #gpu.address_space<workgroup>>, %{{.*}}: !mgpu.barrier<count = 1>, %[[Z:.*]]: vector<64x64xf32>):
    // CHECK: mgpu.yield %[[Z]] : vector<64x64xf32>
    %acc = mgpu.run_scoped -> vector<64x64xf32> {
    ^bb0(%buf: !smem, %bar: !mgpu.barrier<count = 1>, %zero: vector<64x64xf32>):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %gx, %buf, %bar[%c0] : memref<64x64xf16>, !smem, !mgpu.barrier<count = 1>
      mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
      mgpu.yield %zero : vector<64x64xf32>
    }
    // CHECK: mgpu.run_scoped {
    // CHECK-NEXT: ^bb0(%{{.*}}: memref<16xf32, #gpu.address_space<workgroup>>):
    // CHECK-NEXT: }
    mgpu.run_scoped {
    ^bb0(%scratch: memref<16xf32, #gpu.address_space<workgroup>>):
    }
  }
  mgpu.mpmd_map meshes [#two] {
    // CHECK: mgpu.run_scoped collective_axes ["wg"] {
    mgpu.run_scoped collective_axes ["wg"] {
    ^bb0(%buf: !smem):
    }
    // Accumulators are per thread: no collective_axes.
    // CHECK: mgpu.run_scoped -> vector<64x8xf32>
    %acc = mgpu.run_scoped -> vector<64x8xf32> {
    ^bb0(%zero: vector<64x8xf32>):
      mgpu.yield %zero : vector<64x8xf32>
    }
  }
  return
}
