// A wait that nothing can complete fails with a diagnostic naming the op
// and its location instead of hanging, on the CPU and in the emulator
// (MGPU_WAIT_TIMEOUT seconds; 1 here). With its checks (the default) the
// emulator sees at once that every thread waits and nothing can arrive.
// RUN: rm -rf %t && split-file %s %t
// RUN: env MGPU_WAIT_TIMEOUT=1 not mgpu-run %t/barrier.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: env MGPU_WAIT_TIMEOUT=1 not mgpu-run %t/barrier.mlir -e main --backend=emulate --check=none 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: env MGPU_WAIT_TIMEOUT=1000 not mgpu-run %t/barrier.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=AT-ONCE
// RUN: env MGPU_WAIT_TIMEOUT=1 not mgpu-run %t/semaphore.mlir -e main --backend=cpu 2>&1 | FileCheck %s --check-prefix=SEMAPHORE
// RUN: env MGPU_WAIT_TIMEOUT=1 not mgpu-run %t/semaphore.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=SEMAPHORE

// BARRIER: barrier.mlir:9:5: error: mgpu.barrier_wait did not complete within {{.*}} s; the kernel deadlocks
// AT-ONCE: barrier.mlir:9:5: error: mgpu.barrier_wait waits for a phase that can never complete: every thread of the CTA waits and nothing is left to arrive
// SEMAPHORE: semaphore.mlir:9:5: error: mgpu.semaphore_wait did not complete within {{.*}} s; the kernel deadlocks

//--- barrier.mlir
#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
module {
  func.func @main() {
    %o = memref.alloc() : memref<1xf32>
    mgpu.mpmd_map meshes [#m] outs(%o : memref<1xf32>) scratch [!mgpu.barrier<count = 1>] {
    ^bb0(%oa: memref<1xf32>, %bar: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      // Nothing arrives on the barrier.
    mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
    }
    memref.dealloc %o : memref<1xf32>
    return
  }
}

//--- semaphore.mlir
#m = #mgpu.mesh<grid = [2], grid_names = ["g1"]>
module {
  func.func @main() {
    %o = memref.alloc() : memref<1xf32>
    mgpu.mpmd_map meshes [#m] outs(%o : memref<1xf32>) scratch [memref<1xi32>] {
    ^bb0(%oa: memref<1xf32>, %sem: memref<1xi32>):
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
    mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
    }
    memref.dealloc %o : memref<1xf32>
    return
  }
}
