// Blocked matmul: c = a * b    (a: 64x32, b: 32x48, c: 64x48)
//
// bm = bn = 16, bk = 8, so the grid is [M/bm, N/bn, K/bk] = [4, 3, 4]. The
// K axis is sequential and c's index map ignores it, affine_map<(i, j, k)
// -> (i, j)>: the output block stays resident across the 4 K steps and
// accumulates the products of the 16x8 block of a and the 8x16 block of b
// (vector.contract), starting from zero at k == 0. max_concurrent_steps = 2
// double-buffers the input blocks on the GPU: while step k computes, cp.async
// fetches the blocks of step k + 1 into the other buffer.
//
// Summary: `vector.contract` with a sequential K axis

#a_block = #mgpu.block_spec<shape = [16, 8], index_map = affine_map<(i, j, k) -> (i, k)>>
#b_block = #mgpu.block_spec<shape = [8, 16], index_map = affine_map<(i, j, k) -> (k, j)>>
#c_block = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i, j, k) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>

module {
  func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                    %init: tensor<64x48xf32>) -> tensor<64x48xf32> {
    %c = mgpu.pallas_call grid [4, 3, 4]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init : tensor<64x48xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block]
        params #params {
    ^bb0(%as: memref<16x8xf32, #gpu.address_space<workgroup>>,
         %bs: memref<8x16xf32, #gpu.address_space<workgroup>>,
         %cs: memref<16x16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 2
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<16x16xf32>
        vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]}
            : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
      }
      %va = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x8xf32, #gpu.address_space<workgroup>>, vector<16x8xf32>
      %vb = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<8x16xf32, #gpu.address_space<workgroup>>, vector<8x16xf32>
      %acc = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<16x16xf32>
      %r = vector.contract {
          indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                           affine_map<(m, n, k) -> (k, n)>,
                           affine_map<(m, n, k) -> (m, n)>],
          iterator_types = ["parallel", "parallel", "reduction"],
          kind = #vector.kind<add>} %va, %vb, %acc
          : vector<16x8xf32>, vector<8x16xf32> into vector<16x16xf32>
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x48xf32>
    return %c : tensor<64x48xf32>
  }
}
