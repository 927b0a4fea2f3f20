// RUN: mgpu-opt %s --mgpu-split-mpmd -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-split-mpmd -split-input-file | mgpu-opt -split-input-file -verify-diagnostics

// Two pairs in memref form: two launches in pair order, the global scratch
// becomes one zero-filled buffer shared by both launches, and region #1's
// axis_size of an axis of mesh #0 keeps that mesh as an external mesh.

#m0 = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#m1 = #mgpu.mesh<grid = [2], grid_names = ["j"], num_threads = 2, thread_name = "wg">

// CHECK-DAG: #[[M0:.+]] = #mgpu.mesh<grid = [4], grid_names = ["i"]>
// CHECK-DAG: #[[M1:.+]] = #mgpu.mesh<grid = [2], grid_names = ["j"], num_threads = 2, thread_name = "wg">
// CHECK-LABEL: func.func @two_pairs
// CHECK-SAME: (%[[A:.+]]: memref<1024xf32>, %[[O:.+]]: memref<1024xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<8xi32>
// CHECK: linalg.fill ins(%[[ZERO]] : i32) outs(%[[BUF]] : memref<8xi32>)
// CHECK: mgpu.mpmd_map meshes [#[[M0]]] ins(%[[A]] : memref<1024xf32>) outs(%[[O]], %[[BUF]] : memref<1024xf32>, memref<8xi32>) scratch [memref<16xf32, #gpu.address_space<workgroup>>] {
// CHECK-NEXT: ^bb0(%{{.+}}: memref<1024xf32>, %{{.+}}: memref<1024xf32>, %[[S0:.+]]: memref<8xi32>, %{{.+}}: memref<16xf32, #gpu.address_space<workgroup>>):
// CHECK: memref.store %{{.+}}, %[[S0]]
// CHECK: mgpu.mpmd_map meshes [#[[M1]]] ins(%[[A]] : memref<1024xf32>) outs(%[[O]], %[[BUF]] : memref<1024xf32>, memref<8xi32>) scratch [memref<16xf32, #gpu.address_space<workgroup>>] external_meshes [#[[M0]]] {
// CHECK: mgpu.axis_size "i"
// CHECK: memref.dealloc %[[BUF]] : memref<8xi32>
func.func @two_pairs(%a: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.mpmd_map meshes [#m0, #m1]
      ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
      scratch [memref<8xi32>, memref<16xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%a0: memref<1024xf32>, %o0: memref<1024xf32>, %s0: memref<8xi32>, %w0: memref<16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    memref.store %one, %s0[%c0] : memref<8xi32>
  }, {
  ^bb0(%a1: memref<1024xf32>, %o1: memref<1024xf32>, %s1: memref<8xi32>, %w1: memref<16xf32, #gpu.address_space<workgroup>>):
    %n = mgpu.axis_size "i"
  }
  return
}

// -----

// Tensor form: the second launch updates the first one's results.

#m = #mgpu.mesh<grid = [4], grid_names = ["g0"]>

// CHECK-LABEL: func.func @tensors
// CHECK-SAME: (%[[A:.+]]: tensor<64xf32>, %[[I:.+]]: tensor<64xf32>)
// CHECK: %[[R0:.+]] = mgpu.mpmd_map meshes [#{{.+}}] ins(%[[A]] : tensor<64xf32>) outs(%[[I]] : tensor<64xf32>) {
// CHECK: } -> tensor<64xf32>
// CHECK: %[[R1:.+]] = mgpu.mpmd_map meshes [#{{.+}}] ins(%[[A]] : tensor<64xf32>) outs(%[[R0]] : tensor<64xf32>) {
// CHECK: } -> tensor<64xf32>
// CHECK: return %[[R1]]
func.func @tensors(%a: tensor<64xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = mgpu.mpmd_map meshes [#m, #m]
      ins(%a : tensor<64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a0: memref<64xf32>, %o0: memref<64xf32>):
  }, {
  ^bb0(%a1: memref<64xf32>, %o1: memref<64xf32>):
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A single pair is left alone.

#m = #mgpu.mesh<grid = [4], grid_names = ["g1"]>

// CHECK-LABEL: func.func @one_pair
// CHECK-COUNT-1: mgpu.mpmd_map
// CHECK-NOT: mgpu.mpmd_map
func.func @one_pair(%o: memref<8xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<8xi32>) {
  ^bb0(%o0: memref<8xi32>):
  }
  return
}
