// Producer/consumer with mpmd_map: two mesh/function pairs in one launch.
//
// Region 0 (one program) fills `buf` and signals a semaphore; region 1
// (one program) waits on it, then scales `buf` into `out`. Both regions see
// the same refs in global memory: input, output, then the scratch (a
// zero-initialized i32 semaphore). JAX's GPU backend refuses this program
// ("Lowering multiple mesh/function pairs is not supported"); mgpu's
// extended profile accepts it. Because the regions synchronize,
// --mgpu-split-mpmd refuses to split it into two launches.
//
// Summary: two mpmd_map regions synchronized by a semaphore

#producer = #mgpu.mesh<grid = [1], grid_names = ["p"]>
#consumer = #mgpu.mesh<grid = [1], grid_names = ["c"]>

func.func @producer_consumer(%buf: memref<128xf32>, %out: memref<128xf32>) {
  mgpu.mpmd_map meshes [#producer, #consumer]
      ins(%buf : memref<128xf32>) outs(%out : memref<128xf32>)
      scratch [memref<1xi32>] {
  ^bb0(%b0: memref<128xf32>, %o0: memref<128xf32>, %sem0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %v = arith.constant dense<2.0> : vector<128xf32>
    vector.store %v, %b0[%c0] : memref<128xf32>, vector<128xf32>
    mgpu.semaphore_signal %sem0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%b1: memref<128xf32>, %o1: memref<128xf32>, %sem1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %sem1[%c0], %one : memref<1xi32>
    %v = vector.load %b1[%c0] : memref<128xf32>, vector<128xf32>
    %three = arith.constant dense<3.0> : vector<128xf32>
    %r = arith.mulf %v, %three : vector<128xf32>
    vector.store %r, %o1[%c0] : memref<128xf32>, vector<128xf32>
  }
  return
}
