// examples/warp_specialized.mlir (a producer warpgroup streams chunks of x
// into a ring of 2 slots counted on `full` barriers and waits on `empty`
// before refilling; a consumer computes 3 x + 0.5) on every backend,
// against the formula computed with plain loops.
// RUN: cat %mgpu_src_root/examples/warp_specialized.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir

// CHECK: mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %zero = arith.constant 0 : i32
  %f3 = arith.constant 3.0 : f32
  %fh = arith.constant 0.5 : f32
  %x = memref.alloc() : memref<4096xf32>
  %o = memref.alloc() : memref<4096xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<4096xf32>
  }
  func.call @stream(%x, %o) : (memref<4096xf32>, memref<4096xf32>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
    %v = memref.load %x[%i] : memref<4096xf32>
    %t = arith.mulf %v, %f3 : f32
    %want = arith.addf %t, %fh : f32
    %got = memref.load %o[%i] : memref<4096xf32>
    %ne = arith.cmpf une, %got, %want : f32
    %inc = arith.extui %ne : i1 to i32
    %next = arith.addi %count, %inc : i32
    scf.yield %next : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32
  memref.dealloc %x : memref<4096xf32>
  memref.dealloc %o : memref<4096xf32>
  return
}
