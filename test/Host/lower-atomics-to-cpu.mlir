// RUN: mgpu-opt %s --mgpu-form-launches --mgpu-lower-to-cpu --canonicalize | FileCheck %s

// mgpu.atomic_store in interpret mode: a real host atomic per element (the
// programs or Pallas threads that store into the same elements may run on
// concurrent host threads). A vector value goes to a heap copy read in a
// loop nest over its shape, its indices offset from the store's; a scalar
// is one atomic.

#m = #mgpu.mesh<grid = [4], grid_names = ["i"]>

// CHECK-LABEL: func.func @atomics
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<2x64xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[BUF]]
// CHECK: scf.for %[[R:.+]] =
// CHECK: scf.for %[[C:.+]] =
// CHECK: %[[X:.+]] = memref.load %[[BUF]][%[[R]], %[[C]]]
// CHECK: %[[ROW:.+]] = arith.addi %{{.+}}, %[[R]] : index
// CHECK: memref.atomic_rmw addf %[[X]], %{{.+}}[%[[ROW]], %[[C]]] : (f32, memref<8x64xf32>) -> f32
// CHECK: memref.dealloc %[[BUF]]
// CHECK: memref.atomic_rmw maxs %{{.+}}, %{{.+}}[%{{.+}}] : (i32, memref<4xi32>) -> i32
// CHECK: memref.atomic_rmw xori
func.func @atomics(%acc: memref<8x64xf32>, %best: memref<4xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%acc, %best : memref<8x64xf32>, memref<4xi32>) {
  ^bb0(%a: memref<8x64xf32>, %b: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %p = mgpu.program_id 0
    %pi = arith.index_cast %p : index to i32
    %v = arith.constant dense<1.0> : vector<2x64xf32>
    mgpu.atomic_store add %v, %a[%p, %c0] : vector<2x64xf32>, memref<8x64xf32>
    mgpu.atomic_store max %pi, %b[%c0] : i32, memref<4xi32>
    mgpu.atomic_store xor %pi, %b[%p] : i32, memref<4xi32>
  }
  return
}
