// Who must fence before a copy out reads shared memory that other threads
// wrote (JAX's test_no_output: two compute warpgroups write a buffer,
// every warpgroup meets at a barrier, warpgroup 0 copies it out).
// The writes are generic-proxy stores; the TMA store reads in the async
// proxy, and a proxy fence (fence.proxy.async, mgpu.commit_smem) orders
// them. The PTX ISA's memory model states the ordering for a fence by the
// writing thread before the barrier; a fence by the copying thread only,
// after the barrier, rests on a rule it does not state. JAX's
// commit_smem (fence, then warpgroup barrier), CUTLASS's epilogue
// (tma_store_fence, then synchronize) and the CUDA guide's TMA example
// all fence in every writer before the barrier. So the emulator accepts:
//   each warpgroup that wrote runs commit_smem before the barrier;
// and reports (at the copy) a copy after a barrier whose other writers did
// not fence, even when the copying warpgroup fences after it. (JAX's own
// test_no_output copies with no fence at all.)
// RUN: %run_on_backends %s --match-full-lines
// RUN: sed 's/^ *mgpu.commit_smem  \/\/ writers$//; s/^ *\/\/ issuer: *mgpu.commit_smem$/        mgpu.commit_smem/' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=ISSUER
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// RUN: mgpu-run %t.mlir -e main --backend=emulate --check=none | FileCheck %s --match-full-lines

// CHECK: mismatches: 0
// ISSUER: proxy-fences.mlir.tmp.mlir:{{[0-9]+}}:9: error: {{.*}}copy_smem_to_gmem{{.*}}

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!buf = memref<256xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1, arrivals = 2>

module {
  func.func @write_then_copy(%o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#mesh] outs(%o : memref<256xf32>) scratch [!buf, !bar] {
    ^bb0(%og: memref<256xf32>, %s: !buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %wg = mgpu.axis_index "wg"
      %start = arith.muli %wg, %c128 : index
      %wgi = arith.index_cast %wg : index to i32
      %wgf = arith.sitofp %wgi : i32 to f32
      %v = vector.broadcast %wgf : f32 to vector<128xf32>
      vector.transfer_write %v, %s[%start] {in_bounds = [true]} : vector<128xf32>, !buf
      mgpu.commit_smem  // writers
      mgpu.barrier_arrive %bar[%c0] : !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      %first = arith.cmpi eq, %wg, %c0 : index
      scf.if %first {
        // issuer: mgpu.commit_smem
        mgpu.copy_smem_to_gmem %s, %og : !buf, memref<256xf32>
        mgpu.wait_smem_to_gmem 0
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %o = memref.alloc() : memref<256xf32>
    func.call @write_then_copy(%o) : (memref<256xf32>) -> ()
    %n = scf.for %i = %c0 to %c256 step %c1 iter_args(%a = %c0) -> index {
      %half = arith.divui %i, %c128 : index
      %hi = arith.index_cast %half : index to i32
      %want = arith.sitofp %hi : i32 to f32
      %got = memref.load %o[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %one = arith.select %ne, %c1, %c0 : index
      %b = arith.addi %a, %one : index
      scf.yield %b : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    memref.dealloc %o : memref<256xf32>
    return
  }
}
