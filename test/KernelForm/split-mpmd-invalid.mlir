// RUN: mgpu-opt %s --mgpu-split-mpmd -split-input-file -verify-diagnostics

// Producer/consumer regions synchronize through a semaphore: splitting them
// into two launches would make the consumer wait for a launch that only
// starts after it.

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>

func.func @producer_consumer(%o: memref<4xf32>) {
  // expected-note @below {{the mpmd_map is here}}
  mgpu.mpmd_map meshes [#m, #m] outs(%o : memref<4xf32>) scratch [memref<1xi32>] {
  ^bb0(%o0: memref<4xf32>, %s0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%o1: memref<4xf32>, %s1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    // expected-error @below {{'mgpu.semaphore_wait' op synchronizes regions #0 and #1 of an mgpu.mpmd_map, which must then run concurrently in one launch; --mgpu-split-mpmd cannot split it}}
    mgpu.semaphore_wait %s1[%c0], %one : memref<1xi32>
  }
  return
}
