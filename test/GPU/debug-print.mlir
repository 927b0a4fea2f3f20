// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu | FileCheck %s --check-prefix=HOST

// mgpu.debug_print of a 2x256 f32 vector. Distributed, each lane prints the
// four elements of each of its slots (element 4c..4c+3 on lane c): their
// row-major position delinearized into indices, the element from its lane
// vector, one gpu.printf each with the indices as i64 and the value as f32.
// In interpret mode, a loop nest over a heap copy of the vector.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>

// CHECK-LABEL: func.func @print
// CHECK: mgpu.launch
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<4xf32>
// CHECK: gpu.printf "x: [%lld, %lld]: %f\0A", %{{.*}}, %{{.*}}, %{{.*}} : i64, i64, f32
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK: gpu.printf "x: [%lld, %lld]: %f\0A"
// CHECK-NOT: vector.extract %{{.*}}[4]
// CHECK: return

// HOST-LABEL: func.func @print
// HOST: %[[BUF:.*]] = memref.alloc() : memref<2x256xf32>
// HOST: vector.transfer_write %{{.*}}, %[[BUF]]
// HOST: scf.for %[[I:.*]] =
// HOST: scf.for %[[J:.*]] =
// HOST: %[[X:.*]] = memref.load %[[BUF]][%[[I]], %[[J]]]
// HOST: %[[II:.*]] = arith.index_cast %[[I]] : index to i64
// HOST: %[[JJ:.*]] = arith.index_cast %[[J]] : index to i64
// HOST: gpu.printf "x: [%lld, %lld]: %f\0A", %[[II]], %[[JJ]], %[[X]] : i64, i64, f32
// HOST: memref.dealloc %[[BUF]]
func.func @print(%x: memref<2x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<2x256xf32>) {
  ^bb0(%xg: memref<2x256xf32>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xg[%c0, %c0] : memref<2x256xf32>, vector<2x256xf32>
    mgpu.debug_print "x: {}" %v : vector<2x256xf32>
  }
  return
}
