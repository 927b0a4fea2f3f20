// emit_pipeline init_carry round-trips.
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
