// bf16 matmul on the tensor-core op: c = a * b  (a: 256x256, b: 256x256,
// c: 256x256 f32), with JAX's Hopper tutorial tiling and structure.
//
// Each program of the [M/128, N/128] = [2, 2] grid owns a 128x128 tile of
// c, resident in shared memory (64 KiB of f32: the accumulator). a and b
// stay in global memory (memory_space = gmem); an emit_pipeline walks K in
// steps of 64 over the program's rows of a and columns of b, staging the
// 128x64 and 64x128 bf16 blocks with max_concurrent_steps = 4 buffers (a
// 4-stage pipeline: 4 x 32 KiB), 192 KiB of shared memory in all. Each step
// multiplies the two blocks with two `mgpu.wgmma`, one per 64-row half of
// the tile (m64n128k16 MMAs on the tensor cores).
//
// Each half is read, updated and written back at fixed indices in every
// step, so on the GPU backends --mgpu-promote-accumulators carries both
// halves in registers across the pipeline (128 f32 per lane) and writes the
// tile back once. With tensor-cores=1 they stay in the WGMMA fragment
// layout for the whole loop; otherwise every backend computes mgpu.wgmma
// with ordinary instructions, with the same numbers.
//
// Summary: bf16 matmul with the kernel-level `mgpu.wgmma` in an
//   `emit_pipeline`, JAX's Hopper tutorial tiling (128x128x64, 4 stages)

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
      // One MMA per 64 rows (a warpgroup's m64n128k16 shape), so that one
      // 64x128 accumulator (64 registers per lane) is live at a time.
      %c64 = arith.constant 64 : index
      %a_top = memref.subview %as[0, 0] [64, 64] [1, 1]
          : memref<128x64xbf16, #gpu.address_space<workgroup>>
          to memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %a_bot = memref.subview %as[64, 0] [64, 64] [1, 1]
          : memref<128x64xbf16, #gpu.address_space<workgroup>>
          to memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %acc0 = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
      %acc1 = vector.transfer_read %cs[%c64, %c0], %pad {in_bounds = [true, true]}
          : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
      %r0 = mgpu.wgmma %acc0, %a_top, %bs : vector<64x128xf32>,
          memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>,
          memref<64x128xbf16, #gpu.address_space<workgroup>>
      %r1 = mgpu.wgmma %acc1, %a_bot, %bs : vector<64x128xf32>,
          memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>,
          memref<64x128xbf16, #gpu.address_space<workgroup>>
      mgpu.wgmma_wait 0
      vector.transfer_write %r0, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
      vector.transfer_write %r1, %cs[%c64, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<128x128xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}
