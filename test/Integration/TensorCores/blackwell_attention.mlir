// examples/blackwell_attention.mlir (flash attention forward with tcgen05
// MMAs: s = q k^T into tensor memory, p written to tensor memory as the a
// of p v) on every backend, against a scalar softmax(q k^T / 8) v in f32.
// The kernel rounds p to bf16 before p v, so entries may differ by a
// relative 1e-2.
// RUN: cat %mgpu_src_root/examples/blackwell_attention.mlir %s > %t.mlir
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
// The GPU form for sm_100a: ptxas accepts it without spills.
// RUN: mgpu-opt %t.mlir --mgpu-to-binary="chip=sm_100a format=isa" -o /dev/null

// ((x * a + y * b) mod m - m / 2) * scale.
func.func @pattern(%x: index, %y: index, %a: index, %b: index, %m: index, %scale: f32) -> f32 {
  %xa = arith.muli %x, %a : index
  %yb = arith.muli %y, %b : index
  %s = arith.addi %xa, %yb : index
  %r = arith.remui %s, %m : index
  %c2 = arith.constant 2 : index
  %h = arith.divui %m, %c2 : index
  %d = arith.subi %r, %h : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  %v = arith.mulf %f, %scale : f32
  return %v : f32
}

func.func @q_at(%i: index, %d: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %s = arith.constant 0.25 : f32
  %v = func.call @pattern(%i, %d, %c3, %c5, %c7, %s) : (index, index, index, index, index, f32) -> f32
  // Mostly positive rows, so that k's ramp raises the scores block by block.
  %w = arith.addf %v, %s : f32
  return %w : f32
}
func.func @k_at(%j: index, %d: index) -> f32 {
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %s = arith.constant 0.125 : f32
  %v = func.call @pattern(%j, %d, %c5, %c3, %c11, %s) : (index, index, index, index, index, f32) -> f32
  // A ramp over the kv blocks, so that row maxima move between blocks and
  // the rescaling by exp(m_old - m_new) matters.
  %c64 = arith.constant 64 : index
  %blk = arith.divui %j, %c64 : index
  %bi = arith.index_cast %blk : index to i32
  %bf = arith.sitofp %bi : i32 to f32
  %quarter = arith.constant 0.25 : f32
  %ramp = arith.mulf %bf, %quarter : f32
  %w = arith.addf %v, %ramp : f32
  return %w : f32
}
func.func @v_at(%j: index, %c: index) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %s = arith.constant 1.0 : f32
  %v = func.call @pattern(%j, %c, %c1, %c2, %c7, %s) : (index, index, index, index, index, f32) -> f32
  return %v : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 256 : index
  %q = memref.alloc() : memref<256x64xbf16>
  %k = memref.alloc() : memref<256x64xbf16>
  %v = memref.alloc() : memref<256x64xbf16>
  %o = memref.alloc() : memref<256x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %d = %c0 to %c64 step %c1 {
      %x = func.call @q_at(%i, %d) : (index, index) -> f32
      %y = func.call @k_at(%i, %d) : (index, index) -> f32
      %z = func.call @v_at(%i, %d) : (index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      %yb = arith.truncf %y : f32 to bf16
      %zb = arith.truncf %z : f32 to bf16
      memref.store %xb, %q[%i, %d] : memref<256x64xbf16>
      memref.store %yb, %k[%i, %d] : memref<256x64xbf16>
      memref.store %zb, %v[%i, %d] : memref<256x64xbf16>
    }
  }
  func.call @blackwell_attention(%q, %k, %v, %o)
      : (memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xf32>) -> ()

  // The reference, row by row: scores, their maximum, weights, sums.
  %scores = memref.alloc() : memref<256xf32>
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eighth = arith.constant 0.125 : f32
  %tol = arith.constant 0.01 : f32
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %mx = scf.for %j = %c0 to %n step %c1 iter_args(%m = %ninf) -> f32 {
      %dot = scf.for %d = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
        %x = func.call @q_at(%i, %d) : (index, index) -> f32
        %y = func.call @k_at(%j, %d) : (index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %a = arith.addf %acc, %p : f32
        scf.yield %a : f32
      }
      %sc = arith.mulf %dot, %eighth : f32
      memref.store %sc, %scores[%j] : memref<256xf32>
      %m2 = arith.maximumf %m, %sc : f32
      scf.yield %m2 : f32
    }
    %l = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %f0) -> f32 {
      %sc = memref.load %scores[%j] : memref<256xf32>
      %sh = arith.subf %sc, %mx : f32
      %e = math.exp %sh : f32
      memref.store %e, %scores[%j] : memref<256xf32>
      %a = arith.addf %acc, %e : f32
      scf.yield %a : f32
    }
    %row_bad = scf.for %c = %c0 to %c64 step %c1 iter_args(%rc = %count) -> index {
      %num = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %f0) -> f32 {
        %e = memref.load %scores[%j] : memref<256xf32>
        %z = func.call @v_at(%j, %c) : (index, index) -> f32
        %p = arith.mulf %e, %z : f32
        %a = arith.addf %acc, %p : f32
        scf.yield %a : f32
      }
      %want = arith.divf %num, %l : f32
      %got = memref.load %o[%i, %c] : memref<256x64xf32>
      %err = arith.subf %got, %want : f32
      %abs = math.absf %err : f32
      %mag = math.absf %want : f32
      %room = arith.addf %mag, %f1 : f32
      %limit = arith.mulf %room, %tol : f32
      %off = arith.cmpf ugt, %abs, %limit : f32
      %inc = arith.select %off, %c1, %c0 : index
      %next = arith.addi %rc, %inc : index
      scf.yield %next : index
    }
    scf.yield %row_bad : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
// CHECK: mismatches: 0
