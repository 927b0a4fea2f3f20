// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused persistent-scheduling ops: each gets a diagnostic at the op, in
// JAX's words where JAX checks the rule (helpers.py, nd_loop).

func.func @outside(%n: index) {
  // expected-error @below {{'mgpu.nd_loop' op must be inside a kernel}}
  mgpu.nd_loop [%n] collective_axes ["sm"] {
  ^bb0(%i: index, %step: index):
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @tiling_length(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    // expected-error @below {{'mgpu.nd_loop' op tiling=(2, 1) and grid=(8,) must have same length.}}
    mgpu.nd_loop [%c8] collective_axes ["sm"] tiling [2, 1] {
    ^bb0(%i: index, %step: index):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @tiling_divides(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %c6 = arith.constant 6 : index
    // expected-error @below {{'mgpu.nd_loop' op Tiling (3, 2) does not divide grid (8, 6).}}
    mgpu.nd_loop [%c8, %c6] collective_axes ["sm"] tiling [3, 2] {
    ^bb0(%i: index, %j: index, %step: index):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @unknown_axis(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    // expected-error @below {{Axis x does not refer to a GPU mesh axis (available axes: ['sm'])}}
    mgpu.nd_loop [%c8] collective_axes ["x"] {
    ^bb0(%i: index, %step: index):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @body_arguments(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    // expected-error @below {{'mgpu.nd_loop' op expects the body to take 3 index arguments: one per grid dimension, then the local step}}
    mgpu.nd_loop [%c8, %c8] collective_axes ["sm"] {
    ^bb0(%i: index, %j: index):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @twice(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    // expected-error @below {{'mgpu.nd_loop' op collective axis 'sm' is listed twice}}
    mgpu.nd_loop [%c8] collective_axes ["sm", "sm"] {
    ^bb0(%i: index, %step: index):
    }
  }
  return
}

// -----

func.func @snake_dim(%i: index, %n: index) {
  // expected-error @below {{'mgpu.planar_snake' op minor_dim must be 0 or 1, got 2}}
  %a, %b = mgpu.planar_snake %i in [%n, %n] minor_dim 2 tile_width 4
  return
}

// -----

func.func @snake_width(%i: index, %n: index) {
  // expected-error @below {{'mgpu.planar_snake' op tile_width must be positive, got 0}}
  %a, %b = mgpu.planar_snake %i in [%n, %n] minor_dim 0 tile_width 0
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @counter_in_smem(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [memref<1xi32, #gpu.address_space<workgroup>>] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %count: memref<1xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    // expected-error @below {{'mgpu.dynamic_scheduling_loop' op expects its counter in global memory (a global scratch buffer), got 'memref<1xi32, #gpu.address_space<workgroup>>'}}
    mgpu.dynamic_scheduling_loop [%c8] collective_axes ["sm"]
        counter %count[%c0] : memref<1xi32, #gpu.address_space<workgroup>> {
    ^bb0(%i: index, %step: index):
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
func.func @dynamic_axis(%o: memref<8xf32>) {
  mgpu.mpmd_map meshes [#mesh] outs(%o : memref<8xf32>) scratch [memref<1xi32>] {
  ^bb0(%g: memref<8xf32>, %count: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    // expected-error @below {{Axis q does not refer to a GPU mesh axis (available axes: ['sm'])}}
    mgpu.dynamic_scheduling_loop [%c8] collective_axes ["q"]
        counter %count[%c0] : memref<1xi32> {
    ^bb0(%i: index, %step: index):
    }
  }
  return
}

// -----

// Carries (JAX's init_carry): the results, the body's last arguments and
// its yield all have the carried types.
#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @carry_results(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    // expected-error @below {{'mgpu.nd_loop' op returns ('f32'), but carries values of types ('i32')}}
    %r = mgpu.nd_loop [%c8] collective_axes ["sm"] init_carry(%zero : i32) -> f32 {
    ^bb0(%i: index, %step: index, %k: i32):
      mgpu.yield %k : i32
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @carry_arguments(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    // expected-error @below {{'mgpu.nd_loop' op body must end with one argument per carried value, of types ('i32')}}
    %r = mgpu.nd_loop [%c8] collective_axes ["sm"] init_carry(%zero : i32) -> i32 {
    ^bb0(%i: index, %step: index, %k: f32):
      mgpu.yield %zero : i32
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @carry_missing(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : index
    // expected-error @below {{'mgpu.nd_loop' op expects the body to take 2 index arguments: one per grid dimension, then the local step; then the 1 carried values}}
    %r = mgpu.nd_loop [%c8] collective_axes ["sm"] init_carry(%zero : index) -> index {
    ^bb0(%i: index, %step: index):
      mgpu.yield %zero : index
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @carry_yield(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    %r = mgpu.nd_loop [%c8] collective_axes ["sm"] init_carry(%zero : i32) -> i32 {
    ^bb0(%i: index, %step: index, %k: i32):
      %f = arith.sitofp %k : i32 to f32
      // expected-error @below {{'mgpu.yield' op yields ('f32'), but its nd_loop carries ('i32')}}
      mgpu.yield %f : f32
    }
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [4], grid_names = ["sm"]>
func.func @dynamic_carry_yield(%o: memref<8xf32>) {
  mgpu.mpmd_map meshes [#one] outs(%o : memref<8xf32>) scratch [memref<1xi32>] {
  ^bb0(%g: memref<8xf32>, %count: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i32
    %r = mgpu.dynamic_scheduling_loop [%c8] collective_axes ["sm"]
        counter %count[%c0] : memref<1xi32> init_carry(%zero : i32) -> i32 {
    ^bb0(%i: index, %step: index, %k: i32):
      %f = arith.sitofp %k : i32 to f32
      // expected-error @below {{'mgpu.yield' op yields ('f32'), but its dynamic_scheduling_loop carries ('i32')}}
      mgpu.yield %f : f32
    }
  }
  return
}
