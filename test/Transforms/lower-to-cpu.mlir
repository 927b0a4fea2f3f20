// RUN: mgpu-opt %s --mgpu-lower-to-cpu -split-input-file | FileCheck %s

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>

// A staged pallas_call: one host buffer per block, a loop over the grid,
// copies in when the block index changes (zero-filled when clipped), the
// body inlined with shared memory as host memory and program_id as the
// loop index, and the last output block written back after the loop.
// CHECK-LABEL: func.func @staged
// CHECK-SAME: (%[[A:.+]]: memref<1000xf32>, %[[O:.+]]: memref<1000xf32>)
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[BUF_A:.+]] = memref.alloc() : memref<256xf32>
// CHECK: %[[BUF_O:.+]] = memref.alloc() : memref<256xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[C4]] step
// CHECK: scf.if
// CHECK: memref.subview %[[A]]
// CHECK: linalg.fill
// CHECK: linalg.copy
// CHECK: llvm.intr.stacksave
// CHECK: arith.index_cast %[[I]]
// CHECK: vector.transfer_read %[[BUF_A]]
// CHECK: vector.transfer_write %{{.+}}, %[[BUF_O]]
// CHECK: llvm.intr.stackrestore
// CHECK: }
// CHECK: scf.if
// CHECK: linalg.copy ins(%{{.+}} : memref<?xf32, strided<[1], offset: ?>>) outs(%{{.+}} : memref<?xf32, strided<[1], offset: ?>>)
// CHECK: memref.dealloc %[[BUF_A]]
// CHECK: memref.dealloc %[[BUF_O]]
// CHECK-NOT: mgpu.
func.func @staged(%a: memref<1000xf32>, %o: memref<1000xf32>) {
  mgpu.pallas_call grid [4] ins(%a : memref<1000xf32>) outs(%o : memref<1000xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<256xf32, #gpu.address_space<workgroup>>,
       %y: memref<256xf32, #gpu.address_space<workgroup>>):
    %i = mgpu.program_id 0
    %ii = arith.index_cast %i : index to i32
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

// mpmd_map without waits: the regions in order, each over its mesh (grid,
// then threads), zero-initialized scratch, axis queries as loop indices and
// constants, semaphore signals as atomic adds.
// CHECK-LABEL: func.func @regions_in_order
// CHECK: %[[SCRATCH:.+]] = memref.alloc() : memref<4xi32>
// CHECK: linalg.fill ins(%{{.+}} : i32) outs(%[[SCRATCH]] : memref<4xi32>)
// CHECK: scf.for %[[P:.+]] =
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[SCRATCH]][%[[P]]]
// CHECK: scf.for %[[J:.+]] =
// CHECK-NEXT: scf.for %[[W:.+]] =
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

#one = #mgpu.mesh<grid = [1]>

// A wait: every program on its own host thread, one OpenMP thread per
// program (1 + 1), each running the region its program index falls in.
// CHECK-LABEL: func.func @concurrent
// CHECK: %[[N:.+]] = arith.constant 2 : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
// CHECK: omp.wsloop schedule(static = %{{.+}} : i32)
// CHECK: omp.loop_nest
// CHECK: memref.generic_atomic_rmw
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
