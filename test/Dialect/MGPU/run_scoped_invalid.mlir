// The rules of mgpu.run_scoped, in JAX's words where JAX has them
// (jax/_src/pallas/mosaic_gpu/lowering.py, _run_scoped_lowering_rule).
// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

#two = #mgpu.mesh<grid = [1], grid_names = ["g"], num_threads = 2, thread_name = "wg">
func.func @not_collective() {
  mgpu.mpmd_map meshes [#two] {
    // expected-error @below {{'mgpu.run_scoped' op Only thread-collective allocations are supported in multithreaded kernels. Hint: add collective_axes=wg to your run_scoped if you intend all threads to share the same allocation (currently collective_axes=None).}}
    mgpu.run_scoped {
    ^bb0(%buf: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#two = #mgpu.mesh<grid = [1], grid_names = ["g"], num_threads = 2, thread_name = "wg">
func.func @collective_acc() {
  mgpu.mpmd_map meshes [#two] {
    // expected-error @below {{'mgpu.run_scoped' op WGMMA accumulators can only be allocated non-collectively. Hint: remove collective_axes from run_scoped. If other allocations are performed as well, split the run_scoped into two.}}
    %acc = mgpu.run_scoped collective_axes ["wg"] -> vector<64x8xf32> {
    ^bb0(%zero: vector<64x8xf32>):
      mgpu.yield %zero : vector<64x8xf32>
    }
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [2], grid_names = ["g"]>
func.func @grid_axis() {
  mgpu.mpmd_map meshes [#one] {
    // expected-error @below {{'mgpu.run_scoped' op Only thread-collective allocations are supported in run_scoped.}}
    mgpu.run_scoped collective_axes ["g"] {
    ^bb0(%buf: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
func.func @global_buffer() {
  mgpu.mpmd_map meshes [#one] {
    // expected-error @below {{'mgpu.run_scoped' op allocates argument #0 of type 'memref<64xf32>', which is not a scoped allocation}}
    // expected-note @below {{a run_scoped region takes statically shaped shared-memory buffers, !mgpu.barrier arrays and accumulators (vectors)}}
    mgpu.run_scoped {
    ^bb0(%buf: memref<64xf32>):
    }
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
func.func @yield_types() {
  mgpu.mpmd_map meshes [#one] {
    %r = mgpu.run_scoped -> vector<4xf32> {
    ^bb0(%zero: vector<8xf32>):
      // expected-error @below {{'mgpu.yield' op yields 1 values of types ('vector<8xf32>'), but its run_scoped returns ('vector<4xf32>')}}
      mgpu.yield %zero : vector<8xf32>
    }
  }
  return
}

// -----

func.func @outside() {
  // expected-error @below {{'mgpu.run_scoped' op must be inside a kernel}}
  mgpu.run_scoped {
  ^bb0(%buf: memref<64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
func.func @kernel_yield(%x: vector<4xf32>) {
  mgpu.mpmd_map meshes [#one] {
    // expected-error @below {{'mgpu.yield' op yields values out of a 'mgpu.mpmd_map', which returns through its output refs}}
    mgpu.yield %x : vector<4xf32>
  }
  return
}
