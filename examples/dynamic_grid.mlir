// A grid whose size is a run-time value: out = 3 * x - 1 over an array of
// any length n (tensor<?xf32>).
//
// The grid is [%blocks] with %blocks = ceil(n / 128), an SSA value (the
// extended profile accepts it; JAX's GPU backend refuses dynamic grid
// bounds). When n is not a multiple of 128 the last block is partial: its
// out-of-bounds elements read as zero and are never written.
//
// Summary: a grid size that is an SSA value

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @dynamic_grid(%x: tensor<?xf32>, %init: tensor<?xf32>)
      -> tensor<?xf32> {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %n = tensor.dim %x, %c0 : tensor<?xf32>
    %blocks = arith.ceildivui %n, %c128 : index
    %out = mgpu.pallas_call grid [%blocks]
        ins(%x : tensor<?xf32>)
        outs(%init : tensor<?xf32>)
        in_specs [#block] out_specs [#block]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %i0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %three = arith.constant dense<3.0> : vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%i0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %three : vector<128xf32>
      %r = arith.subf %scaled, %one : vector<128xf32>
      vector.transfer_write %r, %os[%i0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<?xf32>
    return %out : tensor<?xf32>
  }
}
