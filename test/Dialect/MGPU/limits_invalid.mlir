// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// S28-S31: what no backend can run is refused before any of them starts.

// S28: more CTAs than a launch holds (2^31 - 1).
#b = #mgpu.block_spec<shape = [1], index_map = affine_map<(i, j) -> (0)>, memory_space = gmem>
func.func @too_many_ctas(%o: memref<1xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op launches 4294967296 CTAs; a launch has at most 2147483647}}
  mgpu.pallas_call grid [65536, 65536] outs(%o : memref<1xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<1xf32>):
  }
  return
}

// -----

// S28: a count that overflows 64 bits.
func.func @overflow() {
  // expected-error @below {{'mgpu.pallas_call' op launches more CTAs than 64 bits count (4294967296, 4294967296, 4294967296)}}
  mgpu.pallas_call grid [4294967296, 4294967296, 4294967296] in_specs [] out_specs [] {
  }
  return
}

// -----

// S28: a cluster of more than 8 CTAs.
#m = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [4, 4], cluster_names = ["x", "y"]>
func.func @big_cluster() {
  // expected-error @below {{'mgpu.mpmd_map' op has clusters of 16 CTAs (4, 4); a portable cluster holds at most 8}}
  mgpu.mpmd_map meshes [#m] {
  }
  return
}

// -----

// S28: a dynamic grid is checked when it is known, on the host.
#b = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @dynamic_ok(%o: memref<1xf32>, %n: index) {
  mgpu.pallas_call grid [%n] outs(%o : memref<1xf32>) in_specs [] out_specs [#b] {
  ^bb0(%x: memref<1xf32>):
  }
  return
}

// -----

// S29: element types no backend stages or computes on.
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i)>>
func.func @f80(%a: memref<64xf80>) {
  // expected-error @below {{'mgpu.pallas_call' op operand #0 has elements of type 'f80', which no backend stages or computes on}}
  mgpu.pallas_call grid [8] ins(%a : memref<64xf80>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<8xf80, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i)>>
func.func @signed(%a: memref<64xsi32>) {
  // expected-error @below {{'mgpu.pallas_call' op operand #0 has elements of type 'si32'}}
  mgpu.pallas_call grid [8] ins(%a : memref<64xsi32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<8xsi32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i)>>
func.func @tf32(%a: memref<64xtf32>) {
  // expected-error @below {{'mgpu.pallas_call' op operand #0 has elements of type 'tf32'}}
  mgpu.pallas_call grid [8] ins(%a : memref<64xtf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<8xtf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S29: a scalable vector in a body.
#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @scalable() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @below {{'arith.constant' op uses the scalable vector type 'vector<[4]xf32>', which no GPU or interpret backend runs}}
    %v = arith.constant dense<1.0> : vector<[4]xf32>
  }
  return
}

// -----

// S29: elements of a body value.
#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @f80_vector() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @below {{'ub.poison' op computes on elements of type 'f80', which no backend handles}}
    %v = ub.poison : vector<4xf80>
  }
  return
}

// -----

// S30: index maps divide by positive constants.
// expected-error @below {{block index_map divides by 0 in 'd0 floordiv 0'; floordiv, ceildiv and mod need a positive constant}}
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i floordiv 0)>>

// -----

// expected-error @below {{block index_map divides by -2 in 'd0 mod -2'; floordiv, ceildiv and mod need a positive constant}}
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i mod -2)>>

// -----

// expected-error @below {{block index_map divides by -1 in 'd0 ceildiv -1'}}
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i ceildiv -1)>>

// -----

// Positive twin: a positive divisor is fine.
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (i floordiv 2 + i mod 3)>>
func.func @divisors_ok(%a: memref<64xf32>) {
  mgpu.pallas_call grid [8] ins(%a : memref<64xf32>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<8xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S31: 2^20 floats per warpgroup are 8192 registers per lane.
#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @huge_vector() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @below {{'arith.constant' op holds 'vector<1048576xf32>', 8192 32-bit registers per lane across a warpgroup's 128 lanes; at most 256 fit}}
    // expected-note @below {{work on smaller vectors (a loop over slices of the block)}}
    %v = arith.constant dense<1.0> : vector<1048576xf32>
  }
  return
}

// -----

// S29: sub-byte integers other than i1 and i4 are refused, with the list of
// what backends handle.
#b = #mgpu.block_spec<shape = [8], index_map = affine_map<(d0) -> (d0)>>
func.func @i2(%a: memref<64xi2>) {
  // expected-error @below {{'mgpu.pallas_call' op operand #0 has elements of type 'i2', which no backend stages or computes on (i1, i4, i8, i16, i32, i64, index, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN)}}
  mgpu.pallas_call grid [8] ins(%a : memref<64xi2>) in_specs [#b] out_specs [] {
  ^bb0(%x: memref<8xi2, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// S29: unsigned memory allocated in a body (no backend zero-fills or
// computes on ui32).
func.func @unsigned_alloca() {
  mgpu.pallas_call grid [8] in_specs [] out_specs [] {
    // expected-error @below {{'memref.alloca' op uses memory of elements of type 'ui32', which no backend stages or computes on}}
    %m = memref.alloca() : memref<16xui32>
  }
  return
}

// -----

// S29: a signed scratch buffer.
func.func @signed_scratch() {
  // expected-error @below {{'mgpu.pallas_call' op scratch[0] has elements of type 'si8', which no backend stages or computes on}}
  mgpu.pallas_call grid [8] in_specs [] out_specs []
      scratch [memref<16xsi8, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<16xsi8, #gpu.address_space<workgroup>>):
  }
  return
}
