// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The rules of `indexing` on #mgpu.block_spec.

// expected-error @+2 {{squeezed block dimension #0 must have size 1, got 2}}
// expected-note @+1 {{JAX's None / pl.Squeezed() is a window of one element that the body does not see}}
#q = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (i, 0)>, indexing = [squeezed, blocked]>

// -----

// expected-error @+1 {{block indexing has 1 entries but the block shape has rank 2}}
#q = #mgpu.block_spec<shape = [1, 128], index_map = affine_map<(i) -> (i, 0)>, indexing = [squeezed]>

// -----

// expected-error @+1 {{a gmem block is the whole array; squeezed and element dimensions apply to staged (smem) blocks}}
#q = #mgpu.block_spec<shape = [1, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem, indexing = [squeezed, blocked]>

// -----

// expected-error @+1 {{squeezed block dimension #0 is tiled by #mgpu.tile<[1, 64]>; tile only the dimensions the body sees}}
#q = #mgpu.block_spec<shape = [1, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.tile<[1, 64]>], indexing = [squeezed, blocked]>

// -----

// expected-error @+2 {{expected 'blocked', 'squeezed' or 'element', got 'none'}}
// expected-error @+1 {{failed to parse MGPU_BlockSpecAttr parameter 'indexing'}}
#q = #mgpu.block_spec<shape = [1, 128], index_map = affine_map<(i) -> (i, 0)>, indexing = [none, blocked]>

// -----

// The body sees the block without its squeezed dimension (S22).
#q = #mgpu.block_spec<shape = [1, 128], index_map = affine_map<(i) -> (i, 0)>, indexing = [squeezed, blocked]>
func.func @unsqueezed_body(%x: memref<4x128xf32>) {
  // expected-error @+1 {{body argument #0 (for ins[0]) has type 'memref<1x128xf32, #gpu.address_space<workgroup>>', expected 'memref<128xf32, #gpu.address_space<workgroup>>'}}
  mgpu.pallas_call grid [4] ins(%x : memref<4x128xf32>) in_specs [#q] out_specs [] {
  ^bb0(%xs: memref<1x128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// JAX's pallas_call reads blocked and squeezed dimensions only.
#w = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i * 16)>, indexing = [element]>
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @element_in_jax(%x: memref<256xf32>) {
    // expected-error @+1 {{Only Blocked indexing mode is supported in Mosaic GPU lowering.}}
    mgpu.pallas_call grid [12] ins(%x : memref<256xf32>) in_specs [#w] out_specs [] {
    ^bb0(%window: memref<64xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}
