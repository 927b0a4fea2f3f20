// A barrier index computed at run time that names no barrier of the array
// (here 2 of a count-2 array: the ring's slot count was changed to 3 but the
// barriers were not) stops the program with a diagnostic at the op, on the
// CPU and in the emulator, instead of writing over other memory (on a GPU it
// is undefined behaviour). Found by utils/fuzz.py.
// RUN: not mgpu-run %s -e main --backend=cpu 2>&1 | FileCheck %s
// The diagnostic comes before any asynchrony, so one schedule says it all
// (under `lit -D emulate_schedules=K` each schedule would also report its
// seed).
// RUN: not mgpu-run %s -e main --backend=emulate --emulate-schedules=1 2>&1 | FileCheck %s

// CHECK: barrier_index.mlir:[[# @LINE + 19]]:9: error: barrier index 2 is out of range: the barrier array has 2 barriers
// CHECK-NOT: error

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module {
  func.func @main() {
    %x = memref.alloc() : memref<512xf32>
    mgpu.mpmd_map meshes [#mesh] ins(%x : memref<512xf32>)
        scratch [memref<128xf32, #gpu.address_space<workgroup>>,
                 !mgpu.barrier<count = 2>] {
    ^bb0(%xa: memref<512xf32>, %buf: memref<128xf32, #gpu.address_space<workgroup>>,
         %full: !mgpu.barrier<count = 2>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %slot = arith.remui %k, %c3 : index
        mgpu.barrier_arrive %full[%slot] : !mgpu.barrier<count = 2>
      }
    }
    memref.dealloc %x : memref<512xf32>
    return
  }
}
