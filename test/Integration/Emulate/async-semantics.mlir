// The emulator gives async copies their GPU semantics, so that a kernel
// that forgets to wait gets wrong numbers instead of passing by luck: a copy
// into shared memory lands only when a thread waits on its barrier, a copy
// out writes global memory when its bulk group is waited for, or after the
// kernel (as the hardware's bulk copies do; whether it still read the
// right shared memory as the kernel ended is up to chance, which the checks
// report). Interpret mode copies synchronously, so there both kernels
// happen to work. The emulator's checks (on by default; off here to show
// the numbers of the deterministic schedule) report both bugs: checks.mlir.
// Shared memory starts undefined (poison in the emulator: -nan here).
// RUN: mgpu-run %s -e main --backend=emulate --check=none --emulate-schedules 1 | FileCheck %s --check-prefix=EMULATE
// RUN: not mgpu-run %s -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: sed 's/^ *func.call @early_read.*$//' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=UNWAITED
// RUN: mgpu-run %s -e main --backend=cpu | FileCheck %s --check-prefix=CPU

// EMULATE: read before the wait: -nan
// EMULATE-NEXT: read after the wait: 7
// EMULATE-NEXT: copy out never waited for: 7
// EARLY: async-semantics.mlir:{{37:7|39:16}}: error: {{.*}}{{copy_gmem_to_smem|nothing wrote}}{{.*}}
// UNWAITED: .mlir:56:7: error: the kernel ends while this copy_smem_to_gmem may still read shared memory: no mgpu.wait_smem_to_gmem waits for it
// CPU: read before the wait: 7
// CPU-NEXT: read after the wait: 7
// CPU-NEXT: copy out never waited for: 7

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @early_read(%x: memref<128xf32>, %o: memref<2xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<128xf32>) outs(%o : memref<2xf32>)
        scratch [!smem, !bar] {
    ^bb0(%xa: memref<128xf32>, %oa: memref<2xf32>, %s: !smem, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      mgpu.copy_gmem_to_smem %xa, %s, %bar[%c0] : memref<128xf32>, !smem, !bar
      // Wrong: the copy may not have landed.
      %early = memref.load %s[%c0] : !smem
      memref.store %early, %oa[%c0] : memref<2xf32>
      mgpu.barrier_wait %bar[%c0] : !bar
      %late = memref.load %s[%c0] : !smem
      memref.store %late, %oa[%c1] : memref<2xf32>
    }
    return
  }

  func.func @unwaited_copy_out(%o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128xf32>) scratch [!smem] {
    ^bb0(%oa: memref<128xf32>, %s: !smem):
      %c0 = arith.constant 0 : index
      %seven = arith.constant dense<7.0> : vector<128xf32>
      vector.store %seven, %s[%c0] : !smem, vector<128xf32>
      mgpu.commit_smem
      // Wrong: no mgpu.wait_smem_to_gmem before the kernel ends.
      mgpu.copy_smem_to_gmem %s, %oa : !smem, memref<128xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %seven = arith.constant 7.0 : f32
    %minus = arith.constant -1.0 : f32
    %x = memref.alloc() : memref<128xf32>
    %o = memref.alloc() : memref<2xf32>
    %p = memref.alloc() : memref<128xf32>
    linalg.fill ins(%seven : f32) outs(%x : memref<128xf32>)
    linalg.fill ins(%minus : f32) outs(%p : memref<128xf32>)
    func.call @early_read(%x, %o) : (memref<128xf32>, memref<2xf32>) -> ()
    func.call @unwaited_copy_out(%p) : (memref<128xf32>) -> ()
    %early = memref.load %o[%c0] : memref<2xf32>
    %late = memref.load %o[%c1] : memref<2xf32>
    %out = memref.load %p[%c0] : memref<128xf32>
    vector.print str "read before the wait: "
    vector.print %early : f32
    vector.print str "read after the wait: "
    vector.print %late : f32
    vector.print str "copy out never waited for: "
    vector.print %out : f32
    memref.dealloc %x : memref<128xf32>
    memref.dealloc %o : memref<2xf32>
    memref.dealloc %p : memref<128xf32>
    return
  }
}
