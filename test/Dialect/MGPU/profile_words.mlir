// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The rules whose words or limits differ between the profiles, side by side:
// S19's operand names, S40's grid sizes, S16/S28's Pallas threads. The jax
// profile says what JAX says (jax-ml/jax cec06d1: pallas_call.py:1284-1285,
// mosaic_gpu/pipeline.py:265-268, mosaic_gpu/core.py:1671-1677); S24's
// unknown axis is in jax_profile.mlir and body_ops_invalid.mlir.

// S19, extended: our names for an input.
#b = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (i)>>
func.func @rank_in(%a: memref<8x8xf32>, %o: memref<8xf32>) {
  // expected-error @+1 {{Block shape for ins[0] (= (4,)) must have the same number of dimensions as the array shape (8, 8).}}
  mgpu.pallas_call grid [2] ins(%a : memref<8x8xf32>) outs(%o : memref<8xf32>) in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<4xf32, #gpu.address_space<workgroup>>, %y: memref<4xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S19, jax: JAX names an input args[i].
#b = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (i)>>
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @rank_in(%a: memref<8x8xf32>, %o: memref<8xf32>) {
    // expected-error @+1 {{Block shape for args[0] (= (4,)) must have the same number of dimensions as the array shape (8, 8).}}
    mgpu.pallas_call grid [2] ins(%a : memref<8x8xf32>) outs(%o : memref<8xf32>) in_specs [#b] out_specs [#b] {
    ^bb0(%x: memref<4xf32, #gpu.address_space<workgroup>>, %y: memref<4xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

// S40, extended: the exact rule text, the axis in a note.
func.func @grid_zero() {
  // expected-error @+2 {{All elements in the grid must be strictly positive}}
  // expected-note @+1 {{grid size #1 is 0}}
  mgpu.pallas_call grid [4, 0] in_specs [] out_specs [] {
  }
  return
}

// -----

// S40, jax: JAX's whole text. Its check is emit_pipeline's, so for a
// sequential axis of a pallas_call it prints the sequential axes only.
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @grid_zero_sequential() {
    // expected-error-re @+1 {{{{^}}All elements in the grid must be strictly positive, but got grid=(0,){{$}}}}
    mgpu.pallas_call grid [4, 0] in_specs [] out_specs [] params #p {
    }
    return
  }
}

// -----

// S40, jax: a parallel axis (JAX has no check of its own there): the whole grid.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @grid_negative_parallel() {
    // expected-error-re @+1 {{{{^}}All elements in the grid must be strictly positive, but got grid=(-1, 4){{$}}}}
    mgpu.pallas_call grid [-1, 4] in_specs [] out_specs [] {
    }
    return
  }
}

// -----

// S40, extended, emit_pipeline.
func.func @pipeline_zero(%x: memref<64xf32>) {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["i"]>] ins(%x : memref<64xf32>) {
  ^bb0(%xa: memref<64xf32>):
    // expected-error @+2 {{All elements in the grid must be strictly positive}}
    // expected-note @+1 {{grid size #0 is 0}}
    mgpu.emit_pipeline grid [0] ins(%xa : memref<64xf32>) in_specs [#mgpu.block_spec<shape = [16], index_map = affine_map<(k) -> (k)>>] out_specs [] {
    ^bb0(%k: index, %xs: memref<16xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

// S40, jax, emit_pipeline: where JAX's check is.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @pipeline_zero(%x: memref<64xf32>) {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [1], grid_names = ["i"]>] ins(%x : memref<64xf32>) {
    ^bb0(%xa: memref<64xf32>):
      // expected-error-re @+1 {{{{^}}All elements in the grid must be strictly positive, but got grid=(2, 0){{$}}}}
      mgpu.emit_pipeline grid [2, 0] ins(%xa : memref<64xf32>) in_specs [#mgpu.block_spec<shape = [16], index_map = affine_map<(j, k) -> (k)>>] out_specs [] {
      ^bb0(%j: index, %k: index, %xs: memref<16xf32, #gpu.address_space<workgroup>>):
      }
    }
    return
  }
}

// -----

// S16, extended: at most 8 Pallas threads (1024 CUDA threads), checked
// where a kernel uses the mesh.
func.func @threads_9() {
  // expected-error @+2 {{Requested too many CUDA threads per block. Each Mosaic thread corresponds to 128 CUDA threads. At most 8 are supported}}
  // expected-note @+1 {{num_threads = 9 asks for 1152 CUDA threads; use at most 8}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 9, thread_name = "wg">] {
  }
  return
}

// -----

// S16, extended, an external mesh (it is a mesh of the kernel's too).
func.func @threads_9_external() {
  // expected-error @+2 {{At most 8 are supported}}
  // expected-note @+1 {{num_threads = 9 asks}}
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"]>]
      external_meshes [#mgpu.mesh<num_threads = 9, thread_name = "wg">] {
  }
  return
}

// -----

// S16, extended, a pallas_call's mesh.
func.func @threads_16() {
  // expected-error @+2 {{At most 8 are supported}}
  // expected-note @+1 {{num_threads = 16 asks for 2048 CUDA threads; use at most 8}}
  mgpu.pallas_call grid [2, 16] in_specs [] out_specs []
      mesh #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 16, thread_name = "wg"> {
  }
  return
}

// -----

// S16 passes 9 to 16 in the jax profile, as JAX's mesh check does; S28 then
// refuses the launch in our words.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @threads_9() {
    // expected-error @+2 {{'mgpu.mpmd_map' op runs 9 Pallas threads (1152 CUDA threads) in each CTA; a CTA runs at most 1024 CUDA threads (8 Pallas threads)}}
    // expected-note @+1 {{JAX's mesh accepts up to 16 Pallas threads, but no CUDA launch runs more than 8}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 9, thread_name = "wg">] {
    }
    return
  }
}

// -----

module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @threads_16() {
    // expected-error @+2 {{'mgpu.pallas_call' op runs 16 Pallas threads (2048 CUDA threads) in each CTA}}
    // expected-note @+1 {{JAX's mesh accepts up to 16}}
    mgpu.pallas_call grid [2, 16] in_specs [] out_specs []
        mesh #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 16, thread_name = "wg"> {
    }
    return
  }
}

// -----

// S16 past 16: the mesh itself, in every profile, JAX's limit.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @threads_17() {
    // expected-error @+2 {{Requested too many CUDA threads per block. Each Mosaic thread corresponds to 128 CUDA threads. At most 16 are supported}}
    // expected-note @+1 {{num_threads = 17 asks for 2176 CUDA threads; use at most 16}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 17, thread_name = "wg">] {
    }
    return
  }
}

// -----

// Positive twins: 8 Pallas threads in both profiles.
func.func @threads_8() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 8, thread_name = "wg">] {
  }
  return
}
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @threads_8_jax() {
    mgpu.pallas_call grid [2, 8] in_specs [] out_specs []
        mesh #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 8, thread_name = "wg"> {
    }
    return
  }
}
