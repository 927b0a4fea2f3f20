// Element-wise 2-D kernel with a transposed block order:
//   out[r][c] = a[r][c] + 2 * bt[c][r]      (a, out: 64x96; bt: 96x64)
//
// a and out are cut into 16x32 blocks (4 block rows x 3 block columns);
// bt, which holds the second operand transposed, into 32x16 blocks. The
// grid is [3, 4]: axis 0 walks the block *columns* of `out` and axis 1 its
// block rows, so the index map of a and out swaps the grid indices,
// affine_map<(i, j) -> (j, i)>, while bt's block (i, j) is the transpose of
// out's block (j, i). The body transposes that block with vector.transpose.
//
// Summary: 2-D blocks visited through a transposed index map

#ab = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, j) -> (j, i)>>
#bt = #mgpu.block_spec<shape = [32, 16], index_map = affine_map<(i, j) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel]>

module {
  func.func @elementwise_2d(%a: tensor<64x96xf32>, %b_t: tensor<96x64xf32>,
                            %init: tensor<64x96xf32>) -> tensor<64x96xf32> {
    %out = mgpu.pallas_call grid [3, 4]
        ins(%a, %b_t : tensor<64x96xf32>, tensor<96x64xf32>)
        outs(%init : tensor<64x96xf32>)
        in_specs [#ab, #bt] out_specs [#ab]
        params #params {
    ^bb0(%x: memref<16x32xf32, #gpu.address_space<workgroup>>,
         %y: memref<32x16xf32, #gpu.address_space<workgroup>>,
         %o: memref<16x32xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<16x32xf32>
      %vx = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %vy = vector.transfer_read %y[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<32x16xf32, #gpu.address_space<workgroup>>, vector<32x16xf32>
      %vb = vector.transpose %vy, [1, 0] : vector<32x16xf32> to vector<16x32xf32>
      %twice = arith.mulf %vb, %two : vector<16x32xf32>
      %sum = arith.addf %vx, %twice : vector<16x32xf32>
      vector.transfer_write %sum, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x32xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x96xf32>
    return %out : tensor<64x96xf32>
  }
}
