// examples/blackwell_matmul_persistent.mlir (persistent pairs of CTAs:
// nd_loop over 4 tiles, double-buffered TMEM slots, partitioned TMA
// copies, collective MMAs, an epilogue thread freeing each slot through a
// cluster barrier) on every backend, against a scalar reference. Inputs are small integers, so every sum is exact whatever the
// order.
// RUN: cat %mgpu_src_root/examples/blackwell_matmul_persistent.mlir %s > %t.mlir
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
// Without its store_done wait the MMA thread may overwrite a slot that the
// store thread still reads: the emulator's checks (TMEM accesses checked
// as shared memory's) report the race at the MMA.
// RUN: sed 's/mgpu.barrier_wait %%store_done\[%%acc_slot\] : !store_done//' %mgpu_src_root/examples/blackwell_matmul_persistent.mlir > %t.race.mlir
// RUN: not grep "barrier_wait %%store_done" %t.race.mlir
// RUN: cat %s >> %t.race.mlir
// RUN: not mgpu-run %t.race.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: data race: writes tensor memory that thread {{[0-9]+}} of the cluster's CTA {{[0-9]+}} reads at {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}} with no barrier in between
// store_done made a CTA barrier (LOCAL): the MMA thread of the pair's first
// CTA waits only for its own CTA's store thread, and the pair's MMA
// overwrites the second CTA's rows while its store thread may still read
// them. The emulator checks a pair's MMA writes into the peer's tensor
// memory as the issuing thread's: reported at the MMA, on the default
// schedule and two seeded ones (before, the peer's rows were only marked
// written, and the run passed).
// RUN: sed 's/^!store_done = .*/!store_done = !mgpu.barrier<count = 2, arrivals = 1>/' %mgpu_src_root/examples/blackwell_matmul_persistent.mlir > %t.local.mlir
// RUN: cat %s >> %t.local.mlir
// RUN: not mgpu-run %t.local.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not mgpu-run %t.local.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// LOCAL: local.mlir:[[#]]:11: error: data race: writes tensor memory that thread 0 of the cluster's CTA 1 reads at {{.*}}local.mlir:[[#]]:16 with no barrier in between
// The GPU form for sm_100a: ptxas accepts it without spills.
// RUN: mgpu-opt %t.mlir --mgpu-to-binary="chip=sm_100a format=isa" -o /dev/null


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
  %n = arith.constant 1024 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x512xbf16>
  %b = memref.alloc() : memref<512x1024xbf16>
  %c = memref.alloc() : memref<256x1024xf32>
  %kn = arith.constant 512 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
      %yb = arith.truncf %y : f32 to bf16
      memref.store %yb, %b[%k, %i] : memref<512x1024xbf16>
    }
  }
  scf.for %i = %c0 to %m step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      memref.store %xb, %a[%i, %k] : memref<256x512xbf16>
    }
  }
  func.call @blackwell_matmul_persistent(%a, %b, %c) : (memref<256x512xbf16>, memref<512x1024xbf16>, memref<256x1024xf32>) -> ()
  %bad = scf.for %i = %c0 to %m step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%mm = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<256x1024xf32>
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
  %v = vector.load %c[%c200, %c300] : memref<256x1024xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( -1028, 6, 4, -1020 )
