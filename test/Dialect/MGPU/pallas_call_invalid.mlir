// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// pallas_call rules S1, S11, S18-S22, S26 and the structural checks (operand
// form, destination style, grid sizes, scratch types).

// S1: the mesh is not a #mgpu.mesh.
func.func @s1_mesh_not_a_mesh() {
  // expected-error @+2 {{Mesh "tpu_mesh" is not supported by the Mosaic GPU backend}}
  // expected-note @+1 {{use a #mgpu.mesh<...> attribute}}
  mgpu.pallas_call grid [4] in_specs [] out_specs [] mesh "tpu_mesh" {
  }
  return
}

// -----

// S1: another dialect's attribute as the mesh.
func.func @s1_mesh_other_dialect() {
  // expected-error @+2 {{Mesh #gpu.address_space<workgroup> is not supported by the Mosaic GPU backend}}
  // expected-note @+1 {{use a #mgpu.mesh<...> attribute}}
  mgpu.pallas_call grid [4] in_specs [] out_specs [] mesh #gpu.address_space<workgroup> {
  }
  return
}

// -----

// S11: the mesh shape is (grid, cluster, threads) = (4, 2, 2).
func.func @s11_mesh_shape() {
  // expected-error @+2 {{Mesh shape (4, 2, 2) does not match grid shape (4, 2).}}
  // expected-note @+1 {{the grid must list the mesh's grid, cluster and thread sizes in order}}
  mgpu.pallas_call grid [4, 2] in_specs [] out_specs []
      mesh #mgpu.mesh<grid = [4], grid_names = ["g0"], cluster = [2], cluster_names = ["c1"], num_threads = 2, thread_name = "wg"> {
  }
  return
}

// -----

// S11: same sizes in another order.
func.func @s11_mesh_order() {
  // expected-error @+2 {{Mesh shape (8,) does not match grid shape (4,).}}
  // expected-note @+1 {{the grid must list}}
  mgpu.pallas_call grid [4] in_specs [] out_specs [] mesh #mgpu.mesh<grid = [8], grid_names = ["g2"]> {
  }
  return
}

// -----

// S11: a dynamic grid size never matches a mesh.
func.func @s11_dynamic(%n: index) {
  // expected-error @+2 {{Mesh shape (4,) does not match grid shape (?,).}}
  // expected-note @+1 {{the grid must list}}
  mgpu.pallas_call grid [%n] in_specs [] out_specs [] mesh #mgpu.mesh<grid = [4], grid_names = ["g3"]> {
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S18: more in_specs than inputs.
func.func @s18_in_specs(%a: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op expects one in_spec per input: got 2 in_specs for 1 inputs}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024xf32>) in_specs [#b, #b] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S18: an output without an out_spec.
func.func @s18_out_specs(%o: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op expects one out_spec per output: got 0 out_specs for 1 outputs}}
  mgpu.pallas_call grid [8] outs(%o : memref<1024xf32>) in_specs [] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// A spec that is not a #mgpu.block_spec.
func.func @spec_not_block_spec(%a: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op expects ins[0] to have a #mgpu.block_spec, got [128]}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024xf32>) in_specs [[128]] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// A pallas_call's index maps take its grid indices alone (JAX's index
// maps of a pallas_call close over no traced value).
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0)[s0] -> (d0 + s0)>>
func.func @index_map_symbols(%a: memref<1024xf32>) {
  // expected-error @+2 {{'mgpu.pallas_call' op block index_map must not have symbols, got affine_map<(d0)[s0] -> (d0 + s0)>}}
  // expected-note @+1 {{a pallas_call's index maps take its grid indices alone; an emit_pipeline binds captured values with index_map_symbols(..)}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S19: block rank 1, array rank 2.
func.func @s19_block_rank(%a: memref<1024x256xf32>) {
  // expected-error @+1 {{Block shape for ins[0] (= (128,)) must have the same number of dimensions as the array shape (1024, 256).}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024x256xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
#b2 = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(d0) -> (d0, 0)>>
// S19 on an output, named outs[1].
func.func @s19_block_rank_out(%a: tensor<1024xf32>, %o: tensor<1024xf32>)
    -> (tensor<1024xf32>, tensor<1024xf32>) {
  // expected-error @+1 {{Block shape for outs[1] (= (128, 64)) must have the same number of dimensions as the array shape (1024,).}}
  %r:2 = mgpu.pallas_call grid [8] outs(%a, %o : tensor<1024xf32>, tensor<1024xf32>)
      in_specs [] out_specs [#b, #b2] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>,
       %y: memref<128x64xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>, tensor<1024xf32>
  return %r#0, %r#1 : tensor<1024xf32>, tensor<1024xf32>
}

// -----

#b = #mgpu.block_spec<shape = [8, 64], index_map = affine_map<(i) -> (i, 0)>>
// An empty array: its blocks would have an empty dimension, which no block
// spec describes (--mgpu-expand-pipelines made a gmem block spec of shape
// (0, 64), invalid IR).
func.func @empty_array(%x: tensor<0x64xf32>, %o: tensor<0x64xf32>) -> tensor<0x64xf32> {
  // expected-error @+1 {{'mgpu.pallas_call' op expects ins[0] to have elements, got shape (0, 64)}}
  %r = mgpu.pallas_call grid [1] ins(%x : tensor<0x64xf32>) outs(%o : tensor<0x64xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%a: memref<8x64xf32, #gpu.address_space<workgroup>>, %c: memref<8x64xf32, #gpu.address_space<workgroup>>):
  } -> tensor<0x64xf32>
  return %r : tensor<0x64xf32>
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S19: the index map takes 1 grid index, the grid has rank 2.
func.func @s19_index_map_dims(%a: memref<1024xf32>) {
  // expected-error @+2 {{'mgpu.pallas_call' op index_map of ins[0] takes 1 grid indices, but the grid has rank 2}}
  // expected-note @+1 {{an index map takes one dimension per grid axis}}
  mgpu.pallas_call grid [8, 2] ins(%a : memref<1024xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S19: the empty grid has rank 0.
func.func @s19_index_map_empty_grid(%a: memref<1024xf32>) {
  // expected-error @+2 {{'mgpu.pallas_call' op index_map of ins[0] takes 1 grid indices, but the grid has rank 0}}
  // expected-note @+1 {{an index map takes one dimension per grid axis}}
  mgpu.pallas_call grid [] ins(%a : memref<1024xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#g = #mgpu.block_spec<shape = [512], index_map = affine_map<(d0) -> (0)>, memory_space = gmem>
// S20: a GMEM block smaller than the array.
func.func @s20_gmem_window(%a: memref<1024xf32>) {
  // expected-error @+2 {{Mosaic GPU lowering currently requires blocks in GMEM memory space to have same block shape as the array shape and a trivial index_map (returning all 0s).}}
  // expected-note @+1 {{for ins[0] use shape = (1024,) with an all-zero index map, or memory_space = smem to stage a window}}
  mgpu.pallas_call grid [2] ins(%a : memref<1024xf32>) in_specs [#g] out_specs [] {
  ^bb0(%x: memref<1024xf32>):
  }
  return
}

// -----

#g = #mgpu.block_spec<shape = [1024, 256], index_map = affine_map<(d0) -> (d0, 0)>, memory_space = gmem>
// S20: a GMEM block with a non-trivial index map.
func.func @s20_gmem_index_map(%o: tensor<1024x256xf32>) -> tensor<1024x256xf32> {
  // expected-error @+2 {{Mosaic GPU lowering currently requires blocks in GMEM memory space to have same block shape as the array shape and a trivial index_map (returning all 0s).}}
  // expected-note @+1 {{for outs[0] use shape = (1024, 256)}}
  %r = mgpu.pallas_call grid [2] outs(%o : tensor<1024x256xf32>) in_specs [] out_specs [#g] {
  ^bb0(%x: memref<1024x256xf32>):
  } -> tensor<1024x256xf32>
  return %r : tensor<1024x256xf32>
}

// -----

#p = #mgpu.compiler_params<dimension_semantics = [parallel]>
// S21: one semantics for a rank-2 grid.
func.func @s21_dimension_semantics() {
  // expected-error @+1 {{'mgpu.pallas_call' op dimension_semantics has 1 entries, but the grid has rank 2}}
  mgpu.pallas_call grid [4, 4] in_specs [] out_specs [] params #p {
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S22: one argument missing (no output block).
func.func @s22_arg_count(%a: memref<1024xf32>, %o: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op body has 1 arguments, expected 2 (one per input, output and scratch buffer)}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S22: no block at all written for an op with a scratch buffer: the implicit
// block has no arguments.
func.func @s22_implicit_block() {
  // expected-error @+1 {{'mgpu.pallas_call' op body has 0 arguments, expected 1 (one per input, output and scratch buffer)}}
  mgpu.pallas_call grid [8] in_specs [] out_specs []
      scratch [memref<128xf32, #gpu.address_space<workgroup>>] {
    %i = mgpu.program_id 0
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S22: a staged block lives in shared memory.
func.func @s22_staged_type(%a: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op body argument #0 (for ins[0]) has type 'memref<128xf32>', expected 'memref<128xf32, #gpu.address_space<workgroup>>'}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<128xf32>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// S22: the block has the window's shape, not the array's.
func.func @s22_staged_shape(%o: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'mgpu.pallas_call' op body argument #0 (for outs[0]) has type 'memref<1024xf32, #gpu.address_space<workgroup>>', expected 'memref<128xf32, #gpu.address_space<workgroup>>'}}
  %r = mgpu.pallas_call grid [8] outs(%o : tensor<1024xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<1024xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

#g = #mgpu.block_spec<shape = [1024], index_map = affine_map<(d0) -> (0)>, memory_space = gmem>
// S22: a GMEM block of a tensor is a plain memref, not a tensor.
func.func @s22_gmem_type(%a: tensor<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op body argument #0 (for ins[0]) has type 'tensor<1024xf32>', expected 'memref<1024xf32>'}}
  mgpu.pallas_call grid [8] ins(%a : tensor<1024xf32>) in_specs [#g] out_specs [] {
  ^bb0(%x: tensor<1024xf32>):
  }
  return
}

// -----

// S22: a scratch argument of the wrong element type.
func.func @s22_scratch_type() {
  // expected-error @+1 {{'mgpu.pallas_call' op body argument #0 (for scratch[0]) has type 'memref<128xi32, #gpu.address_space<workgroup>>', expected 'memref<128xf32, #gpu.address_space<workgroup>>'}}
  mgpu.pallas_call grid [8] in_specs [] out_specs []
      scratch [memref<128xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<128xi32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// Scratch buffers have a static shape.
func.func @scratch_dynamic() {
  // expected-error @+1 {{'mgpu.pallas_call' op scratch[0] must be a statically shaped memref, a !mgpu.barrier, a !mgpu.cluster_barrier or a !mgpu.tmem, got 'memref<?xf32, #gpu.address_space<workgroup>>'}}
  mgpu.pallas_call grid [8] in_specs [] out_specs []
      scratch [memref<?xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<?xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// Scratch buffers are memrefs.
func.func @scratch_tensor() {
  // expected-error @+1 {{'mgpu.pallas_call' op scratch[0] must be a statically shaped memref, a !mgpu.barrier, a !mgpu.cluster_barrier or a !mgpu.tmem, got 'tensor<8xf32>'}}
  mgpu.pallas_call grid [8] in_specs [] out_specs [] scratch [tensor<8xf32>] {
  ^bb0(%s: tensor<8xf32>):
  }
  return
}

// -----

// Scratch lives in global or shared memory: a thread's private memory is
// no buffer a kernel can be given (found by utils/fuzz.py: interpret mode
// printed an error without a location and exited 0).
func.func @scratch_private() {
  // expected-error @+1 {{'mgpu.pallas_call' op scratch[0] must be in global memory (no memory space) or shared memory (#gpu.address_space<workgroup>), got 'memref<8xf32, #gpu.address_space<private>>'}}
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<8xf32, #gpu.address_space<private>>] {
  ^bb0(%s: memref<8xf32, #gpu.address_space<private>>):
  }
  return
}

// -----

// Host code passes arrays in global memory.
#blk = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>>
func.func @operand_shared(%x: memref<8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'mgpu.pallas_call' op operand #0 must be a memref in global memory (no memory space), got 'memref<8xf32, #gpu.address_space<workgroup>>'}}
  mgpu.pallas_call grid [1] ins(%x : memref<8xf32, #gpu.address_space<workgroup>>)
      in_specs [#blk] out_specs [] {
  ^bb0(%xs: memref<8xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S26: a pallas_call in the body of a pallas_call.
func.func @s26_nested() {
  // expected-note @+1 {{enclosing kernel is here}}
  mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    // expected-error @+1 {{'mgpu.pallas_call' op cannot be nested inside 'mgpu.pallas_call': kernels are launched from host code}}
    mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    }
  }
  return
}

// -----

// S26: a pallas_call in an mpmd_map region, under an scf.for.
func.func @s26_nested_in_mpmd() {
  // expected-note @+1 {{enclosing kernel is here}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g4"]>] {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      // expected-error @+1 {{'mgpu.pallas_call' op cannot be nested inside 'mgpu.mpmd_map': kernels are launched from host code}}
      mgpu.pallas_call grid [2] in_specs [] out_specs [] {
      }
    }
  }
  return
}

// -----

// S26: a pallas_call in a GPU kernel.
func.func @s26_in_gpu_launch() {
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{enclosing kernel is here}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'mgpu.pallas_call' op cannot be nested inside 'gpu.launch': kernels are launched from host code}}
    mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    }
    gpu.terminator
  }
  return
}

// -----

// S26: a pallas_call directly in the module, not in a host function.
// expected-error @+1 {{'mgpu.pallas_call' op must be inside a host function}}
mgpu.pallas_call grid [2] in_specs [] out_specs [] {
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// Mixed tensor and memref operands.
func.func @mixed_forms(%a: tensor<1024xf32>, %o: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op expects ins and outs to be all tensors or all memrefs}}
  mgpu.pallas_call grid [8] ins(%a : tensor<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>,
       %y: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// Mixed forms among the outputs, with a result for the tensor one.
func.func @mixed_outs(%m: memref<1024xf32>, %t: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'mgpu.pallas_call' op expects ins and outs to be all tensors or all memrefs}}
  %r = mgpu.pallas_call grid [8] outs(%m, %t : memref<1024xf32>, tensor<1024xf32>)
      in_specs [] out_specs [#b, #b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>,
       %y: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// Destination style: a tensor output needs a result.
func.func @dps_missing_result(%o: tensor<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  mgpu.pallas_call grid [8] outs(%o : tensor<1024xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// Destination style: the result has the type of its init.
func.func @dps_result_type(%o: tensor<1024xf32>) -> tensor<1024xf16> {
  // expected-error @+1 {{'mgpu.pallas_call' op expected type of operand #0 ('tensor<1024xf32>') to match type of corresponding result ('tensor<1024xf16>')}}
  %r = mgpu.pallas_call grid [8] outs(%o : tensor<1024xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf16>
  return %r : tensor<1024xf16>
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(d0) -> (d0)>>
// Destination style: memref outputs return nothing.
func.func @dps_memref_result(%o: memref<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'mgpu.pallas_call' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %r = mgpu.pallas_call grid [8] outs(%o : memref<1024xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

// Results are tensors.
func.func @memref_result(%o: memref<1024xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op result #0 must be variadic of ranked tensor of any type values, but got 'memref<1024xf32>'}}
  %r = mgpu.pallas_call grid [8] in_specs [] out_specs [] {
  } -> memref<1024xf32>
  return
}

// -----

// Kernel operands are ranked.
func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op operand #0 must be variadic of ranked tensor of any type values or memref of any type values, but got 'tensor<*xf32>'}}
  mgpu.pallas_call grid [8] ins(%a : tensor<*xf32>) in_specs [] out_specs [] {
  }
  return
}

// -----

// S40: grid sizes are positive.
func.func @grid_zero() {
  // expected-error @+2 {{All elements in the grid must be strictly positive}}
  // expected-note @+1 {{grid size #1 is 0}}
  mgpu.pallas_call grid [4, 0] in_specs [] out_specs [] {
  }
  return
}

// -----

// Dynamic grid sizes are of type index.
// expected-note @+1 {{prior use here}}
func.func @grid_i32(%n: i32) {
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i32'}}
  mgpu.pallas_call grid [%n] in_specs [] out_specs [] {
  }
  return
}

// -----

// The terminator takes no operands.
func.func @yield_operands(%n: index) {
  mgpu.pallas_call grid [4] in_specs [] out_specs [] {
    // expected-error @+1 {{'mgpu.yield' op yields values out of a 'mgpu.pallas_call', which returns through its output refs}}
    "mgpu.yield"(%n) : (index) -> ()
  }
  return
}

// -----

// mgpu.yield ends a kernel region only.
func.func @yield_outside() {
  // expected-error @+1 {{'mgpu.yield' op expects parent op to be one of 'mgpu.pallas_call, mgpu.mpmd_map, mgpu.emit_pipeline, mgpu.launch, mgpu.run_scoped, mgpu.nd_loop, mgpu.dynamic_scheduling_loop, mgpu.trace_scope'}}
  mgpu.yield
}
