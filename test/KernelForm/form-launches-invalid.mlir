// RUN: mgpu-opt %s --mgpu-form-launches -split-input-file -verify-diagnostics
// RUN: not mgpu-opt %s --mgpu-form-launches="mpmd-form=warp-specialized" -split-input-file 2>&1 | FileCheck %s --check-prefix=WS
// RUN: not mgpu-opt %s --mgpu-form-launches="mpmd-form=diagonal" -split-input-file 2>&1 | FileCheck %s --check-prefix=FORM

// FORM: mgpu-form-launches: unknown mpmd-form 'diagonal' (expected auto, warp-specialized or cta-partitioned)

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>

// Launches are formed from the kernel form: bufferized,
func.func @tensor_form(%x: tensor<256xf32>) -> tensor<256xf32> {
  // expected-error @below {{'mgpu.pallas_call' op must be bufferized before --mgpu-form-launches (run --mgpu-bufferize)}}
  %r = mgpu.pallas_call grid [2] ins(%x : tensor<256xf32>) outs(%x : tensor<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>

// expanded,
func.func @not_expanded(%x: memref<256xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op must be in kernel form before --mgpu-form-launches (run --mgpu-expand-pipelines)}}
  mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) in_specs [#b] out_specs [] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>

// with no emit_pipeline left,
func.func @pipeline_left(%x: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>) {
  ^bb0(%xs: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op must be expanded before --mgpu-form-launches (run --mgpu-expand-pipelines)}}
    mgpu.emit_pipeline grid [2] ins(%xs : memref<256xf32>)
        in_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>] out_specs [] {
    ^bb0(%k: index, %blk: memref<128xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>

// and every wait with its phase.
func.func @implicit_phase(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) scratch [!mgpu.barrier<count = 1>] {
  ^bb0(%o0: memref<4xf32>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.barrier_wait' op needs the parity of its phase before --mgpu-form-launches (run --mgpu-track-barrier-phases)}}
    mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["p"]>
#n = #mgpu.mesh<grid = [4], grid_names = ["q"]>

// Regions with different grids cannot share the warpgroups of one CTA.
func.func @different_grids(%x: memref<8xf32>) {
  // WS: error: 'mgpu.mpmd_map' op cannot be warp-specialized: its meshes do not all have the same grid and cluster
  // WS: note: use mpmd-form=cta-partitioned
  mgpu.mpmd_map meshes [#m, #n] outs(%x : memref<8xf32>) {
  ^bb0(%x0: memref<8xf32>):
  }, {
  ^bb0(%x1: memref<8xf32>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["p"], num_threads = 5, thread_name = "t">

// Nor regions that need more than 8 warpgroups.
func.func @too_many_warpgroups(%x: memref<8xf32>) {
  // WS: error: 'mgpu.mpmd_map' op cannot be warp-specialized: its regions need 10 warpgroups in one CTA, at most 8 (1024 threads) fit
  mgpu.mpmd_map meshes [#m, #m] outs(%x : memref<8xf32>) {
  ^bb0(%x0: memref<8xf32>):
  }, {
  ^bb0(%x1: memref<8xf32>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["p"], cluster = [2], cluster_names = ["c"]>
#n = #mgpu.mesh<grid = [4], grid_names = ["q"]>

// One launch has one cluster shape (the pipelines split such an mpmd_map
// first, --mgpu-split-mpmd="different-clusters-only=1").
func.func @different_clusters(%x: memref<8xf32>) {
  // expected-error @below {{'mgpu.mpmd_map' op cannot be CTA-partitioned: its meshes have different clusters, and one launch has one cluster shape}}
  // expected-note @below {{give every mesh the same cluster}}
  mgpu.mpmd_map meshes [#m, #n] outs(%x : memref<8xf32>) {
  ^bb0(%x0: memref<8xf32>):
  }, {
  ^bb0(%x1: memref<8xf32>):
  }
  return
}
