// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The element types each reduction takes are JAX's (and PTX's), in JAX's
// words (jax/experimental/mosaic/gpu/launch_context.py:1278-1282): add
// f16/bf16/f32/i32/i64; min and max f16/bf16; inc and dec i32; and, or, xor
// i32/i64.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @f32_max(%o: memref<64xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xf32>) scratch [memref<64xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xf32>, %s: memref<64xf32, #gpu.address_space<workgroup>>):
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op Reduction op max not supported by the TMA implementation for element type f32}}
    mgpu.copy_smem_to_gmem %s, %og reduction max : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @i32_min(%o: memref<64xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xi32>) scratch [memref<64xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xi32>, %s: memref<64xi32, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op min not supported by the TMA implementation for element type i32}}
    // expected-note @below {{integer min/max reductions say how they compare: smin/smax (signed) or umin/umax (unsigned)}}
    mgpu.copy_smem_to_gmem %s, %og reduction min : memref<64xi32, #gpu.address_space<workgroup>>, memref<64xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @i64_inc(%o: memref<64xi64>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xi64>) scratch [memref<64xi64, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xi64>, %s: memref<64xi64, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op inc not supported by the TMA implementation for element type i64}}
    mgpu.copy_smem_to_gmem %s, %og reduction inc : memref<64xi64, #gpu.address_space<workgroup>>, memref<64xi64>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @f16_xor(%o: memref<64xf16>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xf16>) scratch [memref<64xf16, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xf16>, %s: memref<64xf16, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op xor not supported by the TMA implementation for element type f16}}
    mgpu.copy_smem_to_gmem %s, %og reduction xor : memref<64xf16, #gpu.address_space<workgroup>>, memref<64xf16>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @i8_add(%o: memref<64xi8>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xi8>) scratch [memref<64xi8, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xi8>, %s: memref<64xi8, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op add not supported by the TMA implementation for element type i8}}
    mgpu.copy_smem_to_gmem %s, %og reduction add : memref<64xi8, #gpu.address_space<workgroup>>, memref<64xi8>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @unknown_kind(%o: memref<64xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xi32>) scratch [memref<64xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xi32>, %s: memref<64xi32, #gpu.address_space<workgroup>>):
    // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'reduction' [add, min, max, inc, dec, and, or, xor, smin, smax, umin, umax]}}
    mgpu.copy_smem_to_gmem %s, %og reduction mul : memref<64xi32, #gpu.address_space<workgroup>>, memref<64xi32>
  }
  return
}

// -----

// The integer min/max kinds take i32 and i64 only (JAX's table).
#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @f16_umin(%o: memref<64xf16>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xf16>) scratch [memref<64xf16, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xf16>, %s: memref<64xf16, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op umin not supported by the TMA implementation for element type f16}}
    mgpu.copy_smem_to_gmem %s, %og reduction umin : memref<64xf16, #gpu.address_space<workgroup>>, memref<64xf16>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @i16_smax(%o: memref<64xi16>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64xi16>) scratch [memref<64xi16, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<64xi16>, %s: memref<64xi16, #gpu.address_space<workgroup>>):
    // expected-error @below {{Reduction op smax not supported by the TMA implementation for element type i16}}
    mgpu.copy_smem_to_gmem %s, %og reduction smax : memref<64xi16, #gpu.address_space<workgroup>>, memref<64xi16>
  }
  return
}
