// RUN: mgpu-opt %s --mgpu-lower-to-cpu --canonicalize --cse | FileCheck %s

// --mgpu-lower-to-cpu from written-out launches.

// In order: zeroed global scratch; one host arena for a CTA's shared
// scratch (384 bytes: the buffer at 0, the barrier words at 256), poisoned
// (0xff bytes: shared memory starts undefined) as each CTA starts but for
// its barrier words, zeroed; a loop nest over the grid, then the cluster, then the
// Pallas threads; the body's arguments bound to the loop indices, the
// scalar, the arrays and the views of the arena.
// CHECK-LABEL: func.func @in_order
// CHECK-SAME: (%[[N:.+]]: index, %[[O:.+]]: memref<?xindex>)
// CHECK: %[[SEM:.+]] = memref.alloc() : memref<4xi32>
// CHECK: linalg.fill ins(%{{.+}} : i32) outs(%[[SEM]] : memref<4xi32>)
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 128 : i64} : memref<384xi8>
// CHECK: scf.for %[[I:.+]] = %c0 to %[[N]] step %c1 {
// CHECK: scf.for %[[C:.+]] = %c0 to %c2 step %c1 {
// CHECK: linalg.fill ins(%c-1_i8 : i8) outs(%[[ARENA]] : memref<384xi8>)
// CHECK: %[[WORDS:.+]] = memref.view %[[ARENA]][%c256][] : memref<384xi8> to memref<2xi64>
// CHECK: linalg.fill ins(%c0_i64 : i64) outs(%[[WORDS]] : memref<2xi64>)
// CHECK: %[[BUF:.+]] = memref.view %[[ARENA]][%c0][] : memref<384xi8> to memref<64xf32>
// CHECK: scf.for %[[WG:.+]] = %c0 to %c2 step %c1 {
// CHECK: llvm.intr.stacksave
// CHECK: memref.store %[[N]], %[[O]][%[[I]]]
// CHECK: memref.store %[[C]], %[[O]][%[[WG]]]
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[SEM]][%[[C]]]
// CHECK: memref.load %[[BUF]][%[[WG]]]
// CHECK: call @mgpuHostBarrierArrive
// CHECK: llvm.intr.stackrestore
// CHECK: memref.dealloc %[[SEM]]
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NOT: omp.

// A launch that waits on a semaphore: every Pallas thread of every CTA on
// its own host thread (3 x 2), the CTA index from the thread number.
// CHECK-LABEL: func.func @concurrently
// CHECK: omp.parallel num_threads(%c6_i32 : i32)
// CHECK: omp.loop_nest (%[[T:.+]]) : index = (%c0) to (%c6) step (%c1)
// CHECK: %[[CTA:.+]] = arith.divui %[[T]], %c2
// CHECK: call @mgpuHostSemaphoreWait
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[CTA]]]

func.func @in_order(%n: index, %o: memref<?xindex>) {
  mgpu.launch grid [%n] cluster [2] warpgroups 2 scalars(%n) outs(%o : memref<?xindex>)
      global [memref<4xi32>]
      shared [memref<64xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] at [0, 256] {
  ^bb0(%i: index, %c: index, %wg: index, %size: index, %os: memref<?xindex>,
       %sem: memref<4xi32>, %buf: memref<64xf32, #gpu.address_space<workgroup>>,
       %bar: !mgpu.barrier<count = 2>):
    memref.store %size, %os[%i] : memref<?xindex>
    memref.store %c, %os[%wg] : memref<?xindex>
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %sem[%c], %one : memref<4xi32>
    %v = memref.load %buf[%wg] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %buf[%c] : memref<64xf32, #gpu.address_space<workgroup>>
    mgpu.barrier_arrive %bar[%wg] : !mgpu.barrier<count = 2>
  }
  return
}

func.func @concurrently(%o: memref<4xi32>) {
  mgpu.launch grid [3] warpgroups 2 outs(%o : memref<4xi32>) {
  ^bb0(%i: index, %wg: index, %os: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %os[%c0], %one : memref<4xi32>
    memref.store %one, %os[%i] : memref<4xi32>
  }
  return
}
