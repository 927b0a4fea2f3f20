// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused mgpu.atomic_store: where it may run, its ref, its value, and the
// element types and kinds JAX's Mosaic GPU accepts (JAX's own messages).
// The accepted twin of each type rule is in atomics.mlir.

func.func @outside(%g: memref<16xi32>, %x: i32, %i: index) {
  // expected-error @below {{'mgpu.atomic_store' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.atomic_store add %x, %g[%i] : i32, memref<16xi32>
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @indices(%g: memref<16x4xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16x4xi32>) {
  ^bb0(%g0: memref<16x4xi32>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1 : i32
    // expected-error @below {{'mgpu.atomic_store' op expects 2 indices for a ref of rank 2, got 1}}
    mgpu.atomic_store add %x, %g0[%c0] : i32, memref<16x4xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @private_space(%g: memref<16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi32>) {
  ^bb0(%g0: memref<16xi32>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1 : i32
    %p = memref.alloca() : memref<16xi32, #gpu.address_space<private>>
    // expected-error @below {{'mgpu.atomic_store' op expects a ref in global or shared memory, got memory space #gpu.address_space<private>}}
    mgpu.atomic_store add %x, %p[%c0] : i32, memref<16xi32, #gpu.address_space<private>>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @element_mismatch(%g: memref<16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi32>) {
  ^bb0(%g0: memref<16xi32>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1.0> : vector<16xf32>
    // expected-error @below {{'mgpu.atomic_store' op expects a value of the ref's element type 'i32', got 'vector<16xf32>'}}
    mgpu.atomic_store add %v, %g0[%c0] : vector<16xf32>, memref<16xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @rank_too_high(%g: memref<16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi32>) {
  ^bb0(%g0: memref<16xi32>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1> : vector<2x8xi32>
    // expected-error @below {{'mgpu.atomic_store' op expects a vector of rank at most the ref's (1), got 'vector<2x8xi32>'}}
    mgpu.atomic_store add %v, %g0[%c0] : vector<2x8xi32>, memref<16xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @too_big(%g: memref<4x16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<4x16xi32>) {
  ^bb0(%g0: memref<4x16xi32>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1> : vector<32xi32>
    // expected-error @below {{'mgpu.atomic_store' op stores a 'vector<32xi32>' that does not fit in 'memref<4x16xi32>' (dimension 1 has 16 elements)}}
    mgpu.atomic_store add %v, %g0[%c0, %c0] : vector<32xi32>, memref<4x16xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @rank0(%g: memref<16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi32>) {
  ^bb0(%g0: memref<16xi32>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1> : vector<i32>
    // expected-error @below {{'mgpu.atomic_store' op expects a scalar or a fixed vector of rank 1 or more, got 'vector<i32>'}}
    mgpu.atomic_store add %v, %g0[%c0] : vector<i32>, memref<16xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @f32_max(%g: memref<16xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xf32>) {
  ^bb0(%g0: memref<16xf32>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1.0> : vector<16xf32>
    // expected-error @below {{'mgpu.atomic_store' op f32 only supports add atomics, got max}}
    // expected-note @below {{for values known to be non-negative, the i32 bit patterns order as the floats do: store them bitcast to i32}}
    mgpu.atomic_store max %v, %g0[%c0] : vector<16xf32>, memref<16xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @f32_xor(%g: memref<16xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xf32>) {
  ^bb0(%g0: memref<16xf32>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    // expected-error @below {{'mgpu.atomic_store' op f32 only supports add atomics, got xor}}
    mgpu.atomic_store xor %x, %g0[%c0] : f32, memref<16xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @bf16_or(%g: memref<16xbf16>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xbf16>) {
  ^bb0(%g0: memref<16xbf16>):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1.0> : vector<16xbf16>
    // expected-error @below {{'mgpu.atomic_store' op f16/bf16 only supports add, min, max atomics, got or}}
    mgpu.atomic_store or %v, %g0[%c0] : vector<16xbf16>, memref<16xbf16>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
!s = memref<16xf16, #gpu.address_space<workgroup>>
func.func @f16_max_in_smem() {
  mgpu.mpmd_map meshes [#m] scratch [!s] {
  ^bb0(%s: !s):
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1.0> : vector<16xf16>
    // expected-error @below {{'mgpu.atomic_store' op f16/bf16 SMEM/multimem atomics only support add, got max}}
    mgpu.atomic_store max %v, %s[%c0] : vector<16xf16>, !s
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @i64(%g: memref<16xi64>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi64>) {
  ^bb0(%g0: memref<16xi64>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1 : i64
    // expected-error @below {{'mgpu.atomic_store' op Unsupported element type for atomic stores: 'i64'}}
    mgpu.atomic_store add %x, %g0[%c0] : i64, memref<16xi64>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @unknown_kind(%g: memref<16xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<16xi32>) {
  ^bb0(%g0: memref<16xi32>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1 : i32
    // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, max, min, and, or, xor, umax, umin]}}
    mgpu.atomic_store sub %x, %g0[%c0] : i32, memref<16xi32>
  }
  return
}

// -----

// umax and umin are the unsigned compare of i32 (JAX's uint32 atomic_max
// and atomic_min); floats have no unsigned order.
#m = #mgpu.mesh<grid = [1], grid_names = ["a"]>
func.func @f16_umax(%g: memref<64xf16>) {
  mgpu.mpmd_map meshes [#m] outs(%g : memref<64xf16>) {
  ^bb0(%g0: memref<64xf16>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f16
    // expected-error @below {{'mgpu.atomic_store' op unsigned atomic umax needs an i32 element, got 'f16'}}
    mgpu.atomic_store umax %x, %g0[%c0] : f16, memref<64xf16>
  }
  return
}
