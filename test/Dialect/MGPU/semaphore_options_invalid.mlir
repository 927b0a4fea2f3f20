// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// semaphore_read checks its ref as the other semaphore ops do: inside a
// kernel, in global memory, one index per dimension.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @shared(%o: memref<1xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<1xi32>) scratch [memref<1xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<1xi32>, %s: memref<1xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.semaphore_read' op expects a semaphore ref in global memory, got one in shared memory}}
    // expected-note @below {{semaphores synchronize programs}}
    %v = mgpu.semaphore_read %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @indices(%o: memref<2x2xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<2x2xi32>) {
  ^bb0(%og: memref<2x2xi32>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.semaphore_read' op expects 2 indices for a semaphore ref of rank 2, got 1}}
    %v = mgpu.semaphore_read %og[%c0] : memref<2x2xi32>
  }
  return
}

// -----

func.func @outside(%s: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'mgpu.semaphore_read' op must be inside a kernel}}
  %v = mgpu.semaphore_read %s[%c0] : memref<1xi32>
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
func.func @not_bool(%o: memref<1xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<1xi32>) {
  ^bb0(%og: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    // expected-error @below {{attribute 'decrement' failed to satisfy constraint: bool attribute}}
    mgpu.semaphore_wait %og[%c0], %one {decrement = 0 : i32} : memref<1xi32>
  }
  return
}
