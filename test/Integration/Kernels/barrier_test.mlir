// mgpu.barrier_test (plgpu.barrier_test), used as JAX kernels use it:
//  - @spin: a TMA copy in, then `while (!barrier_test(b)) polls++` (a
//    lax.while_loop on the test), then x + 1 from the landed block; each
//    Pallas thread writes its poll count, checked only to be >= 0 (how many
//    polls a copy takes is the backend's business).
//  - @fallback: poll once, fall back to barrier_wait when the phase is not
//    done yet (scf.if), twice on the same barrier: the second copy is
//    phase 1, whichever branch consumed phase 0.
//  - @next_phase: two Pallas threads; thread 1 writes 1s to shared memory
//    and arrives (phase 0), waits for thread 0, writes 2s and arrives again
//    (phase 1). Thread 0 spins on barrier_test until phase 0 is done, reads
//    the 1s, lets thread 1 go, then barrier_wait: it waits for phase 1 (the
//    test consumed phase 0) and reads the 2s. Were the phase not consumed,
//    the wait would pass at once and read 1s (or race).
// Seeded schedules land the copy at its issue, at a later scheduling point
// or at a poll of lane 0, so that the polling loop also sees "not yet".
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run %s -e main --backend=emulate --emulate-seed 10 --emulate-schedules 16 | FileCheck %s --match-full-lines
// Thread 1 not waiting for `go` (a fuzz finding): it completes phases 0 and
// 1 before thread 0 polls, so thread 0's test of phase 0 (parity 0) finds
// phase 2 open forever, as it would on the GPU. Interpret mode reports the
// polling thread's deadlock after the wait timeout, at the test, with exit
// code 1 (it spun until killed before); the emulator reports the race.
// RUN: sed 's/mgpu.barrier_wait %%go\[%%c0\] : !bar/mgpu.barrier_arrive %%go[%%c0] : !bar/' %s > %t.no-go.mlir
// RUN: env MGPU_WAIT_TIMEOUT=1 not mgpu-run %t.no-go.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=NO-GO
// RUN: not mgpu-run %t.no-go.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-GO-EMU
// NO-GO: no-go.mlir:[[#]]:19: error: mgpu.barrier_test has found its phase open for {{.*}} s; the kernel deadlocks (nothing arrives on what it polls). Set MGPU_WAIT_TIMEOUT to wait longer.
// NO-GO-EMU: no-go.mlir:[[#]]:{{[0-9]+}}: error: data race

// CHECK: spin: 0 wrong, polls ok
// CHECK-NEXT: fallback: 0 wrong
// CHECK-NEXT: next phase: 1 then 2

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#wg = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!smem = memref<256xf32, #gpu.address_space<workgroup>>
!half = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
!bars = !mgpu.barrier<count = 2>

module {
  func.func @spin(%x: memref<256xf32>, %o: memref<256xf32>, %polls: memref<1xi32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>)
        outs(%o, %polls : memref<256xf32>, memref<1xi32>) scratch [!smem, !bar] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %pg: memref<1xi32>,
         %s: !smem, %b: !bar):
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      mgpu.copy_gmem_to_smem %xg, %s, %b[%c0] : memref<256xf32>, !smem, !bar
      %n = scf.while (%count = %zero) : (i32) -> i32 {
        %done = mgpu.barrier_test %b[%c0] : !bar
        %again = arith.xori %done, %true : i1
        scf.condition(%again) %count : i32
      } do {
      ^bb0(%count: i32):
        %next = arith.addi %count, %one : i32
        scf.yield %next : i32
      }
      memref.store %n, %pg[%c0] : memref<1xi32>
      %v = vector.load %s[%c0] : !smem, vector<256xf32>
      %ones = arith.constant dense<1.0> : vector<256xf32>
      %r = arith.addf %v, %ones : vector<256xf32>
      vector.store %r, %og[%c0] : memref<256xf32>, vector<256xf32>
    }
    return
  }

  func.func @fallback(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>)
        outs(%o : memref<256xf32>) scratch [!half, !half, !bars] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s0: !half, %s1: !half,
         %b: !bars):
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %ones = arith.constant dense<1.0> : vector<128xf32>
      %lo = memref.subview %xg[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
      %hi = memref.subview %xg[128] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 128>>
      // Phase 0 of barrier 1: the low half.
      mgpu.copy_gmem_to_smem %lo, %s0, %b[%c1] : memref<128xf32, strided<[1]>>, !half, !bars
      %done = mgpu.barrier_test %b[%c1] : !bars
      %pending = arith.xori %done, %true : i1
      scf.if %pending {
        mgpu.barrier_wait %b[%c1] : !bars
      }
      %v0 = vector.load %s0[%c0] : !half, vector<128xf32>
      %r0 = arith.addf %v0, %ones : vector<128xf32>
      vector.store %r0, %og[%c0] : memref<256xf32>, vector<128xf32>
      // Phase 1 of the same barrier: the high half.
      mgpu.copy_gmem_to_smem %hi, %s1, %b[%c1] : memref<128xf32, strided<[1], offset: 128>>, !half, !bars
      %done1 = mgpu.barrier_test %b[%c1] : !bars
      %pending1 = arith.xori %done1, %true : i1
      scf.if %pending1 {
        mgpu.barrier_wait %b[%c1] : !bars
      }
      %v1 = vector.load %s1[%c0] : !half, vector<128xf32>
      %r1 = arith.addf %v1, %ones : vector<128xf32>
      vector.store %r1, %og[%c128] : memref<256xf32>, vector<128xf32>
    }
    return
  }

  func.func @next_phase(%o: memref<2xf32>) {
    mgpu.mpmd_map meshes [#wg] outs(%o : memref<2xf32>)
        scratch [!half, !bar, !bar] {
    ^bb0(%og: memref<2xf32>, %s: !half, %ready: !bar, %go: !bar):
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      %c1 = arith.constant 1 : index
      %t = mgpu.axis_index "wg"
      %consumer = arith.cmpi eq, %t, %c0 : index
      scf.if %consumer {
        scf.while : () -> () {
          %done = mgpu.barrier_test %ready[%c0] : !bar
          %again = arith.xori %done, %true : i1
          scf.condition(%again)
        } do {
          scf.yield
        }
        %first = memref.load %s[%c0] : !half
        memref.store %first, %og[%c0] : memref<2xf32>
        mgpu.barrier_arrive %go[%c0] : !bar
        mgpu.barrier_wait %ready[%c0] : !bar
        %second = memref.load %s[%c1] : !half
        memref.store %second, %og[%c1] : memref<2xf32>
      } else {
        %ones = arith.constant dense<1.0> : vector<128xf32>
        vector.store %ones, %s[%c0] : !half, vector<128xf32>
        mgpu.barrier_arrive %ready[%c0] : !bar
        mgpu.barrier_wait %go[%c0] : !bar
        %twos = arith.constant dense<2.0> : vector<128xf32>
        vector.store %twos, %s[%c0] : !half, vector<128xf32>
        mgpu.barrier_arrive %ready[%c0] : !bar
      }
    }
    return
  }

  func.func @wrong(%x: memref<256xf32>, %o: memref<256xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %izero = arith.constant 0 : i32
    %ione = arith.constant 1 : i32
    %fone = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %c256 step %c1 iter_args(%n = %izero) -> i32 {
      %a = memref.load %x[%i] : memref<256xf32>
      %want = arith.addf %a, %fone : f32
      %got = memref.load %o[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %ione, %izero : i32
      %n2 = arith.addi %n, %inc : i32
      scf.yield %n2 : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %izero = arith.constant 0 : i32
    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    %o = memref.alloc() : memref<256xf32>
    %polls = memref.alloc() : memref<1xi32>
    func.call @spin(%x, %o, %polls) : (memref<256xf32>, memref<256xf32>, memref<1xi32>) -> ()
    %bad = func.call @wrong(%x, %o) : (memref<256xf32>, memref<256xf32>) -> i32
    %n = memref.load %polls[%c0] : memref<1xi32>
    %nonneg = arith.cmpi sge, %n, %izero : i32
    scf.if %nonneg {
      gpu.printf "spin: %d wrong, polls ok\n", %bad : i32
    } else {
      gpu.printf "spin: %d wrong, polls %d\n", %bad, %n : i32, i32
    }

    %o2 = memref.alloc() : memref<256xf32>
    func.call @fallback(%x, %o2) : (memref<256xf32>, memref<256xf32>) -> ()
    %bad2 = func.call @wrong(%x, %o2) : (memref<256xf32>, memref<256xf32>) -> i32
    gpu.printf "fallback: %d wrong\n", %bad2 : i32

    %o3 = memref.alloc() : memref<2xf32>
    func.call @next_phase(%o3) : (memref<2xf32>) -> ()
    %a = memref.load %o3[%c0] : memref<2xf32>
    %b = memref.load %o3[%c1] : memref<2xf32>
    %ai = arith.fptosi %a : f32 to i32
    %bi = arith.fptosi %b : f32 to i32
    gpu.printf "next phase: %d then %d\n", %ai, %bi : i32, i32
    return
  }
}
