// The emulator's hazard checks (mgpu-run --check, all by default on the
// emulate backend) on planted bugs: each is a correct kernel with one thing
// taken out, and each is reported as `file:line:col: error:` at the op that
// meets the hazard, with exit status 1. The correct kernels run clean with
// the checks on (here and in every other run test), and with --check=none
// the planted bugs run to the end, giving numbers (wrong, or right by luck).
// RUN: rm -rf %t && split-file %s %t
// RUN: mgpu-run %t/reverse.mlir -e main --backend=emulate | FileCheck %s --check-prefix=REVERSE
// RUN: mgpu-run %t/phases.mlir -e main --backend=emulate | FileCheck %s --check-prefix=PHASES
// RUN: mgpu-run %t/phases.mlir -e main --backend=cpu | FileCheck %s --check-prefix=PHASES

// A CTA barrier taken out between two warps that exchange values through
// shared memory. The emulator runs thread 0 up to its first wait, so it
// reads before the second warp writes: a read of never-written memory, and
// with only the race check a data race at the later write.
// RUN: sed 's/^ *gpu.barrier$/      \/\/ removed/' %t/reverse.mlir > %t/no-barrier.mlir
// RUN: not mgpu-run %t/no-barrier.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-BARRIER
// RUN: not mgpu-run %t/no-barrier.mlir -e main --backend=emulate --check=races 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: mgpu-run %t/no-barrier.mlir -e main --backend=emulate --check=none --emulate-schedules 1 | FileCheck %s --check-prefix=UNCHECKED
// NO-BARRIER: no-barrier.mlir:19:12: error: reads shared memory that nothing wrote (an emulator check; --check=none turns them off)
// RACE: no-barrier.mlir:16:7: error: data race: writes shared memory that thread {{[0-9]+}} reads at {{.*}}no-barrier.mlir:19:12 with no barrier in between (an emulator check; --check=none turns them off)
// UNCHECKED: [{{.*}}]

// The store taken out: the kernel reads shared memory that nothing wrote.
// RUN: sed 's/^ *memref.store %x, .tile.*$/      \/\/ removed/' %t/reverse.mlir > %t/no-store.mlir
// RUN: not mgpu-run %t/no-store.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: no-store.mlir:19:12: error: reads shared memory that nothing wrote

// The barrier between the warpgroups of a warp-specialized matmul taken
// out: consumer 1 writes its results over a stage that consumer 0's wgmma
// reads.
// RUN: sed 's/^\( *\)mgpu.barrier_\(arrive\|wait\) %done.*$/\1\/\/ removed/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/no-done.mlir
// RUN: not mgpu-run %t/no-done.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=WARPGROUPS
// WARPGROUPS: no-done.mlir:141:7: error: {{.*}}at {{.*}}no-done.mlir:116:23{{.*}}

// Its commit_smem taken out: the copies out read the consumers' generic
// writes without a proxy fence.
// RUN: sed 's/^\( *\)mgpu.commit_smem$/\1\/\/ removed/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/no-commit.mlir
// RUN: not mgpu-run %t/no-commit.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=COMMIT
// COMMIT: no-commit.mlir:148:7: error: copy_smem_to_gmem reads shared memory that thread {{[0-9]+}} wrote at {{.*}}no-commit.mlir:141:7 with no mgpu.commit_smem (proxy fence) since

// Its wgmma_wait before the release of a stage loosened to leave the
// previous step's MMAs in flight (taking it out entirely is safe in this
// lowering, which completes pending MMAs before the next op with memory
// effects): the producer's copy overwrites the stage they read.
// RUN: sed 's/^\( *\)mgpu.wgmma_wait 1$/\1mgpu.wgmma_wait 3/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/no-wgmma-wait.mlir
// RUN: not mgpu-run %t/no-wgmma-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=WGMMA
// WGMMA: no-wgmma-wait.mlir:87:9: error: copy_gmem_to_smem overwrites shared memory that a wgmma of warpgroup 0 (at {{.*}}no-wgmma-wait.mlir:116:23) may still read: no mgpu.wgmma_wait that completes it happens before this write

// Its `full` barriers told to expect one arrival per phase instead of two
// (the transaction count of one copy, not both): the second copy arrives
// on a phase that is already complete once the first lands.
// RUN: sed 's/^!full = !mgpu.barrier<count = 4, arrivals = 2>/!full = !mgpu.barrier<count = 4, arrivals = 1>/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/expect-one.mlir
// RUN: not mgpu-run %t/expect-one.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=ARRIVALS
// ARRIVALS: expect-one.mlir:89:9: error: more arrivals than the barrier's count: this copy arrives on a phase that already has its 1 arrival

// The producer's wait on `empty` taken out of a warp-specialized stream:
// it refills a slot that the consumer still reads, or that the copy of two
// steps before still writes (the producer runs ahead with no barrier of its
// own in its loop: which of the two is seen first depends on the schedule).
// RUN: sed 's/^\( *\)mgpu.barrier_wait %empty.*$/\1\/\/ removed/' %mgpu_src_root/examples/warp_specialized.mlir | cat - %S/../MPMD/warp-specialized.mlir > %t/no-empty.mlir
// RUN: not mgpu-run %t/no-empty.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: no-empty.mlir:46:9: error: {{.*}}copy_gmem_to_smem writes shared memory that {{.*(no-empty.mlir:57:14|another async copy in is still writing)}}

// A skipped phase: step 1 waits for the parity of phase 0 again, which
// has completed, so it reads the slot before its copy lands (and, shared
// memory starting undefined, before anything wrote it).
// RUN: sed 's/arith.trunci [%]wide : i64 to i1/arith.constant false/' %t/phases.mlir > %t/skipped.mlir
// RUN: not mgpu-run %t/skipped.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=SKIPPED
// SKIPPED: skipped.mlir:{{19:9|24:14}}: error: {{.*}}{{copy_gmem_to_smem|async copy in|nothing wrote}}

// A copy out never waited for before the kernel ends.
// RUN: sed 's/^ *mgpu.wait_smem_to_gmem 0$/      \/\/ removed/' %mgpu_src_root/examples/matmul_warp_specialized.mlir | cat - %S/../TensorCores/matmul_warp_specialized.mlir > %t/no-copy-wait.mlir
// RUN: not mgpu-run %t/no-copy-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=COPY-WAIT
// COPY-WAIT: no-copy-wait.mlir:150:7: error: the kernel ends while this copy_smem_to_gmem may still read shared memory: no mgpu.wait_smem_to_gmem waits for it

// Each planted bug is caught on every one of 3 seeded schedules of the
// emulator's async operations (copies landing and read at other points,
// lanes reordered at arrivals, copies and wgmma waits: schedules.mlir), not
// only on the deterministic one.
// RUN: not mgpu-run %t/no-barrier.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-store.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-done.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-commit.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-wgmma-wait.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/expect-one.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-empty.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/skipped.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// RUN: not mgpu-run %t/no-copy-wait.mlir -e main --backend=emulate --emulate-schedules 3 2>&1 | grep -c "schedule with seed [123] failed" | FileCheck %s --check-prefix=THREE
// THREE: 3

// An unknown check is refused.
// RUN: not mgpu-run %t/reverse.mlir -e main --backend=emulate --check=races,speed 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: mgpu-run: error: --check: unknown check 'speed' (all, none, or a list of races, async, barriers, init, bounds)

// REVERSE: [63,  62,  61,  60,  59,  58,  57,  56,  55,  54,  53,  52,  51,  50,  49,  48,  47,  46,  45,  44,  43,  42,  41,  40,  39,  38,  37,  36,  35,  34,  33,  32,  31,  30,  29,  28,  27,  26,  25,  24,  23,  22,  21,  20,  19,  18,  17,  16,  15,  14,  13,  12,  11,  10,  9,  8,  7,  6,  5,  4,  3,  2,  1,  0]
// PHASES: 0
// PHASES-NEXT: 255

//--- reverse.mlir
// One block of 64 threads (two warps) reverses 64 elements through
// workgroup memory.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc() : memref<64xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
               workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) {
      %n = arith.index_cast %tx : index to i32
      %x = arith.sitofp %n : i32 to f32
      // The first warp's values come from the second warp and back.
      memref.store %x, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %tx : index
      %y = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%tx] : memref<64xf32>
      gpu.terminator
    }
    %p = memref.cast %out : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

//--- phases.mlir
#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!ring = memref<1024xi8, #gpu.address_space<workgroup>>
!slot = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
module {
  func.func @phases(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
        scratch [!ring, !bar] {
    ^bb0(%xa: memref<256xf32>, %oa: memref<256xf32>, %ring: !ring, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      scf.for %k = %c0 to %c2 step %c1 {
        %shift = arith.muli %k, %c512 : index
        %s = memref.view %ring[%shift][] : !ring to !slot
        %at = arith.muli %k, %c128 : index
        mgpu.copy_gmem_to_smem %xa[%at], %s, %bar[%c0] : memref<256xf32>, !slot, !bar
        // Step k waits for phase k of the barrier.
        %wide = arith.index_cast %k : index to i64
        %bit = arith.trunci %wide : i64 to i1
        mgpu.barrier_wait %bar[%c0] parity %bit : !bar
        %v = vector.load %s[%c0] : !slot, vector<128xf32>
        vector.store %v, %oa[%at] : memref<256xf32>, vector<128xf32>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c255 = arith.constant 255 : index
    %x = memref.alloc() : memref<256xf32>
    %o = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %n = arith.index_cast %i : index to i32
      %f = arith.sitofp %n : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    func.call @phases(%x, %o) : (memref<256xf32>, memref<256xf32>) -> ()
    %first = memref.load %o[%c0] : memref<256xf32>
    %last = memref.load %o[%c255] : memref<256xf32>
    vector.print %first : f32
    vector.print %last : f32
    memref.dealloc %x : memref<256xf32>
    memref.dealloc %o : memref<256xf32>
    return
  }
}
