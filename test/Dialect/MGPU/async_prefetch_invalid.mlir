// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// async_prefetch takes a GMEM ref (JAX's words,
// jax/_src/pallas/mosaic_gpu/primitives.py:88-91) of static shape, inside a
// kernel.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @smem(%x: memref<64xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<64xf32>) scratch [memref<64xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%xg: memref<64xf32>, %s: memref<64xf32, #gpu.address_space<workgroup>>):
    // expected-error @below {{'mgpu.async_prefetch' op ref must be a GMEM reference, got 'memref<64xf32, #gpu.address_space<workgroup>>'}}
    mgpu.async_prefetch %s : memref<64xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @dynamic(%x: memref<64xf32>, %n: index) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<64xf32>) {
  ^bb0(%xg: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %w = memref.subview %xg[0] [%c8] [1] : memref<64xf32> to memref<?xf32>
    // expected-error @below {{'mgpu.async_prefetch' op prefetches a window of static shape, got 'memref<?xf32>'}}
    mgpu.async_prefetch %w : memref<?xf32>
  }
  return
}

// -----

func.func @outside(%x: memref<64xf32>) {
  // expected-error @below {{'mgpu.async_prefetch' op must be inside a kernel}}
  mgpu.async_prefetch %x : memref<64xf32>
  return
}
