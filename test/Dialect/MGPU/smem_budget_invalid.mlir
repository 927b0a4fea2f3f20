// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// S25: static shared memory of a CTA = staged (smem) blocks x buffers +
// workgroup scratch, against 227 KiB (232448 bytes) on sm_90a and 163 KiB
// (166912 bytes) on sm_80; buffers per block = max_concurrent_steps, but no
// more than the steps of the sequential axes (as JAX's pipeline counts
// them). smem_budget.mlir has the positive twins.

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(d0) -> (d0, 0)>>
#p = #mgpu.compiler_params<dimension_semantics = [sequential], max_concurrent_steps = 2>
// sm_90a (the default): (64 KiB in + 64 KiB out) x 2 buffers = 262144 bytes.
func.func @sm90a_buffers(%a: memref<1024x128xf32>, %o: memref<1024x128xf32>) {
  // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=262144 > max_smem_bytes=232448}}
  // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 2 times on sm_90a; use smaller blocks, fewer buffers or memory_space = gmem}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024x128xf32>) outs(%o : memref<1024x128xf32>)
      in_specs [#b] out_specs [#b] params #p {
  ^bb0(%x: memref<128x128xf32, #gpu.address_space<workgroup>>,
       %y: memref<128x128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// sm_90a: one byte of workgroup scratch over the limit.
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @sm90a_scratch() {
    // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=232449 > max_smem_bytes=232448}}
    // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 1 times on sm_90a}}
    mgpu.pallas_call grid [8] in_specs [] out_specs []
        scratch [memref<232449xi8, #gpu.address_space<workgroup>>] {
    ^bb0(%s: memref<232449xi8, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(d0) -> (d0, 0)>>
// sm_80: 64 KiB in + 64 KiB out + 64 KiB scratch = 196608 bytes, which fits
// sm_90a (see smem_budget.mlir) but not sm_80.
module attributes {mgpu.target = #mgpu.target<chip = "sm_80", profile = jax>} {
  func.func @sm80_blocks_and_scratch(%a: tensor<1024x128xf32>, %o: tensor<1024x128xf32>) -> tensor<1024x128xf32> {
    // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=196608 > max_smem_bytes=166912}}
    // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 1 times on sm_80}}
    %r = mgpu.pallas_call grid [8] ins(%a : tensor<1024x128xf32>) outs(%o : tensor<1024x128xf32>)
        in_specs [#b] out_specs [#b]
        scratch [memref<128x128xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%x: memref<128x128xf32, #gpu.address_space<workgroup>>,
         %y: memref<128x128xf32, #gpu.address_space<workgroup>>,
         %s: memref<128x128xf32, #gpu.address_space<workgroup>>):
    } -> tensor<1024x128xf32>
    return %r : tensor<1024x128xf32>
  }
}

// -----

// sm_80: the workgroup scratch of an mpmd_map, 4 bytes over.
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @sm80_mpmd_scratch() {
    // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=166916 > max_smem_bytes=166912}}
    // expected-note @+1 {{scratch in #gpu.address_space<workgroup> is shared memory of every CTA on sm_80; use smaller or global-memory scratch}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>]
        scratch [memref<8xi32>, memref<41729xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%sem: memref<8xi32>, %s: memref<41729xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

#b = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(d0, d1) -> (d0, d1)>>
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 4>
// sm_80, f16 blocks: 2 x 32 KiB x 4 buffers = 262144 bytes.
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @sm80_f16_buffers(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>) {
    // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=262144 > max_smem_bytes=166912}}
    // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 4 times on sm_80}}
    mgpu.pallas_call grid [16, 4] ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>)
        in_specs [#b, #b] out_specs [] params #p {
    ^bb0(%x: memref<64x256xf16, #gpu.address_space<workgroup>>,
         %y: memref<64x256xf16, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(d0) -> (d0, 0)>>
// f64 elements count 8 bytes: 2 x 128 x 128 x 8 bytes = 262144 bytes.
func.func @wide_elements(%a: memref<1024x128xf64>, %o: memref<1024x128xf64>) {
  // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=262144 > max_smem_bytes=232448}}
  // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 1 times on sm_90a}}
  mgpu.pallas_call grid [8] ins(%a : memref<1024x128xf64>) outs(%o : memref<1024x128xf64>) in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<128x128xf64, #gpu.address_space<workgroup>>, %y: memref<128x128xf64, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// A scratch buffer whose size in bits overflows int64 still exceeds the
// budget: the count saturates instead of wrapping around to 0.
func.func @scratch_overflow() {
  // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=9223372036854775807 > max_smem_bytes=232448}}
  // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 1 times on sm_90a}}
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [memref<4611686018427387904xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<4611686018427387904xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [1], index_map = affine_map<(d0) -> (d0)>>
#p = #mgpu.compiler_params<dimension_semantics = [sequential], max_concurrent_steps = 4611686018427387904>
// 2^62 buffers of a 4-byte block over a dynamic number of steps: the
// product saturates too.
func.func @buffers_overflow(%a: memref<8xf32>, %n: index) {
  // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=9223372036854775807 > max_smem_bytes=232448}}
  // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 4611686018427387904 times on sm_90a}}
  mgpu.pallas_call grid [%n] ins(%a : memref<8xf32>) in_specs [#b] out_specs [] params #p {
  ^bb0(%x: memref<1xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// An i1 element takes a byte of shared memory (as in LLVM's memory layout),
// not a bit: 2 x 128 KiB blocks of i1 are 256 KiB, over the limit.
#b = #mgpu.block_spec<shape = [131072], index_map = affine_map<(d0) -> (d0)>>
func.func @i1_blocks_are_bytes(%a: memref<262144xi1>, %o: memref<262144xi1>) {
  // expected-error @+2 {{Mosaic GPU kernel exceeds available shared memory: smem_bytes=262144 > max_smem_bytes=232448}}
  // expected-note @+1 {{each staged block is buffered max_concurrent_steps = 1 times on sm_90a}}
  mgpu.pallas_call grid [2] ins(%a : memref<262144xi1>) outs(%o : memref<262144xi1>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<131072xi1, #gpu.address_space<workgroup>>,
       %y: memref<131072xi1, #gpu.address_space<workgroup>>):
  }
  return
}
