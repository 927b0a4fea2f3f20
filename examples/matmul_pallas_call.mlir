// f16 matmul written the way JAX's `test_realistic_matmul` writes it: a
// plain pallas_call over a [M/128, N/128, K/64] grid whose last axis is
// sequential, an f32 accumulator in scratch, and a body of
// `@pl.when(k == 0)` zeroing, `acc[...] += a @ b`, and `@pl.when(k ==
// last)` storing acc in f16. The blocks use JAX's default operand tiling
// for the tensor cores: tiles of (8, 64) with the 128-byte swizzle.
//
// Nothing in the body names a tensor core, a register or a pipeline. On
// sm_90a the compiler makes the contraction one `mgpu.wgmma`
// (--mgpu-contract-to-wgmma), pipelines the grid's sequential axis over 2
// slots, carries the accumulator in WGMMA fragments through the K loop
// (--mgpu-promote-accumulators sees the zeroing as the loop's initial
// value) and stores the f16 result from the fragments: 8 m64n128k16 MMAs
// and 32 KiB of TMA per step, no lane access to shared memory in the loop.
//
// Summary: f16 matmul as a plain pallas_call (JAX's `test_realistic_matmul`):
//   tensor cores, accumulator in registers, with nothing tensor-core specific
//   written

#a = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(m, n, k) -> (m, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(m, n, k) -> (k, n)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#o = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(m, n, k) -> (m, n)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>

func.func @matmul_pallas_call(%a: memref<256x256xf16>, %b: memref<256x256xf16>,
                              %o: memref<256x256xf16>) {
  mgpu.pallas_call grid [2, 2, 4]
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>)
      outs(%o : memref<256x256xf16>) in_specs [#a, #b] out_specs [#o]
      scratch [memref<128x128xf32, #smem>] params #params {
  ^bb0(%a_ref: memref<128x64xf16, #smem>, %b_ref: memref<64x128xf16, #smem>,
       %o_ref: memref<128x128xf16, #smem>, %acc: memref<128x128xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %k = mgpu.program_id 2
    // @pl.when(pl.program_id(2) == 0)
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    // acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    %fpad = arith.constant 0.0 : f32
    %hpad = arith.constant 0.0 : f16
    %accv = vector.transfer_read %acc[%c0, %c0], %fpad {in_bounds = [true, true]}
        : memref<128x128xf32, #smem>, vector<128x128xf32>
    %av = vector.transfer_read %a_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<128x64xf16, #smem>, vector<128x64xf16>
    %bv = vector.transfer_read %b_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x128xf16, #smem>, vector<64x128xf16>
    %sum = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %av, %bv, %accv : vector<128x64xf16>, vector<64x128xf16> into vector<128x128xf32>
    vector.transfer_write %sum, %acc[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #smem>
    // @pl.when(pl.program_id(2) == grid_k - 1)
    %last = arith.cmpi eq, %k, %c3 : index
    scf.if %last {
      %h = arith.truncf %sum : vector<128x128xf32> to vector<128x128xf16>
      vector.transfer_write %h, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf16>, memref<128x128xf16, #smem>
    }
  }
  return
}
