// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// semaphore_wait's decrement = false (pl.semaphore_wait(..., decrement=False))
// and semaphore_read (pl.semaphore_read) round trip; a decrementing wait
// prints no attribute.

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>

// CHECK-LABEL: func.func @semaphores
func.func @semaphores(%o: memref<2xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<2xi32>) scratch [memref<2xi32>] {
  ^bb0(%og: memref<2xi32>, %sem: memref<2xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    // CHECK: mgpu.semaphore_wait %{{.*}}[%{{.*}}], %{{.*}} : memref<2xi32>
    mgpu.semaphore_wait %sem[%c0], %one : memref<2xi32>
    // CHECK: mgpu.semaphore_wait %{{.*}}[%{{.*}}], %{{.*}} {decrement = false} : memref<2xi32>
    mgpu.semaphore_wait %sem[%c0], %one {decrement = false} : memref<2xi32>
    // CHECK: %{{.*}} = mgpu.semaphore_read %{{.*}}[%{{.*}}] : memref<2xi32>
    %v = mgpu.semaphore_read %sem[%c0] : memref<2xi32>
    memref.store %v, %og[%c0] : memref<2xi32>
  }
  return
}
