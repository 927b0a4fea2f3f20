// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches="mpmd-form=cta-partitioned" --mgpu-lower-to-cpu --canonicalize -split-input-file | FileCheck %s

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>

// A staged pallas_call, expanded then lowered: one host arena for the CTA's
// shared memory (pipeline slots and barrier words), zeroed per CTA; a loop
// over the grid; the copy in clipped to the array (zero fill when partial)
// and arriving on its barrier through the host runtime; the wait with its
// parity and location; the body inlined between a stack save and restore;
// the copy out clipped.
// CHECK-LABEL: func.func @staged
// CHECK-SAME: (%[[A:.+]]: memref<1000xf32>, %[[O:.+]]: memref<1000xf32>)
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 128 : i64} : memref<2176xi8>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK: linalg.fill ins(%{{.+}} : i8) outs(%[[ARENA]] : memref<2176xi8>)
// CHECK: memref.view %[[ARENA]]
// CHECK: llvm.intr.stacksave
// CHECK: memref.subview %[[A]]
// CHECK: scf.if
// CHECK: linalg.fill
// CHECK: linalg.copy
// CHECK: call @mgpuHostBarrierArrive
// CHECK: call @mgpuHostBarrierWait(%{{.+}}, %{{.+}}, %{{.+}}) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: vector.transfer_read
// CHECK: vector.transfer_write
// CHECK: memref.subview %[[O]]
// CHECK: linalg.copy
// CHECK: llvm.intr.stackrestore
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NOT: mgpu.
func.func @staged(%a: memref<1000xf32>, %o: memref<1000xf32>) {
  mgpu.pallas_call grid [4] ins(%a : memref<1000xf32>) outs(%o : memref<1000xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<256xf32, #gpu.address_space<workgroup>>,
       %y: memref<256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
        : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
    vector.transfer_write %v, %y[%c0] {in_bounds = [true]}
        : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

#m0 = #mgpu.mesh<grid = [2], grid_names = ["i"]>
#m1 = #mgpu.mesh<grid = [3], grid_names = ["j"], num_threads = 2, thread_name = "wg">

// mpmd_map without waits: one CTA-partitioned launch run in order (2 CTAs
// of region 0, then 3 of region 1, 2 Pallas threads each), each region
// under a guard of its range, zero-initialized scratch, axis queries as loop
// indices and constants, semaphore signals as atomic adds.
// CHECK-LABEL: func.func @regions_in_order
// CHECK: %[[SCRATCH:.+]] = memref.alloc() : memref<4xi32>
// CHECK: linalg.fill ins(%{{.+}} : i32) outs(%[[SCRATCH]] : memref<4xi32>)
// CHECK: scf.for %[[CTA:.+]] = %{{.+}} to %c5
// CHECK: scf.for %[[W:.+]] = %{{.+}} to %c2
// CHECK: scf.if
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[SCRATCH]][%[[CTA]]]
// CHECK: scf.if
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[W]]]
// CHECK: memref.dealloc %[[SCRATCH]]
// CHECK-NOT: omp.
func.func @regions_in_order(%o: memref<8xindex>) {
  mgpu.mpmd_map meshes [#m0, #m1] outs(%o : memref<8xindex>) scratch [memref<4xi32>] {
  ^bb0(%o0: memref<8xindex>, %s0: memref<4xi32>):
    %i = mgpu.axis_index "i"
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%i], %one : memref<4xi32>
  }, {
  ^bb0(%o1: memref<8xindex>, %s1: memref<4xi32>):
    %w = mgpu.axis_index "wg"
    %n = mgpu.axis_size "i"
    memref.store %n, %o1[%w] : memref<8xindex>
  }
  return
}

// -----

#one = #mgpu.mesh<grid = [1], grid_names = ["g0"]>

// A wait: every program on its own host thread, one OpenMP thread per
// program (1 + 1), each running the region its program index falls in.
// CHECK-LABEL: func.func @concurrent
// CHECK: %[[N:.+]] = arith.constant 2 : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
// CHECK: omp.wsloop schedule(static = %{{.+}} : i32)
// CHECK: omp.loop_nest
// CHECK: call @mgpuHostSemaphoreWait
// CHECK: memref.atomic_rmw addi
func.func @concurrent(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#one, #one] outs(%o : memref<4xf32>) scratch [memref<1xi32>] {
  ^bb0(%o0: memref<4xf32>, %s0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%o1: memref<4xf32>, %s1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s1[%c0], %one : memref<1xi32>
  }
  return
}

// -----

#ws = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 2, thread_name = "wg">

// Pallas threads that wait on a barrier: per CTA, its shared memory zeroed
// (barrier words in phase 0), then an OpenMP team of one host thread per
// Pallas thread; the arrival and the wait go through the host runtime.
// CHECK-LABEL: func.func @threads_wait
// CHECK-DAG: %[[T:.+]] = arith.constant 2 : i32
// CHECK: scf.for
// CHECK: linalg.fill ins(%{{.+}} : i8)
// CHECK: omp.parallel num_threads(%[[T]] : i32)
// CHECK: call @mgpuHostBarrierArrive
// CHECK: call @mgpuHostBarrierWait
func.func @threads_wait(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#ws] outs(%o : memref<4xf32>) scratch [!mgpu.barrier<count = 1, arrivals = 2>] {
  ^bb0(%o0: memref<4xf32>, %bar: !mgpu.barrier<count = 1, arrivals = 2>):
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
    mgpu.barrier_wait %bar[%c0] parity %false : !mgpu.barrier<count = 1, arrivals = 2>
  }
  return
}

// -----

#ws = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">

// Pallas threads that poll a barrier also run as a team (one may poll for
// the other's arrival); the test asks the host runtime, and a Pallas thread
// is one host thread, so its answer is the warpgroup's.
// CHECK-LABEL: func.func @threads_test
// CHECK: omp.parallel
// CHECK: call @mgpuHostBarrierArrive
// CHECK: %[[DONE:.+]] = func.call @mgpuHostBarrierTest(%{{.+}}, %{{.+}}, %{{.+}}) : (!llvm.ptr, i64, !llvm.ptr) -> i64
// CHECK: %[[BIT:.+]] = arith.trunci %[[DONE]] : i64 to i1
// CHECK: scf.condition
func.func @threads_test(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#ws] outs(%o : memref<4xf32>) scratch [!mgpu.barrier<count = 1, arrivals = 2>] {
  ^bb0(%o0: memref<4xf32>, %bar: !mgpu.barrier<count = 1, arrivals = 2>):
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    mgpu.barrier_arrive %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
    scf.while : () -> () {
      %done = mgpu.barrier_test %bar[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
      %again = arith.xori %done, %true : i1
      scf.condition(%again)
    } do {
      scf.yield
    }
  }
  return
}
