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

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
func.func @warp_specialized(%x: memref<16x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<16x256xf32>) {
  ^bb0(%xa: memref<16x256xf32>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op carries values across steps, which a warp-specialized pipeline does not support}}
    // expected-note @below {{keep the carry in the compute threads' own buffers, or drop warp_specialization}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<16x256xf32>)
        init_carry(%zero : vector<16xf32>) in_specs [#cols] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> -> vector<16xf32> {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %s: vector<16xf32>):
      mgpu.yield %s : vector<16xf32>
    }
  }
  return
}
