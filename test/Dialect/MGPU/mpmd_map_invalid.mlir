// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// mpmd_map rules S2, S7-S10, S22, S26 and the structural checks.

// S2: a mesh that is not a #mgpu.mesh.
func.func @s2_mesh() {
  // expected-error @+2 {{Mesh "tpu" is not supported by the Mosaic GPU backend}}
  // expected-note @+1 {{use a #mgpu.mesh<...> attribute}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>, "tpu"] {
  }, {
  }
  return
}

// -----

// S2: an external mesh that is not a #mgpu.mesh.
func.func @s2_external_mesh() {
  // expected-error @+2 {{Mesh 4 : i64 is not supported by the Mosaic GPU backend}}
  // expected-note @+1 {{use a #mgpu.mesh<...> attribute}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g1"]>] external_meshes [4] {
  }
  return
}

// -----

// S7: no mesh and no region.
func.func @s7_no_pair() {
  // expected-error @+1 {{At least one mesh/function pair is required}}
  mgpu.mpmd_map meshes []
  return
}

// -----

// S7: a mesh but no region.
func.func @s7_no_region() {
  // expected-error @+1 {{At least one mesh/function pair is required}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g2"]>]
  return
}

// -----

// S8: two meshes, one region.
func.func @s8_fewer_regions() {
  // expected-error @+2 {{expected 2 regions, one per mesh, got 1}}
  // expected-note @+1 {{mesh i runs region i: give one region per mesh}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g3"]>, #mgpu.mesh<grid = [4], grid_names = ["g4"]>] {
  }
  return
}

// -----

// S8: one mesh, three regions.
func.func @s8_more_regions() {
  // expected-error @+2 {{expected 1 regions, one per mesh, got 3}}
  // expected-note @+1 {{mesh i runs region i}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g5"]>] {
  }, {
  }, {
  }
  return
}

// -----

// S8: regions without meshes.
func.func @s8_no_mesh() {
  // expected-error @+2 {{expected 0 regions, one per mesh, got 1}}
  // expected-note @+1 {{mesh i runs region i}}
  mgpu.mpmd_map meshes [] {
  }
  return
}

// -----

// S9: mpmd_map is not pipelined.
func.func @s9_dimension_semantics() {
  // expected-error @+2 {{dimension_semantics= is not supported by the unpipelined lowering}}
  // expected-note @+1 {{mpmd_map is not pipelined: remove dimension_semantics from params}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g6"]>]
      params #mgpu.compiler_params<dimension_semantics = [parallel]> {
  }
  return
}

// -----

// S10: two meshes disagree on the size of axis "i".
func.func @s10_conflicting_axis() {
  // expected-error @+1 {{Conflicting size for axis i: 4 and 2}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [4], grid_names = ["i"]>,
                        #mgpu.mesh<grid = [2], grid_names = ["i"]>] {
  }, {
  }
  return
}

// -----

// S10: a thread axis of one mesh against a cluster axis of an external mesh.
func.func @s10_external() {
  // expected-error @+1 {{Conflicting size for axis wg: 2 and 3}}
  mgpu.mpmd_map meshes [#mgpu.mesh<num_threads = 2, thread_name = "wg">]
      external_meshes [#mgpu.mesh<cluster = [3], cluster_names = ["wg"]>] {
  }
  return
}

// -----

// S22: region #1 lacks the scratch argument.
func.func @s22_region_arg_count(%a: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.mpmd_map' op region #1 has 1 arguments, expected 2 (one per input, output and scratch buffer)}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g7"]>, #mgpu.mesh<grid = [2], grid_names = ["g8"]>]
      ins(%a : memref<1024xf32>) scratch [memref<8xi32>] {
  ^bb0(%a0: memref<1024xf32>, %s0: memref<8xi32>):
  }, {
  ^bb0(%a1: memref<1024xf32>):
  }
  return
}

// -----

// S22: every region sees whole arrays in GMEM, never staged blocks.
func.func @s22_region_arg_type(%a: memref<1024xf32>, %o: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.mpmd_map' op region #0 argument #1 (for outs[0]) has type 'memref<128xf32, #gpu.address_space<workgroup>>', expected 'memref<1024xf32>'}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [8], grid_names = ["g9"]>]
      ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>) {
  ^bb0(%a0: memref<1024xf32>, %o0: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S22: a tensor operand is seen as a memref of the same shape.
func.func @s22_tensor_operand(%o: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mgpu.mpmd_map' op region #0 argument #0 (for outs[0]) has type 'tensor<16xf32>', expected 'memref<16xf32>'}}
  %r = mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g10"]>] outs(%o : tensor<16xf32>) {
  ^bb0(%o0: tensor<16xf32>):
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// S22: the scratch argument has the scratch type.
func.func @s22_scratch_type() {
  // expected-error @+1 {{'mgpu.mpmd_map' op region #0 argument #0 (for scratch[0]) has type 'memref<8xi64>', expected 'memref<8xi32>'}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g11"]>] scratch [memref<8xi32>] {
  ^bb0(%s: memref<8xi64>):
  }
  return
}

// -----

// Scratch buffers are statically shaped memrefs.
func.func @scratch_dynamic() {
  // expected-error @+1 {{'mgpu.mpmd_map' op scratch[0] must be a statically shaped memref, a !mgpu.barrier, a !mgpu.cluster_barrier or a !mgpu.tmem, got 'memref<?xi32>'}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g12"]>] scratch [memref<?xi32>] {
  ^bb0(%s: memref<?xi32>):
  }
  return
}

// -----

// S26: an mpmd_map in a pallas_call body.
func.func @s26_nested() {
  // expected-note @+1 {{enclosing kernel is here}}
  mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    // expected-error @+1 {{'mgpu.mpmd_map' op cannot be nested inside 'mgpu.pallas_call': kernels are launched from host code}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g13"]>] {
    }
  }
  return
}

// -----

// S26: an mpmd_map in an mpmd_map region.
func.func @s26_nested_mpmd() {
  // expected-note @+1 {{enclosing kernel is here}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g14"]>, #mgpu.mesh<grid = [2], grid_names = ["g15"]>] {
  }, {
    // expected-error @+1 {{'mgpu.mpmd_map' op cannot be nested inside 'mgpu.mpmd_map': kernels are launched from host code}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g16"]>] {
    }
  }
  return
}

// -----

// S26: an mpmd_map directly in the module.
// expected-error @+1 {{'mgpu.mpmd_map' op must be inside a host function}}
mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g17"]>] {
}

// -----

// Mixed tensor and memref operands.
func.func @mixed_forms(%a: memref<16xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mgpu.mpmd_map' op expects ins and outs to be all tensors or all memrefs}}
  %r = mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g18"]>]
      ins(%a : memref<16xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%a0: memref<16xf32>, %o0: memref<16xf32>):
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Destination style: one tensor result per tensor output.
func.func @dps_result_count(%o: tensor<16xf32>) {
  // expected-error @+1 {{'mgpu.mpmd_map' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g19"]>] outs(%o : tensor<16xf32>) {
  ^bb0(%o0: memref<16xf32>):
  }
  return
}

// -----

// Destination style: the result has the type of its init.
func.func @dps_result_type(%o: tensor<16xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mgpu.mpmd_map' op expected type of operand #0 ('tensor<16xf32>') to match type of corresponding result ('tensor<8xf32>')}}
  %r = mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g20"]>] outs(%o : tensor<16xf32>) {
  ^bb0(%o0: memref<16xf32>):
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Regions are isolated from above.
func.func @isolated(%n: index) {
  // expected-note @+1 {{required by region isolation constraints}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["g21"]>] {
    // expected-error @+1 {{'arith.addi' op using value defined outside the region}}
    %x = arith.addi %n, %n : index
  }
  return
}
