// Scale in place: x <- 2 * x + 1 over 1024 f32 elements.
//
// The input is passed again as the `outs` init: JAX's input_output_aliases.
// Both operands have the same SMEM block spec, so every program reads its
// block of x into shared memory before it writes that block back, and
// bufferization updates x's buffer in place (no copy of the array).
// A grid of 8 programs, one 128-element block each.
//
// Summary: an input passed again as the output init (aliasing, no copy)

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @scale_in_place(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [8]
        ins(%x : tensor<1024xf32>)
        outs(%x : tensor<1024xf32>)           // aliased with the input
        in_specs [#block] out_specs [#block]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %two : vector<128xf32>
      %r = arith.addf %scaled, %one : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }
}
