// The rules of emit_pipeline init_carry.
// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @result_types(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op returns ('i32'), but carries values of types ('vector<16xf32>')}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs [] -> i32 {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      mgpu.yield %s : vector<16xf32>
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @yield_types(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs [] -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      // expected-error @below {{'mgpu.yield' op yields (), but its emit_pipeline carries ('vector<16xf32>')}}
      mgpu.yield
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @missing_argument(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op body must end with one argument per carried value, of types ('vector<16xf32>')}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs [] -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>):
      mgpu.yield %zero : vector<16xf32>
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @context_without_warp_specialization(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op has a compute_context, which only a warp-specialized pipeline has}}
    // expected-note @below {{add warp_specialization, or move the region's code after the pipeline}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs [] -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      mgpu.yield %s : vector<16xf32>
    } compute_context {
    ^bb0(%last: vector<16xf32>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @context_arguments(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op compute_context must take one argument per carried value, of types ('vector<16xf32>'), got ('vector<16xf16>')}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      mgpu.yield %s : vector<16xf32>
    } compute_context {
    ^bb0(%last: vector<16xf16>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @context_yields(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      mgpu.yield %s : vector<16xf32>
    } compute_context {
    ^bb0(%last: vector<16xf32>):
      // expected-error @below {{'mgpu.yield' op yields 1 values out of a compute_context, which yields nothing}}
      mgpu.yield %last : vector<16xf32>
    }
  }
  return
}
