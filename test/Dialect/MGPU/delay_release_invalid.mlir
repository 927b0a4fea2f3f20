// The rules of delay_release, in JAX's words where JAX has them
// (jax/_src/pallas/mosaic_gpu/pipeline.py).
// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#late = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = 2>
#now = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
func.func @too_few_slots(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<512xf32>) {
  ^bb0(%gx: memref<512xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op max_concurrent_steps must be greater than all delay_release values, but max_concurrent_steps=2 and delay_release_levels=[0, 2].}}
    mgpu.emit_pipeline grid [8] ins(%gx, %gx : memref<512xf32>, memref<512xf32>)
        in_specs [#now, #late] out_specs [] params #two {
    ^bb0(%k: index, %a: memref<64xf32, #gpu.address_space<workgroup>>, %b: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#late = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = 1>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
func.func @output(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%x : memref<512xf32>) {
  ^bb0(%gx: memref<512xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op out_specs[0] has delay_release = 1, but only input blocks are released}}
    mgpu.emit_pipeline grid [8] outs(%gx : memref<512xf32>)
        in_specs [] out_specs [#late] params #two {
    ^bb0(%k: index, %a: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#late = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = 1>
#now = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
func.func @warp_specialized_levels(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<512xf32>) {
  ^bb0(%gx: memref<512xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op All inputs must have the same delay_release, but in_spec.delay_release=1 != delay_release=0}}
    mgpu.emit_pipeline grid [8] ins(%gx, %gx : memref<512xf32>, memref<512xf32>)
        in_specs [#now, #late] out_specs [] params #two
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %a: memref<64xf32, #gpu.address_space<workgroup>>, %b: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#late = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = 2>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
func.func @warp_specialized_slots(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<512xf32>) {
  ^bb0(%gx: memref<512xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op max_concurrent_steps must be greater than delay_release, but max_concurrent_steps=2, delay_release=2}}
    mgpu.emit_pipeline grid [8] ins(%gx : memref<512xf32>)
        in_specs [#late] out_specs [] params #two
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %a: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

// expected-error @below {{delay_release must be at least 0, got -1}}
#bad = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = -1>

// -----

// expected-error @below {{delay_release applies to blocks staged in shared memory, not to a gmem block}}
#bad = #mgpu.block_spec<shape = [512], index_map = affine_map<(k) -> (0)>, memory_space = gmem, delay_release = 1>
