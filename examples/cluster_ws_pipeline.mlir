// The 2-CTA cluster matmul written as JAX writes hopper_matmul_mgpu.py
// with `cluster_dimension = M`: c = a * b (a, b: 256x256 bf16, c: 256x256
// f32) through a warp-specialized emit_pipeline whose block spec for b
// has `collective_axes = ["c"]` (plgpu.BlockSpec(collective_axes=)): no
// multicast, cluster barrier or slot ring by hand
// (examples/cluster_matmul.mlir writes them out).
//
// The mesh is 2 clusters (axis "j": a cluster's 128 columns of c) of 2
// CTAs (axis "c": a CTA's 128 rows), each CTA running 3 Pallas threads.
// The pipeline walks K in 4 steps of 64 with 2 slots per block. Thread 2,
// the memory thread, fetches each compute thread's 64x64 block of a, and
// its share of b's 64x128 block, multicast into the slots of both CTAs of
// its cluster; a slot is refilled only once the compute threads of both
// CTAs have released it (the pipeline's release barriers are cluster
// barriers). Blocks keep JAX's layout ((8, 64) tiles, 128-byte swizzle),
// which the tensor cores read in place (m64n128k16).
//
// Run test: test/Integration/TensorCores/cluster_ws_pipeline.mlir.
//
// Summary: the cluster matmul as JAX writes it: a warp-specialized
//   emit_pipeline with b's block spec multicast along the cluster axis

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"], num_threads = 3, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(j, c, t) -> (0, 0)>, memory_space = gmem>
#c_tile = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(j, c, t) -> (c, j)>>
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>], collective_axes = ["c"]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 2>
#ws = #mgpu.warp_specialization<memory_registers = 40>
!tile = memref<128x128xf32, #gpu.address_space<workgroup>>
!a_block = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_block = memref<64x128xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x256xbf16, strided<[256, 1], offset: ?>>
!b_cols = memref<256x128xbf16, strided<[256, 1], offset: ?>>

func.func @cluster_ws_pipeline(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>,
                               %c: memref<256x256xf32>) {
  mgpu.pallas_call grid [2, 2, 3]
      ins(%a, %b : memref<256x256xbf16>, memref<256x256xbf16>)
      outs(%c : memref<256x256xf32>)
      in_specs [#whole, #whole] out_specs [#c_tile] mesh #mesh {
  ^bb0(%ag: memref<256x256xbf16>, %bg: memref<256x256xbf16>, %cs: !tile):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %j = mgpu.axis_index "j"
    %cta = mgpu.axis_index "c"
    %wg = mgpu.axis_index "wg"
    %row = arith.muli %cta, %c128 : index
    %row_bottom = arith.addi %row, %c64 : index
    %col = arith.muli %j, %c128 : index
    %mine = arith.muli %wg, %c64 : index
    %top = memref.subview %ag[%row, 0] [64, 256] [1, 1]
        : memref<256x256xbf16> to !a_rows
    %bottom = memref.subview %ag[%row_bottom, 0] [64, 256] [1, 1]
        : memref<256x256xbf16> to !a_rows
    %cols = memref.subview %bg[0, %col] [256, 128] [1, 1]
        : memref<256x256xbf16> to !b_cols
    %computes = arith.cmpi ult, %wg, %c2 : index
    scf.if %computes {
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      vector.transfer_write %zero, %cs[%mine, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !tile
    }
    %first = arith.cmpi eq, %wg, %c0 : index
    mgpu.emit_pipeline grid [4]
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
