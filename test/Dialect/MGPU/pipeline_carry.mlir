// emit_pipeline init_carry and index_map_symbols round-trip.
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>

// CHECK-LABEL: func.func @carry
// CHECK: %{{.*}}:2 = mgpu.emit_pipeline grid [4] ins(%{{.*}} : memref<16x256xf32>) init_carry(%{{.*}}, %{{.*}} : vector<16xf32>, i32) in_specs [#{{.*}}] out_specs [] -> vector<16xf32>, i32 {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: memref<16x64xf32, #gpu.address_space<workgroup>>, %[[S:.*]]: vector<16xf32>, %[[N:.*]]: i32):
// CHECK: mgpu.yield %[[S]], %{{.*}} : vector<16xf32>, i32
func.func @carry(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %c0 = arith.constant 0 : i32
    %r:2 = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero, %c0 : vector<16xf32>, i32)
        in_specs [#cols] out_specs [] -> vector<16xf32>, i32 {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>, %n: i32):
      %one = arith.constant 1 : i32
      %n1 = arith.addi %n, %one : i32
      mgpu.yield %s, %n1 : vector<16xf32>, i32
    }
  }
  return
}

// A warp-specialized pipeline carries too, and its compute_context (JAX's)
// takes the last carries on the compute threads.
#ws_mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#ws_cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
// CHECK-LABEL: func.func @compute_context
// CHECK: mgpu.emit_pipeline grid [4] ins(%{{.*}} : memref<16x256xf32>) init_carry(%{{.*}} : vector<16xf32>) in_specs [#{{.*}}] out_specs [] warp_specialization #mgpu.warp_specialization<memory_registers = 40> -> vector<16xf32> {
// CHECK: mgpu.yield %{{.*}} : vector<16xf32>
// CHECK-NEXT: } compute_context {
// CHECK-NEXT: ^bb0(%[[LAST:.*]]: vector<16xf32>):
// CHECK-NEXT: vector.store %[[LAST]]
func.func @compute_context(%x: memref<16x256xf32>, %o: memref<16xf32>) {
  mgpu.mpmd_map meshes [#ws_mesh] ins(%x : memref<16x256xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%xa: memref<16x256xf32>, %oa: memref<16xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#ws_cols] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
      %sum = vector.multi_reduction <add>, %v, %s [1] : vector<16x64xf32> to vector<16xf32>
      mgpu.yield %sum : vector<16xf32>
    } compute_context {
    ^bb0(%last: vector<16xf32>):
      vector.store %last, %oa[%c0] : memref<16xf32>, vector<16xf32>
    }
  }
  return
}

// JAX's `lambda k: (k, n_i)`: the captured n_i is the maps' symbol s0.
#captured = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k)[s0] -> (s0, k)>>
// CHECK-LABEL: func.func @symbols
// CHECK: mgpu.emit_pipeline grid [4] ins(%{{.*}} : memref<32x256xf32>) in_specs [#{{.*}}] out_specs [] index_map_symbols(%[[N:.*]]) {
func.func @symbols(%x: memref<32x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<32x256xf32>) {
  ^bb0(%xg: memref<32x256xf32>):
    %n = mgpu.program_id 0
    mgpu.emit_pipeline grid [4] ins(%xg : memref<32x256xf32>) in_specs [#captured] out_specs [] index_map_symbols(%n) {
    ^bb0(%k: index, %b: memref<16x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}
