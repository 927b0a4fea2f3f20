// A kernel body may hold an mgpu.barrier_init (the op the GPU lowering
// emits at kernel start; bodies never need one, scratch barriers start
// initialized): the CPU backend calls the host runtime for it, as the
// emulator does. It was left as an unrealized cast that LLVM translation
// refused (found by utils/fuzz.py from a generated driver of
// test/Dialect/MGPU/primitives.mlir). CPU only: on the emulator, as on a
// GPU, a body's init races with the other threads' arrivals and waits
// unless the CTA synchronizes around it.
// RUN: mgpu-run %s -e main --backend=cpu | FileCheck %s

// CHECK: ( 2, 2, 2, 2 )

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module {
  func.func @main() {
    %o = memref.alloc() : memref<4xf32>
    mgpu.mpmd_map meshes [#mesh] outs(%o : memref<4xf32>)
        scratch [!mgpu.barrier<count = 1>] {
    ^bb0(%oa: memref<4xf32>, %bar: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      mgpu.barrier_init %bar : !mgpu.barrier<count = 1>
      mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1>
      mgpu.barrier_wait %bar[%c0] parity %false : !mgpu.barrier<count = 1>
      %two = arith.constant dense<2.0> : vector<4xf32>
      vector.store %two, %oa[%c0] : memref<4xf32>, vector<4xf32>
    }
    %c0 = arith.constant 0 : index
    %v = vector.load %o[%c0] : memref<4xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    memref.dealloc %o : memref<4xf32>
    return
  }
}
