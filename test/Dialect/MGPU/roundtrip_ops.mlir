// RUN: mgpu-opt %s -split-input-file | mgpu-opt -split-input-file | FileCheck %s
// RUN: mgpu-opt %s -split-input-file --mlir-print-op-generic | mgpu-opt -split-input-file | FileCheck %s
// RUN: mgpu-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// More round trips than roundtrip.mlir: attribute defaults, tensor-form
// mpmd_map, several outputs, rank-0 blocks, and the generic form itself.

// Defaults are elided; non-default values are kept.
// CHECK-DAG: #{{target[0-9]*}} = #mgpu.target<chip = "sm_100a", profile = jax>
// CHECK-DAG: #{{compiler_params[0-9]*}} = #mgpu.compiler_params<>
// CHECK-DAG: #{{mesh[0-9]*}} = #mgpu.mesh<cluster = [1, 2, 1], cluster_names = ["a", "b", "c"], num_threads = 8, thread_name = "wg">
// CHECK-DAG: #{{block_spec[0-9]*}} = #mgpu.block_spec<shape = [], index_map = #{{map[0-9]*}}>
// CHECK-LABEL: func.func @defaults
// GENERIC-LABEL: sym_name = "defaults"
// GENERIC: "mgpu.pallas_call"(%{{.*}}) <{in_specs = [#{{block_spec[0-9]*}}], operandSegmentSizes = array<i32: 0, 1, 0>, out_specs = [], params = #{{compiler_params[0-9]*}}, static_grid = array<i64: 2>}>
// GENERIC: "mgpu.yield"() : () -> ()
// GENERIC: }) : (memref<f32>) -> ()
// GENERIC: "mgpu.mpmd_map"() <{meshes = [#{{mesh[0-9]*}}], operandSegmentSizes = array<i32: 0, 0>}>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a", profile = jax>} {
  func.func @defaults(%a: memref<f32>) {
    // CHECK: mgpu.pallas_call grid [2] ins(%{{.*}} : memref<f32>) in_specs [#{{block_spec[0-9]*}}] out_specs [] params #{{compiler_params[0-9]*}} {
    // CHECK-NEXT: ^bb0(%{{.*}}: memref<f32, #gpu.address_space<workgroup>>):
    // CHECK-NEXT: }
    mgpu.pallas_call grid [2] ins(%a : memref<f32>)
        in_specs [#mgpu.block_spec<shape = [], index_map = affine_map<(d0) -> ()>, memory_space = smem>]
        out_specs [] params #mgpu.compiler_params<max_concurrent_steps = 1, approx_math = false> {
    ^bb0(%x: memref<f32, #gpu.address_space<workgroup>>):
      mgpu.yield
    }
    // CHECK: mgpu.mpmd_map meshes [#{{mesh[0-9]*}}] {
    // CHECK: mgpu.axis_index "wg"
    // CHECK: mgpu.axis_size "b"
    mgpu.mpmd_map meshes [#mgpu.mesh<cluster = [1, 2, 1], cluster_names = ["a", "b", "c"],
                                     num_threads = 8, thread_name = "wg">] {
      %w = mgpu.axis_index "wg"
      %b = mgpu.axis_size "b"
    }
    return
  }
}

// -----

// A dynamic grid size is a kDynamic entry of static_grid plus an operand.
// CHECK-LABEL: func.func @dynamic_grid
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: mgpu.pallas_call grid [%[[N]], 2, %[[M]]] in_specs [] out_specs [] {
// GENERIC-LABEL: sym_name = "dynamic_grid"
// GENERIC: "mgpu.pallas_call"(%{{.*}}, %{{.*}}) <{in_specs = [], operandSegmentSizes = array<i32: 2, 0, 0>, out_specs = [], static_grid = array<i64: -9223372036854775808, 2, -9223372036854775808>}>
func.func @dynamic_grid(%n: index, %m: index) {
  mgpu.pallas_call grid [%n, 2, %m] in_specs [] out_specs [] {
    %0 = mgpu.program_id 2
    %1 = mgpu.num_programs 0
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [8, 128], index_map = affine_map<(d0, d1) -> (d0, d1)>>
#g = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(d0, d1) -> (0, 0)>, memory_space = gmem>
// Several tensor outputs, one of them aliasing an input, with mixed smem and
// gmem blocks.
// CHECK-LABEL: func.func @multi_out
// CHECK-SAME: (%[[A:.*]]: tensor<64x256xf16>, %[[B:.*]]: tensor<64x256xf16>)
// CHECK: %[[R:.*]]:2 = mgpu.pallas_call grid [8, 2] ins(%[[A]] : tensor<64x256xf16>) outs(%[[B]], %[[A]] : tensor<64x256xf16>, tensor<64x256xf16>) in_specs [#[[BS:block_spec[0-9]*]]] out_specs [#[[BS]], #{{block_spec[0-9]*}}] {
// CHECK-NEXT: ^bb0(%{{.*}}: memref<8x128xf16, #gpu.address_space<workgroup>>, %{{.*}}: memref<8x128xf16, #gpu.address_space<workgroup>>, %{{.*}}: memref<64x256xf16>):
// CHECK: } -> tensor<64x256xf16>, tensor<64x256xf16>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @multi_out(%a: tensor<64x256xf16>, %b: tensor<64x256xf16>)
    -> (tensor<64x256xf16>, tensor<64x256xf16>) {
  %r:2 = mgpu.pallas_call grid [8, 2] ins(%a : tensor<64x256xf16>)
      outs(%b, %a : tensor<64x256xf16>, tensor<64x256xf16>)
      in_specs [#b] out_specs [#b, #g] {
  ^bb0(%x: memref<8x128xf16, #gpu.address_space<workgroup>>,
       %y: memref<8x128xf16, #gpu.address_space<workgroup>>,
       %z: memref<64x256xf16>):
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0, %c0] : memref<8x128xf16, #gpu.address_space<workgroup>>
    memref.store %v, %y[%c0, %c0] : memref<8x128xf16, #gpu.address_space<workgroup>>
  } -> tensor<64x256xf16>, tensor<64x256xf16>
  return %r#0, %r#1 : tensor<64x256xf16>, tensor<64x256xf16>
}

// -----

// Tensor-form mpmd_map: every region sees memrefs, the op returns tensors.
// CHECK-LABEL: func.func @mpmd_tensor
// CHECK: %{{.*}} = mgpu.mpmd_map meshes [#{{mesh[0-9]*}}, #{{mesh[0-9]*}}] ins(%{{.*}} : tensor<256xf32>) outs(%{{.*}} : tensor<256xf32>) scratch [memref<2xi32>] {
// CHECK-NEXT: ^bb0(%{{.*}}: memref<256xf32>, %{{.*}}: memref<256xf32>, %{{.*}}: memref<2xi32>):
// CHECK: }, {
// CHECK-NEXT: ^bb0(%{{.*}}: memref<256xf32>, %{{.*}}: memref<256xf32>, %{{.*}}: memref<2xi32>):
// CHECK: } -> tensor<256xf32>
// GENERIC-LABEL: sym_name = "mpmd_tensor"
// GENERIC: "mgpu.mpmd_map"(%{{.*}}, %{{.*}}) <{meshes = [#{{mesh[0-9]*}}, #{{mesh[0-9]*}}], operandSegmentSizes = array<i32: 1, 1>, scratch = [memref<2xi32>]}> ({
// GENERIC: }) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
func.func @mpmd_tensor(%a: tensor<256xf32>, %o: tensor<256xf32>) -> tensor<256xf32> {
  %r = mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["x"]>,
                             #mgpu.mesh<grid = [2], grid_names = ["x"], num_threads = 2, thread_name = "t">]
      ins(%a : tensor<256xf32>) outs(%o : tensor<256xf32>) scratch [memref<2xi32>] {
  ^bb0(%a0: memref<256xf32>, %o0: memref<256xf32>, %s0: memref<2xi32>):
    %x = mgpu.axis_index "x"
    %c1 = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%x], %c1 : memref<2xi32>
  }, {
  ^bb0(%a1: memref<256xf32>, %o1: memref<256xf32>, %s1: memref<2xi32>):
    %x = mgpu.axis_index "x"
    %t = mgpu.axis_index "t"
    %c1 = arith.constant 1 : i32
    mgpu.semaphore_wait %s1[%x], %c1 : memref<2xi32>
    mgpu.yield
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// Rank-2 semaphores, a kernel with no operands, and discardable attributes of
// other dialects kept on the op.
// CHECK-LABEL: func.func @semaphores_2d
// CHECK: mgpu.mpmd_map meshes [#{{mesh[0-9]*}}] scratch [memref<4x4xi32>] attributes {test.tag = 1 : i64} {
// CHECK: mgpu.semaphore_signal %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<4x4xi32>
// CHECK: mgpu.semaphore_wait %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<4x4xi32>
func.func @semaphores_2d() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [4, 4], grid_names = ["g0", "g1"]>] scratch [memref<4x4xi32>] attributes {test.tag = 1 : i64} {
  ^bb0(%s: memref<4x4xi32>):
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %c1 = arith.constant 1 : i32
    mgpu.semaphore_signal %s[%i, %j], %c1 : memref<4x4xi32>
    mgpu.semaphore_wait %s[%j, %i], %c1 : memref<4x4xi32>
  }
  return
}
