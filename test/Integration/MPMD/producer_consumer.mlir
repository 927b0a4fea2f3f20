// examples/producer_consumer.mlir (region 0 fills a buffer and signals a
// semaphore; region 1 waits for it and writes 3 times the buffer) on every
// backend: every element is 6.
// RUN: cat %mgpu_src_root/examples/producer_consumer.mlir %s > %t.mlir
// RUN: %run_on_backends %t.mlir
// The consumer's wait taken out: it reads the buffer with nothing ordering
// it after the producer's writes (both regions are warpgroups of one CTA).
// The emulator's checks of global memory report the read at its op.
// RUN: sed 's/^ *mgpu.semaphore_wait [%]sem1.*$/    \/\/ removed/' %t.mlir > %t.no-wait.mlir
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=NO-WAIT
// Caught under two seeded schedules too (the planted-bug catalogue,
// docs/Conformance.md).
// RUN: not mgpu-run %t.no-wait.mlir -e main --backend=emulate --emulate-schedules 2 2>&1 | grep -c "schedule with seed [12] failed" | FileCheck %s --check-prefix=TWO
// TWO: 2
// NO-WAIT: no-wait.mlir:{{[0-9]+}}:{{[0-9]+}}: error: data race on global memory: reads what thread {{[0-9]+}} of this CTA writes at {{.*}} with no semaphore or barrier between them

// CHECK: mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0 : i32
  %six = arith.constant 6.0 : f32
  %buf = memref.alloc() : memref<128xf32>
  %out = memref.alloc() : memref<128xf32>
  func.call @producer_consumer(%buf, %out) : (memref<128xf32>, memref<128xf32>) -> ()
  %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%count = %zero) -> i32 {
    %got = memref.load %out[%i] : memref<128xf32>
    %ne = arith.cmpf une, %got, %six : f32
    %inc = arith.extui %ne : i1 to i32
    %next = arith.addi %count, %inc : i32
    scf.yield %next : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32
  memref.dealloc %buf : memref<128xf32>
  memref.dealloc %out : memref<128xf32>
  return
}
