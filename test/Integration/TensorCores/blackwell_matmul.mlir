// examples/blackwell_matmul.mlir (a TMA producer warpgroup, an MMA issuer
// with its accumulator in tensor memory, a 4-stage ring whose stages the
// MMA commits release) on every backend, against a scalar reference. Inputs
// are small integers, so every sum is exact whatever the order.
// RUN: cat %mgpu_src_root/examples/blackwell_matmul.mlir %s > %t.mlir
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
// The GPU form for sm_100a: ptxas accepts it without spills.
// RUN: mgpu-opt %t.mlir --mgpu-to-binary="chip=sm_100a format=isa" -o /dev/null
// The epilogue's wait for the MMAs' commit taken out: it reads the
// accumulator while the MMAs may still write it. The emulator computes an
// MMA when it is issued (the numbers come out right), and its checks keep
// the accumulator's rows pending until a thread waits on the barrier of a
// commit that covers the MMA: the load is reported at its op.
// RUN: sed 's/^ *mgpu.barrier_wait %done.*$/      \/\/ removed/' %t.mlir > %t.no-wait.mlir
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-WAIT
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// NO-WAIT: no-wait.mlir:{{[0-9]+}}:12: error: reads tensor memory that a tcgen05_mma (at {{.*}}no-wait.mlir:{{[0-9]+}}:9) may still write: wait on the barrier its tcgen05_commit_arrive signals first
//
// The stage released by a plain arrival instead of the MMA's commit: the
// producer refills the stage while the MMA may still read it (on the GPU
// the MMA reads its operands after it is issued, until its commit). The
// emulator keeps the MMA's reads of shared memory pending until a thread
// waits on the barrier of a commit that covers it: the refill is reported
// at its copy, on the default schedule and on two seeded ones.
// RUN: sed 's/tcgen05_commit_arrive %empty/barrier_arrive %empty/' %t.mlir > %t.arrive.mlir
// RUN: not mgpu-run %t.arrive.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=ARRIVE
// RUN: not mgpu-run %t.arrive.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// ARRIVE: arrive.mlir:{{[0-9]+}}:9: error: copy_gmem_to_smem overwrites shared memory that a tcgen05_mma (at {{.*}}arrive.mlir:{{[0-9]+}}:9) may still read: wait on the barrier its tcgen05_commit_arrive signals first


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
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x512xbf16>
  %b = memref.alloc() : memref<512x256xbf16>
  %c = memref.alloc() : memref<256x256xf32>
  %kn = arith.constant 512 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      %yb = arith.truncf %y : f32 to bf16
      memref.store %xb, %a[%i, %k] : memref<256x512xbf16>
      memref.store %yb, %b[%k, %i] : memref<512x256xbf16>
    }
  }
  func.call @blackwell_matmul(%a, %b, %c) : (memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<256x256xf32>
      %ne = arith.cmpf une, %got, %sum : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  %c200 = arith.constant 200 : index
  %v = vector.load %c[%c200, %c0] : memref<256x256xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( 6, 4, -1020, 511 )
