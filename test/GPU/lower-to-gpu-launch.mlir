// RUN: mgpu-opt %s --mgpu-lower-to-gpu --canonicalize --cse | FileCheck %s

// --mgpu-lower-to-gpu from a written-out per-lane launch: device copies (the
// write-only output is allocated, not copied in), zeroed global scratch, one
// x dimension of clusters (3 x %n of them, 2 CTAs each), thread t as lane
// t mod 128 of warpgroup t / 128, the grid indices delinearized from the
// cluster id, the scalar passed as it is, the shared scratch at its
// offsets in dynamic shared memory (the buffer left undefined, as JAX's,
// the barriers initialized by thread 0), then one CTA barrier.

// CHECK-LABEL: func.func @mapping
// CHECK-SAME: (%[[N:.+]]: index, %[[X:.+]]: memref<?xf32>, %[[O:.+]]: memref<?xf32>, %[[W:.+]]: memref<?xf32>)
// CHECK: %[[DX:.+]], %{{.+}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.+}}] %[[DX]], %[[X]]
// CHECK: %[[DO:.+]], %{{.+}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.+}}] %[[DO]], %[[O]]
// CHECK: %[[DW:.+]], %[[TW:.+]] = gpu.alloc async
// CHECK-NOT: gpu.memcpy
// CHECK: %[[SEM:.+]], %[[TS:.+]] = gpu.alloc async [%[[TW]]] () : memref<4xi32>
// CHECK: %[[ZEROED:.+]] = gpu.memset async [%[[TS]]] %[[SEM]]
// CHECK: %[[CLUSTERS:.+]] = arith.muli %[[N]], %c6
// CHECK: gpu.launch async [%[[ZEROED]]] clusters({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) blocks({{.*}}) in ({{.*}} = %[[CLUSTERS]], {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %c272_i32 {
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: %[[WG:.+]] = arith.divui %[[TID]], %c128
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %c128
// CHECK: %[[CID:.+]] = gpu.cluster_id x
// CHECK: %[[IDS:.+]]:2 = affine.delinearize_index %[[CID]] into (%[[N]], 3)
// CHECK: %[[POS:.+]] = gpu.cluster_block_id x
// CHECK: %[[SMEM:.+]] = gpu.dynamic_shared_memory
// CHECK: %[[BUF:.+]] = memref.view %[[SMEM]][%c0][] {{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[WORDS:.+]] = memref.view %[[SMEM]][%c256][] {{.*}} to memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: %[[BAR:.+]] = builtin.unrealized_conversion_cast %[[WORDS]] {{.*}} to !mgpu.barrier<count = 2>
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: mgpu.barrier_init %[[BAR]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[DX]][%[[LANE]]]
// CHECK: memref.store %{{.+}}, %[[BUF]][%[[LANE]]]
// CHECK: arith.index_cast %[[N]]
// CHECK: memref.store %{{.+}}, %[[DO]][%[[IDS]]#0]
// CHECK: memref.store %{{.+}}, %[[DW]][%[[IDS]]#1]
// CHECK: mgpu.semaphore_signal %[[SEM]][%[[POS]]]
// CHECK: mgpu.barrier_arrive %[[BAR]][%[[WG]]]
// CHECK: gpu.terminator
// CHECK: gpu.memcpy async [%{{.+}}] %[[O]], %[[DO]]
// CHECK: gpu.memcpy async [%{{.+}}] %[[W]], %[[DW]]
func.func @mapping(%n: index, %x: memref<?xf32>, %o: memref<?xf32>, %w: memref<?xf32>) {
  mgpu.launch grid [%n, 3] cluster [2] warpgroups 2 lanes scalars(%n)
      ins(%x : memref<?xf32>) outs(%o, %w : memref<?xf32>, memref<?xf32>) write_only_outs [1]
      global [memref<4xi32>]
      shared [memref<64xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] at [0, 256] {
  ^bb0(%i: index, %j: index, %c: index, %wg: index, %lane: index, %size: index,
       %xs: memref<?xf32>, %os: memref<?xf32>, %ws: memref<?xf32>, %sem: memref<4xi32>,
       %buf: memref<64xf32, #gpu.address_space<workgroup>>, %bar: !mgpu.barrier<count = 2>):
    %v = memref.load %xs[%lane] : memref<?xf32>
    memref.store %v, %buf[%lane] : memref<64xf32, #gpu.address_space<workgroup>>
    %f = arith.index_cast %size : index to i32
    %g = arith.sitofp %f : i32 to f32
    memref.store %g, %os[%i] : memref<?xf32>
    memref.store %g, %ws[%j] : memref<?xf32>
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %sem[%c], %one : memref<4xi32>
    mgpu.barrier_arrive %bar[%wg] : !mgpu.barrier<count = 2>
  }
  return
}
