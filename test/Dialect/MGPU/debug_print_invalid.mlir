// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The format string follows JAX's rules, in its words
// (jax/_src/pallas/primitives.py:617-637): one `{}` for the one array, no
// field names, specs or conversions.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @two(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error @below {{'mgpu.debug_print' op The format string expects 2 arguments, but got 1}}
    mgpu.debug_print "{} {}" %v : vector<4xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @none(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error @below {{'mgpu.debug_print' op The format string expects 0 arguments, but got 1}}
    mgpu.debug_print "x" %v : vector<4xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @spec(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error @below {{'mgpu.debug_print' op The format string should not contain any format specs or conversions}}
    mgpu.debug_print "x: {:.2f}" %v : vector<4xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @named(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error @below {{'mgpu.debug_print' op The format string should not reference arguments by position or name}}
    mgpu.debug_print "x: {0}" %v : vector<4xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @lone(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<4xf32>
    // expected-error @below {{'mgpu.debug_print' op Single '}' encountered in format string}}
    mgpu.debug_print "x: {} }" %v : vector<4xf32>
  }
  return
}

// -----

func.func @outside(%v: vector<4xf32>) {
  // expected-error @below {{'mgpu.debug_print' op must be inside a kernel}}
  mgpu.debug_print "x: {}" %v : vector<4xf32>
  return
}
