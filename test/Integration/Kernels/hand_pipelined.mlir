// examples/hand_pipelined.mlir (each program pipelines its 16 rows of x
// over 4 steps of 64 columns with an emit_pipeline) on every backend,
// against row sums computed with plain loops.
// RUN: cat %mgpu_src_root/examples/hand_pipelined.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir

// CHECK: mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<64x256xf32>
  %o = memref.alloc() : memref<64xf32>
  // Small integers, so that every order of summation gives the same sum.
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %c = %c0 to %c256 step %c1 {
      %rc = arith.addi %r, %c : index
      %m = arith.remui %rc, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      memref.store %f, %x[%r, %c] : memref<64x256xf32>
    }
  }
  func.call @row_sums(%x, %o) : (memref<64x256xf32>, memref<64xf32>) -> ()
  %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%count = %zero) -> i32 {
    %want = scf.for %c = %c0 to %c256 step %c1 iter_args(%s = %fzero) -> f32 {
      %v = memref.load %x[%r, %c] : memref<64x256xf32>
      %t = arith.addf %s, %v : f32
      scf.yield %t : f32
    }
    %got = memref.load %o[%r] : memref<64xf32>
    %ne = arith.cmpf une, %got, %want : f32
    %inc = arith.extui %ne : i1 to i32
    %next = arith.addi %count, %inc : i32
    scf.yield %next : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32
  memref.dealloc %x : memref<64x256xf32>
  memref.dealloc %o : memref<64xf32>
  return
}
