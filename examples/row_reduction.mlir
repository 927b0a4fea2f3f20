// Row sums: out[r] = sum over c of x[r][c]     (x: 64x256, out: 64)
//
// x is cut into 16x64 blocks; the grid is [64/16, 256/64] = [4, 4]. Axis 0
// (row blocks) is parallel; axis 1 (column blocks) is sequential and the
// output's index map ignores it, affine_map<(i, k) -> (i)>, so the output
// block stays resident across the 4 consecutive steps of one row block and
// is written back once: the accumulator pattern. Step k == 0 initializes
// the accumulator; every step adds the row sums of its block of x.
//
// Summary: a sequential axis; the output block is revisited (accumulator)

#x_block = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#o_block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>

module {
  func.func @row_reduction(%x: tensor<64x256xf32>, %init: tensor<64xf32>)
      -> tensor<64xf32> {
    %out = mgpu.pallas_call grid [4, 4]
        ins(%x : tensor<64x256xf32>)
        outs(%init : tensor<64xf32>)
        in_specs [#x_block] out_specs [#o_block]
        params #params {
    ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>,
         %acc: memref<16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 1
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<16xf32>
        vector.transfer_write %zero, %acc[%c0] {in_bounds = [true]}
            : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
      }
      %partial = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
      %sum = vector.multi_reduction <add>, %v, %partial [1]
          : vector<16x64xf32> to vector<16xf32>
      vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    } -> tensor<64xf32>
    return %out : tensor<64xf32>
  }
}
