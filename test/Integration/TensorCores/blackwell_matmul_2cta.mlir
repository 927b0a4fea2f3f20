// examples/blackwell_matmul_2cta.mlir (a pair of CTAs per cluster:
// partitioned TMA copies that complete on the first CTA's barrier,
// collective tcgen05 MMAs that the first CTA issues into both CTAs' tensor
// memory, commits multicast to both) on every backend, against a scalar
// reference. Inputs are small integers, so every sum is exact whatever the
// order.
// RUN: cat %mgpu_src_root/examples/blackwell_matmul_2cta.mlir %s > %t.mlir
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
// The GPU form for sm_100a: ptxas accepts it without spills.
// RUN: mgpu-opt %t.mlir --mgpu-to-binary="chip=sm_100a format=isa" -o /dev/null
// On the emulator each CTA of the pair issues its own part of a
// partitioned copy; the first CTA's barrier completes once both parts have
// landed. With the second CTA's producer not waiting for the stage's
// release, it refills its part while the first CTA's MMA may still read it
// (or before the MMA has read the previous fill): reported at an op, with
// exit code 1, on the default schedule and two seeded ones. Before each CTA
// issued its own part, the emulator ran both parts from the first CTA and
// saw nothing.
// RUN: sed 's/^\( *\)scf.if %%reuse {/\1%%first_cta = arith.cmpi eq, %%x, %%c0 : index\n\1%%waits = arith.andi %%reuse, %%first_cta : i1\n\1scf.if %%waits {/' %t.mlir > %t.peer-early.mlir
// RUN: grep -c "scf.if %%waits" %t.peer-early.mlir | FileCheck %s --check-prefix=ONE
// RUN: not mgpu-run %t.peer-early.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=PEER-EARLY
// RUN: not mgpu-run %t.peer-early.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// ONE: 1
// TWO: 2
// PEER-EARLY: peer-early.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}shared memory that {{.*}}(an emulator check


// (x * mul + y) mod 7 - 3.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c7 : index
  %d = arith.subi %m, %c3 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = arith.constant 256 : index
  %n = arith.constant 512 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x512xbf16>
  %b = memref.alloc() : memref<512x512xbf16>
  %c = memref.alloc() : memref<256x512xf32>
  %kn = arith.constant 512 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
      %yb = arith.truncf %y : f32 to bf16
      memref.store %yb, %b[%k, %i] : memref<512x512xbf16>
    }
  }
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      memref.store %xb, %a[%i, %k] : memref<256x512xbf16>
    }
  }
  func.call @blackwell_matmul_2cta(%a, %b, %c) : (memref<256x512xbf16>, memref<512x512xbf16>, memref<256x512xf32>) -> ()
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%mm = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<256x512xf32>
      %ne = arith.cmpf une, %got, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %mm, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  %c200 = arith.constant 200 : index
  %c300 = arith.constant 300 : index
  %v = vector.load %c[%c200, %c300] : memref<256x512xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( -1028, 6, 4, -1020 )
