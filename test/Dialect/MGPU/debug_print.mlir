// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// mgpu.debug_print (pl.debug_print of an array) round trips.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>

// CHECK-LABEL: func.func @print
func.func @print(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    %v = arith.constant dense<1.0> : vector<2x4xf32>
    // CHECK: mgpu.debug_print "x: {}" %{{.*}} : vector<2x4xf32>
    mgpu.debug_print "x: {}" %v : vector<2x4xf32>
    %i = arith.constant dense<1> : vector<8xi32>
    // CHECK: mgpu.debug_print "{{[{][{]}}braces{{[}][}]}} 100% {}" %{{.*}} : vector<8xi32>
    mgpu.debug_print "{{braces}} 100% {}" %i : vector<8xi32>
  }
  return
}
