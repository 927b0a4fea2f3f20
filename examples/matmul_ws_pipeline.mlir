// bf16 matmul, warp-specialized by the compiler: c = a * b (a: 256x512,
// b: 512x256, c: 256x256 f32). The same kernel as
// examples/matmul_warp_specialized.mlir, written as JAX users write it with
// plgpu.emit_pipeline_warp_specialized: no barriers, rings or
// set_max_registers by hand.
//
// Each program of the [2, 2] grid owns a 128x128 tile of c, resident in
// shared memory, and runs 3 Pallas threads (num_threads = 3). Its
// emit_pipeline walks K in steps of 64, with 4 buffers per block, and is
// warp-specialized: thread 2, the memory thread, copies the blocks in (TMA,
// tiled and 128-byte swizzled, on the tensor-core path) and drops to 40
// registers; threads 0 and 1, the compute threads, get the rest (232 each).
// At each step compute thread w picks its 64x64 block of a (arith.select
// between the two) and multiplies it by the 64x128 block of b on the tensor
// cores (m64n128k16) into its 64 rows of the c tile. The pipeline releases
// each step's buffers once both compute threads are done with them, and
// --mgpu-promote-accumulators carries each thread's rows in registers across
// the steps: the body's read and write of c meet no other thread's.
//
// Run test: test/Integration/TensorCores/matmul_ws_pipeline.mlir.
//
// Summary: the same matmul (128x128 tiles) warp-specialized by the compiler: a
//   pallas_call with `num_threads = 3` and a `warp_specialization`
//   emit_pipeline (JAX's `emit_pipeline_warp_specialized`)

#mesh = #mgpu.mesh<grid = [2, 2], grid_names = ["i", "j"], num_threads = 3, thread_name = "wg">
#whole_a = #mgpu.block_spec<shape = [256, 512], index_map = affine_map<(i, j, t) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [512, 256], index_map = affine_map<(i, j, t) -> (0, 0)>, memory_space = gmem>
#c_tile = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i, j, t) -> (i, j)>>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 4>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!tile = memref<128x128xf32, #gpu.address_space<workgroup>>
!a_block = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_block = memref<64x128xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x512xbf16, strided<[512, 1], offset: ?>>
!b_cols = memref<512x128xbf16, strided<[256, 1], offset: ?>>

func.func @matmul_ws_pipeline(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                              %c: memref<256x256xf32>) {
  mgpu.pallas_call grid [2, 2, 3]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      in_specs [#whole_a, #whole_b] out_specs [#c_tile] mesh #mesh {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>, %cs: !tile):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %wg = mgpu.axis_index "wg"
    %row = arith.muli %i, %c128 : index
    %row_bottom = arith.addi %row, %c64 : index
    %col = arith.muli %j, %c128 : index
    %mine = arith.muli %wg, %c64 : index
    %top = memref.subview %ag[%row, 0] [64, 512] [1, 1]
        : memref<256x512xbf16> to !a_rows
    %bottom = memref.subview %ag[%row_bottom, 0] [64, 512] [1, 1]
        : memref<256x512xbf16> to !a_rows
    %cols = memref.subview %bg[0, %col] [512, 128] [1, 1]
        : memref<512x256xbf16> to !b_cols
    // The compute threads start their rows of the tile at zero.
    %computes = arith.cmpi ult, %wg, %c2 : index
    scf.if %computes {
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      vector.transfer_write %zero, %cs[%mine, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !tile
    }
    %first = arith.cmpi eq, %wg, %c0 : index
    mgpu.emit_pipeline grid [8]
        ins(%top, %bottom, %cols : !a_rows, !a_rows, !b_cols)
        in_specs [#a_k, #a_k, #b_k] out_specs [] params #stages
        warp_specialization #ws {
    ^bb0(%k: index, %a_top: !a_block, %a_bottom: !a_block, %bs: !b_block):
      %as = arith.select %first, %a_top, %a_bottom : !a_block
      %acc = vector.transfer_read %cs[%mine, %c0], %pad {in_bounds = [true, true]}
          : !tile, vector<64x128xf32>
      %r = mgpu.wgmma %acc, %as, %bs : vector<64x128xf32>, !a_block, !b_block
      vector.transfer_write %r, %cs[%mine, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !tile
    }
  }
  return
}
