// Vector add as a Pallas kernel: out = a + b over 1024 f32 elements.
//
// A grid of 4 programs; program i sees block i (256 elements) of each
// array, staged in shared memory. The body is written once per Pallas
// thread at array level: whole-block vector ops, which the GPU lowering
// spreads over the 128 lanes of the warpgroup.
//
// Summary: the smallest pallas_call: 1-D blocks in shared memory

#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @vector_add(%a: tensor<1024xf32>, %b: tensor<1024xf32>,
                        %init: tensor<1024xf32>) -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4]
        ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block, #block] out_specs [#block]
        params #params {
    ^bb0(%x: memref<256xf32, #gpu.address_space<workgroup>>,
         %y: memref<256xf32, #gpu.address_space<workgroup>>,
         %o: memref<256xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %vx = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
      %vy = vector.transfer_read %y[%c0], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
      %sum = arith.addf %vx, %vy : vector<256xf32>
      vector.transfer_write %sum, %o[%c0] {in_bounds = [true]}
          : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }
}
