// The bf16 matmul of examples/matmul_bf16.mlir written as a Pallas user
// writes it without kernel-level ops: each pipeline step reads the two
// staged blocks and the accumulator tile whole and multiplies them with
// vector.contract (jnp.dot(a_ref[...], b_ref[...]) into c_ref[...]).
//
// On the tensor-core pipelines (tensor-cores=1) --mgpu-contract-to-wgmma
// turns the contraction into one mgpu.wgmma per 64-row half of the tile,
// the blocks are staged by TMA in the swizzled layout their transforms
// give, and the kernel is the same as the hand-written one: eight
// m64n128k16 wgmma.mma_async per step reading the blocks in place, both
// accumulators carried in registers. Elsewhere (interpret mode, the lane
// lowering) it is an ordinary mixed-precision contraction with the same
// numbers.
//
// Summary: the same matmul written without kernel-level ops: `vector.contract`
//   of whole staged blocks, made `mgpu.wgmma` by the compiler

#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(i, j) -> (0, 0)>, memory_space = gmem>
#c_block = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i, j) -> (i, j)>>
#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>

func.func @matmul_bf16(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>,
                       %c: memref<256x256xf32>) {
  mgpu.pallas_call grid [2, 2]
      ins(%a, %b : memref<256x256xbf16>, memref<256x256xbf16>)
      outs(%c : memref<256x256xf32>)
      in_specs [#whole, #whole] out_specs [#c_block] {
  ^bb0(%ag: memref<256x256xbf16>, %bg: memref<256x256xbf16>,
       %cs: memref<128x128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<128x128xf32>
    vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %row = arith.muli %i, %c128 : index
    %col = arith.muli %j, %c128 : index
    %rows = memref.subview %ag[%row, 0] [128, 256] [1, 1]
        : memref<256x256xbf16> to memref<128x256xbf16, strided<[256, 1], offset: ?>>
    %cols = memref.subview %bg[0, %col] [256, 128] [1, 1]
        : memref<256x256xbf16> to memref<256x128xbf16, strided<[256, 1], offset: ?>>
    mgpu.emit_pipeline grid [4]
        ins(%rows, %cols : memref<128x256xbf16, strided<[256, 1], offset: ?>>,
                           memref<256x128xbf16, strided<[256, 1], offset: ?>>)
        in_specs [#a_k, #b_k] out_specs [] params #stages {
    ^bb0(%k: index, %as: memref<128x64xbf16, #gpu.address_space<workgroup>>,
         %bs: memref<64x128xbf16, #gpu.address_space<workgroup>>):
      %padb = arith.constant 0.0 : bf16
      %acc = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<128x128xf32>
      %av = vector.transfer_read %as[%c0, %c0], %padb {in_bounds = [true, true]}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<128x64xbf16>
      %bv = vector.transfer_read %bs[%c0, %c0], %padb {in_bounds = [true, true]}
          : memref<64x128xbf16, #gpu.address_space<workgroup>>, vector<64x128xbf16>
      %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                             affine_map<(m, n, k) -> (k, n)>,
                                             affine_map<(m, n, k) -> (m, n)>],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>}
          %av, %bv, %acc : vector<128x64xbf16>, vector<64x128xbf16> into vector<128x128xf32>
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}
