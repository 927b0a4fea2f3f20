// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// collective_axes on block specs (JAX's plgpu.BlockSpec(collective_axes=)):
// inputs of a warp-specialized emit_pipeline only, one cluster axis, each
// CTA's share whole rows of tiles; JAX's words where JAX has them.

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(j, c) -> (0, 0)>, collective_axes = ["c"]>
func.func @pallas_call_spec(%a: memref<64x64xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op in_specs[0] has collective_axes, which only the input blocks of a warp-specialized mgpu.emit_pipeline take (JAX's emit_pipeline_warp_specialized)}}
  mgpu.pallas_call grid [2, 2] ins(%a : memref<64x64xf32>) in_specs [#x] out_specs [] mesh #mesh {
  ^bb0(%xs: memref<64x64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"]>
#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(j, c) -> (0, 0)>, memory_space = gmem>
#k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, collective_axes = ["c"]>
func.func @not_warp_specialized(%a: memref<256x64xf32>) {
  mgpu.pallas_call grid [2, 2] ins(%a : memref<256x64xf32>) in_specs [#whole] out_specs [] mesh #mesh {
  ^bb0(%ag: memref<256x64xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op BlockSpecs with collective_axes are not supported in emit_pipeline}}
    mgpu.emit_pipeline grid [4] ins(%ag : memref<256x64xf32>) in_specs [#k] out_specs [] {
    ^bb0(%i: index, %x: memref<64x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"], num_threads = 2, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(j, c, t) -> (0, 0)>, memory_space = gmem>
#k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>>
#o = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, collective_axes = ["c"]>
#ws = #mgpu.warp_specialization<memory_registers = 40>
func.func @output(%a: memref<256x64xf32>, %b: memref<256x64xf32>) {
  mgpu.pallas_call grid [2, 2, 2] ins(%a : memref<256x64xf32>) outs(%b : memref<256x64xf32>) in_specs [#whole] out_specs [#whole] mesh #mesh {
  ^bb0(%ag: memref<256x64xf32>, %bg: memref<256x64xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op Output BlockSpecs cannot have collective_axes}}
    mgpu.emit_pipeline grid [4] ins(%ag : memref<256x64xf32>) outs(%bg : memref<256x64xf32>) in_specs [#k] out_specs [#o] warp_specialization #ws {
    ^bb0(%i: index, %x: memref<64x64xf32, #gpu.address_space<workgroup>>, %y: memref<64x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2, 2], cluster_names = ["c", "d"], num_threads = 2, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(j, c, d, t) -> (0, 0)>, memory_space = gmem>
#k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, collective_axes = ["c", "d"]>
#ws = #mgpu.warp_specialization<memory_registers = 40>
func.func @two_axes(%a: memref<256x64xf32>) {
  mgpu.pallas_call grid [2, 2, 2, 2] ins(%a : memref<256x64xf32>) in_specs [#whole] out_specs [] mesh #mesh {
  ^bb0(%ag: memref<256x64xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op Only a single collective axis supported in input BlockSpecs, but got ('c', 'd')}}
    mgpu.emit_pipeline grid [4] ins(%ag : memref<256x64xf32>) in_specs [#k] out_specs [] warp_specialization #ws {
    ^bb0(%i: index, %x: memref<64x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"], num_threads = 2, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(j, c, t) -> (0, 0)>, memory_space = gmem>
#k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, collective_axes = ["j"]>
#ws = #mgpu.warp_specialization<memory_registers = 40>
func.func @grid_axis(%a: memref<256x64xf32>) {
  mgpu.pallas_call grid [2, 2, 2] ins(%a : memref<256x64xf32>) in_specs [#whole] out_specs [] mesh #mesh {
  ^bb0(%ag: memref<256x64xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op collective axis 'j' is not a cluster axis of the mesh (cluster axes: ['c'])}}
    mgpu.emit_pipeline grid [4] ins(%ag : memref<256x64xf32>) in_specs [#k] out_specs [] warp_specialization #ws {
    ^bb0(%i: index, %x: memref<64x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

// Each of the 2 CTAs loads half of the block's 64 rows: 32, not a whole
// number of 64-row tiles.
#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"], num_threads = 2, thread_name = "wg">
#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(j, c, t) -> (0, 0)>, memory_space = gmem>
#k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>], collective_axes = ["c"]>
#ws = #mgpu.warp_specialization<memory_registers = 40>
func.func @split_tiles(%a: memref<256x64xf16>) {
  mgpu.pallas_call grid [2, 2, 2] ins(%a : memref<256x64xf16>) in_specs [#whole] out_specs [] mesh #mesh {
  ^bb0(%ag: memref<256x64xf16>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op in_specs[0] multicasts 64 rows to 2 CTAs, which must each load whole rows of tiles: 64 is not a multiple of 128}}
    mgpu.emit_pipeline grid [4] ins(%ag : memref<256x64xf16>) in_specs [#k] out_specs [] warp_specialization #ws {
    ^bb0(%i: index, %x: memref<64x64xf16, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

// expected-error @+1 {{collective_axes multicast a block staged in shared memory, not a gmem block}}
#g = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, memory_space = gmem, collective_axes = ["c"]>
func.func @gmem(%a: memref<64x64xf32>) attributes {spec = #g} {
  return
}
