// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// Every example of SPEC section 3, printed, parsed again and checked in the
// custom form (the second mgpu-opt always prints the custom form).

// Attributes are printed once under an alias; defaults are elided.
// CHECK-DAG: #[[MESH:mesh[0-9]*]] = #mgpu.mesh<grid = [4, 2], grid_names = ["i", "j"], cluster = [2], cluster_names = ["c"], num_threads = 2, thread_name = "wg">
// CHECK-DAG: #[[MESH_K:mesh[0-9]*]] = #mgpu.mesh<grid = [3], grid_names = ["k"]>
// CHECK-DAG: #[[MESH_EMPTY:mesh[0-9]*]] = #mgpu.mesh<>
// CHECK-DAG: #[[MESH_4222:mesh[0-9]*]] = #mgpu.mesh<grid = [4, 2], grid_names = ["x", "y"], cluster = [2], cluster_names = ["cl"], num_threads = 2, thread_name = "th">
// CHECK-DAG: #[[PARAMS:compiler_params[0-9]*]] = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 2>
// CHECK-DAG: #[[PARAMS_APPROX:compiler_params[0-9]*]] = #mgpu.compiler_params<approx_math = true>
// CHECK-DAG: #[[PARAMS_4:compiler_params[0-9]*]] = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, parallel, parallel]>
// CHECK-DAG: #[[TARGET:target[0-9]*]] = #mgpu.target<>
// CHECK-DAG: #[[B:block_spec[0-9]*]] = #mgpu.block_spec<shape = [128, 64], index_map = #{{map[0-9]*}}>
// CHECK-DAG: #[[G:block_spec[0-9]*]] = #mgpu.block_spec<shape = [1024], index_map = #{{map[0-9]*}}, memory_space = gmem>
// CHECK-DAG: #[[G2:block_spec[0-9]*]] = #mgpu.block_spec<shape = [1024, 256], index_map = #{{map[0-9]*}}, memory_space = gmem>
// CHECK-DAG: #[[B1:block_spec[0-9]*]] = #mgpu.block_spec<shape = [128], index_map = #{{map[0-9]*}}>
// CHECK-DAG: #[[B0:block_spec[0-9]*]] = #mgpu.block_spec<shape = [1024], index_map = #{{map[0-9]*}}>

#m = #mgpu.mesh<grid = [4, 2], grid_names = ["i", "j"], cluster = [2],
                cluster_names = ["c"], num_threads = 2, thread_name = "wg">
#m1 = #mgpu.mesh<grid = [3], grid_names = ["k"]>
#b = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(d0, d1) -> (d0, 0)>>
#g = #mgpu.block_spec<shape = [1024], index_map = affine_map<(d0) -> (0)>, memory_space = gmem>
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                           max_concurrent_steps = 2, approx_math = false>

// The explicit defaults (sm_90a, extended) print as #mgpu.target<>.
// CHECK: module attributes {mgpu.target = #[[TARGET]]}
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = extended>} {

  // Tensor form, dynamic grid, scratch, params: returns a tensor.
  // CHECK-LABEL: func.func @tensor_form
  // CHECK-SAME: (%[[A:.*]]: tensor<1024x256xf32>, %[[B_:.*]]: tensor<1024x256xf32>, %[[INIT:.*]]: tensor<1024x256xf32>, %[[N:.*]]: index)
  // CHECK: %[[R:.*]] = mgpu.pallas_call grid [%[[N]], 4]
  // CHECK-SAME: ins(%[[A]], %[[B_]] : tensor<1024x256xf32>, tensor<1024x256xf32>)
  // CHECK-SAME: outs(%[[INIT]] : tensor<1024x256xf32>)
  // CHECK-SAME: in_specs [#[[B]], #[[B]]] out_specs [#[[B]]]
  // CHECK-SAME: scratch [memref<128xf32, #gpu.address_space<workgroup>>]
  // CHECK-SAME: params #[[PARAMS]] {
  // CHECK-NEXT: ^bb0(%{{.*}}: memref<128x64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<128x64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<128x64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<128xf32, #gpu.address_space<workgroup>>):
  // CHECK-NEXT: mgpu.program_id 0
  // CHECK-NEXT: mgpu.num_programs 1
  // CHECK-NEXT: } -> tensor<1024x256xf32>
  // CHECK-NEXT: return %[[R]] : tensor<1024x256xf32>
  func.func @tensor_form(%a: tensor<1024x256xf32>, %b: tensor<1024x256xf32>,
                         %init: tensor<1024x256xf32>, %n: index)
      -> tensor<1024x256xf32> {
    %r = mgpu.pallas_call grid [%n, 4]
           ins(%a, %b : tensor<1024x256xf32>, tensor<1024x256xf32>)
           outs(%init : tensor<1024x256xf32>)
           in_specs [#b, #b] out_specs [#b]
           scratch [memref<128xf32, #gpu.address_space<workgroup>>]
           params #p
    {
    ^bb0(%x: memref<128x64xf32, #gpu.address_space<workgroup>>,
         %y: memref<128x64xf32, #gpu.address_space<workgroup>>,
         %o: memref<128x64xf32, #gpu.address_space<workgroup>>,
         %s: memref<128xf32, #gpu.address_space<workgroup>>):
      %i = mgpu.program_id 0
      %n1 = mgpu.num_programs 1
    } -> tensor<1024x256xf32>
    return %r : tensor<1024x256xf32>
  }

  // input_output_aliases: an input passed again as the outs init.
  // CHECK-LABEL: func.func @aliased_output
  // CHECK-SAME: (%[[A:.*]]: tensor<1024xf32>)
  // CHECK: mgpu.pallas_call grid [8] ins(%[[A]] : tensor<1024xf32>) outs(%[[A]] : tensor<1024xf32>) in_specs [#[[B1]]] out_specs [#[[B1]]] {
  // CHECK: } -> tensor<1024xf32>
  func.func @aliased_output(%a: tensor<1024xf32>) -> tensor<1024xf32> {
    %r = mgpu.pallas_call grid [8]
           ins(%a : tensor<1024xf32>) outs(%a : tensor<1024xf32>)
           in_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>]
           out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>]
    {
    ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>,
         %o: memref<128xf32, #gpu.address_space<workgroup>>):
      mgpu.yield
    } -> tensor<1024xf32>
    return %r : tensor<1024xf32>
  }

  // Memref form returns nothing; a GMEM block is the operand's own memref
  // (a tensor's memref without a memory space).
  // CHECK-LABEL: func.func @memref_form
  // CHECK: mgpu.pallas_call grid [1] ins(%{{.*}} : memref<1024xf32>) outs(%{{.*}} : memref<1024x256xf32>) in_specs [#[[G]]] out_specs [#[[G2]]] params #[[PARAMS_APPROX]] {
  // CHECK-NEXT: ^bb0(%{{.*}}: memref<1024xf32>, %{{.*}}: memref<1024x256xf32>):
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  func.func @memref_form(%a: memref<1024xf32>, %o: memref<1024x256xf32>) {
    mgpu.pallas_call grid [1]
        ins(%a : memref<1024xf32>) outs(%o : memref<1024x256xf32>)
        in_specs [#g]
        out_specs [#mgpu.block_spec<shape = [1024, 256], index_map = affine_map<(d0) -> (0, 0)>, memory_space = gmem>]
        params #mgpu.compiler_params<approx_math = true>
    {
    ^bb0(%x: memref<1024xf32>, %y: memref<1024x256xf32>):
    }
    return
  }

  // A mesh whose shape (grid, cluster, threads) is the grid.
  // CHECK-LABEL: func.func @with_mesh
  // CHECK: mgpu.pallas_call grid [4, 2, 2, 2] ins(%{{.*}} : memref<1024xf32>) in_specs [#[[B0]]] out_specs [] scratch [memref<8xi32>] params #[[PARAMS_4]] mesh #[[MESH_4222]] {
  // CHECK: mgpu.axis_index "x"
  // CHECK: mgpu.axis_index "cl"
  // CHECK: mgpu.axis_size "th"
  func.func @with_mesh(%a: memref<1024xf32>) {
    mgpu.pallas_call grid [4, 2, 2, 2]
        ins(%a : memref<1024xf32>)
        in_specs [#mgpu.block_spec<shape = [1024], index_map = affine_map<(d0, d1, d2, d3) -> (0)>>]
        out_specs []
        scratch [memref<8xi32>]
        params #mgpu.compiler_params<dimension_semantics = [parallel, parallel, parallel, parallel]>
        mesh #mgpu.mesh<grid = [4, 2], grid_names = ["x", "y"], cluster = [2],
                        cluster_names = ["cl"], num_threads = 2, thread_name = "th">
    {
    ^bb0(%x: memref<1024xf32, #gpu.address_space<workgroup>>, %s: memref<8xi32>):
      %0 = mgpu.axis_index "x"
      %1 = mgpu.axis_index "cl"
      %2 = mgpu.axis_size "th"
    }
    return
  }

  // An empty grid: a single program.
  // CHECK-LABEL: func.func @empty_grid
  // CHECK: mgpu.pallas_call grid [] in_specs [] out_specs [] {
  // CHECK-NEXT: }
  func.func @empty_grid() {
    mgpu.pallas_call grid [] in_specs [] out_specs [] {
      mgpu.yield
    }
    return
  }

  // Two mesh/function pairs, scratch, external meshes and params; every
  // kernel body op, semaphores included.
  // CHECK-LABEL: func.func @mpmd
  // CHECK-SAME: (%[[A:.*]]: memref<1024xf32>, %[[O:.*]]: memref<1024xf32>)
  // CHECK: mgpu.mpmd_map meshes [#[[MESH]], #[[MESH_K]]] ins(%[[A]] : memref<1024xf32>) outs(%[[O]] : memref<1024xf32>) scratch [memref<8xi32>] external_meshes [#[[MESH_EMPTY]]] params #[[PARAMS_APPROX]] {
  // CHECK-NEXT: ^bb0(%{{.*}}: memref<1024xf32>, %{{.*}}: memref<1024xf32>, %[[S0:.*]]: memref<8xi32>):
  // CHECK-NEXT: %[[PID:.*]] = mgpu.program_id 1
  // CHECK-NEXT: mgpu.num_programs 0
  // CHECK-NEXT: %[[W:.*]] = mgpu.axis_index "wg"
  // CHECK-NEXT: mgpu.axis_size "k"
  // CHECK-NEXT: %[[C:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: mgpu.semaphore_signal %[[S0]][%[[W]]], %[[C]] : memref<8xi32>
  // CHECK-NEXT: mgpu.semaphore_wait %[[S0]][%[[PID]]], %[[C]] : memref<8xi32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^bb0(%{{.*}}: memref<1024xf32>, %{{.*}}: memref<1024xf32>, %{{.*}}: memref<8xi32>):
  // CHECK-NEXT: mgpu.axis_index "k"
  // CHECK-NEXT: mgpu.axis_size "c"
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  func.func @mpmd(%a: memref<1024xf32>, %o: memref<1024xf32>) {
    mgpu.mpmd_map meshes [#m, #m1]
        ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
        scratch [memref<8xi32>]
        external_meshes [#mgpu.mesh<>]
        params #mgpu.compiler_params<approx_math = true>
    {
    ^bb0(%a0: memref<1024xf32>, %o0: memref<1024xf32>, %s0: memref<8xi32>):
      %pid = mgpu.program_id 1
      %np = mgpu.num_programs 0
      %w = mgpu.axis_index "wg"
      %k = mgpu.axis_size "k"
      %c = arith.constant 1 : i32
      mgpu.semaphore_signal %s0[%w], %c : memref<8xi32>
      mgpu.semaphore_wait %s0[%pid], %c : memref<8xi32>
    }, {
    ^bb0(%a1: memref<1024xf32>, %o1: memref<1024xf32>, %s1: memref<8xi32>):
      %k = mgpu.axis_index "k"
      %c = mgpu.axis_size "c"
      mgpu.yield
    }
    return
  }
}
