// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The programmatic dependent launch ops round trip.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>

// CHECK-LABEL: func.func @pdl
func.func @pdl(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) {
  ^bb0(%og: memref<4xf32>):
    // CHECK: mgpu.griddepcontrol_wait
    mgpu.griddepcontrol_wait
    // CHECK-NEXT: mgpu.griddepcontrol_launch_dependents
    mgpu.griddepcontrol_launch_dependents
  }
  return
}
