// Row-wise softmax: out[r][c] = exp(x[r][c] - m[r]) / sum_c' exp(x[r][c'] - m[r])
// with m[r] = max_c x[r][c]                           (x, out: 64x128)
//
// One block is 8 whole rows (8x128), so every program has all it needs for
// its rows: a grid of 8 independent programs. The row statistics (vectors
// of 8) are broadcast back over the 128 columns with vector.broadcast
// (which adds a leading dimension) and vector.transpose.
//
// Summary: softmax over whole rows of a block

#rows = #mgpu.block_spec<shape = [8, 128], index_map = affine_map<(i) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @softmax(%x: tensor<64x128xf32>, %init: tensor<64x128xf32>)
      -> tensor<64x128xf32> {
    %out = mgpu.pallas_call grid [8]
        ins(%x : tensor<64x128xf32>)
        outs(%init : tensor<64x128xf32>)
        in_specs [#rows] out_specs [#rows]
        params #params {
    ^bb0(%xs: memref<8x128xf32, #gpu.address_space<workgroup>>,
         %os: memref<8x128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %neg_inf = arith.constant dense<0xFF800000> : vector<8xf32>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<8x128xf32, #gpu.address_space<workgroup>>, vector<8x128xf32>
      // m[r]: the row maxima, broadcast to 8x128.
      %m = vector.multi_reduction <maximumf>, %v, %neg_inf [1]
          : vector<8x128xf32> to vector<8xf32>
      %m_t = vector.broadcast %m : vector<8xf32> to vector<128x8xf32>
      %m_b = vector.transpose %m_t, [1, 0] : vector<128x8xf32> to vector<8x128xf32>
      %shifted = arith.subf %v, %m_b : vector<8x128xf32>
      %e = math.exp %shifted : vector<8x128xf32>
      // The row sums of the exponentials, broadcast the same way.
      %s = vector.multi_reduction <add>, %e, %zero [1]
          : vector<8x128xf32> to vector<8xf32>
      %s_t = vector.broadcast %s : vector<8xf32> to vector<128x8xf32>
      %s_b = vector.transpose %s_t, [1, 0] : vector<128x8xf32> to vector<8x128xf32>
      %r = arith.divf %e, %s_b : vector<8x128xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<8x128xf32>, memref<8x128xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x128xf32>
    return %out : tensor<64x128xf32>
  }
}
