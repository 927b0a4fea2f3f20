// examples/attention_pallas_call.mlir (flash attention written with plain
// contractions and scratch state, as in a JAX pallas_call) on every
// backend, against the same scalar softmax(q k^T / 8) v as
// examples/attention.mlir (a relative 1e-2: p is rounded to bf16).
// RUN: cat %mgpu_src_root/examples/attention_pallas_call.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: %run_on_backends %t.mlir --match-full-lines -- --tensor-cores=0
// By default on sm_90a: 8 MMAs per step, b of the first read K-major
// (imm-trans-b 0), a of the second from registers (PTX's register-A form:
// four 32-bit registers, no staging).
// RUN: mgpu-opt %mgpu_src_root/examples/attention_pallas_call.mlir --mgpu-to-binary="format=isa" \
// RUN:   | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX-NOT: wgmma.mma_async

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
  func.call @attention_pallas_call(%q, %k, %v, %o)
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
