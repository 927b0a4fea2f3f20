// A semaphore wait in a pallas_call body (JAX's SemaphoreTest): program 1
// waits until program 0 has written its block and signalled, then reads
// that block from global memory. Interpret mode runs the programs of such a
// pallas_call on their own host threads (they may wait for each other);
// every backend gives the same numbers.
// RUN: %run_on_backends %s --match-full-lines
// The wait taken out: program 1 reads what program 0 writes with nothing
// between them. The emulator's checks of global memory (clusters ordered
// by their semaphores' signals and waits) report the read at its op.
// RUN: sed 's/^ *mgpu.semaphore_wait [%]sem.*$/        \/\/ removed/' %s > %t.mlir
// RUN: not mgpu-run %t.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-WAIT
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// A launch that only signals runs its CTAs on host threads of their own,
// so either access may come second: the report is at the read (program 1
// reads what program 0 wrote) or at the write (program 0 writes what
// program 1 read).
// NO-WAIT: .mlir:{{[0-9]+}}:{{[0-9]+}}: error: data race on global memory: {{reads what CTA 0 \(cluster 0\) writes|writes what CTA 1 \(cluster 1\) reads}} at {{.*}} with no semaphore or barrier between them

#g = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#p = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %o = memref.alloc() : memref<256xf32>
    mgpu.pallas_call grid [2] outs(%o : memref<256xf32>) in_specs []
        out_specs [#g] scratch [memref<1xi32>] params #p {
    ^bb0(%os: memref<256xf32>, %sem: memref<1xi32>):
      %z = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %one = arith.constant 1 : i32
      %pad = arith.constant 0.0 : f32
      %pid = mgpu.program_id 0
      %first = arith.cmpi eq, %pid, %z : index
      scf.if %first {
        %v = arith.constant dense<3.0> : vector<128xf32>
        vector.transfer_write %v, %os[%z] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32>
        mgpu.semaphore_signal %sem[%z], %one : memref<1xi32>
      } else {
        mgpu.semaphore_wait %sem[%z], %one : memref<1xi32>
        %v = vector.transfer_read %os[%z], %pad {in_bounds = [true]}
            : memref<256xf32>, vector<128xf32>
        %w = arith.addf %v, %v : vector<128xf32>
        vector.transfer_write %w, %os[%c128] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32>
      }
    }
    // CHECK: 3
    %a = memref.load %o[%c0] : memref<256xf32>
    vector.print %a : f32
    // CHECK-NEXT: 6
    %c255 = arith.constant 255 : index
    %b = memref.load %o[%c255] : memref<256xf32>
    vector.print %b : f32
    return
  }
}
