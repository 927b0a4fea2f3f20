// delay_release in the step loop: an input with delay_release = 1 in a
// 3-slot pipeline is fetched 1 step ahead (its prologue fetches step 0
// only, its step s fetch is for step s + 1), the other input 2 steps ahead.
// RUN: mgpu-opt %s --mgpu-expand-pipelines | FileCheck %s
// The attribute round-trips:
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: #mgpu.block_spec<shape = [64], index_map = #map, delay_release = 1>

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#late = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>, delay_release = 1>
#now = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
#three = #mgpu.compiler_params<max_concurrent_steps = 3>
func.func @levels(%x: memref<512xf32>, %y: memref<512xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x, %y : memref<512xf32>, memref<512xf32>) {
  ^bb0(%gx: memref<512xf32>, %gy: memref<512xf32>):
    mgpu.emit_pipeline grid [8] ins(%gx, %gy : memref<512xf32>, memref<512xf32>)
        in_specs [#late, #now] out_specs [] params #three {
    ^bb0(%k: index, %xs: memref<64xf32, #gpu.address_space<workgroup>>, %ys: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}
// CHECK-LABEL: func.func @levels
// Prologue: steps 0 and 1, the delayed input at step 0 only.
// CHECK: %[[PROLOGUE:.*]] = arith.minui %c2{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[PROLOGUE]]
// CHECK: arith.cmpi ult, %[[J]], %c1{{.*}} : index
// CHECK: mgpu.copy_gmem_to_smem %[[X:.*]][%{{.*}}], %{{.*}}, %[[XBAR:.*]][%{{.*}}]
// CHECK: mgpu.copy_gmem_to_smem %[[Y:.*]][%{{.*}}], %{{.*}}, %[[YBAR:.*]][%{{.*}}]
// The step loop: x for step s + 1, then y for step s + 2.
// CHECK: scf.for %[[S:.*]] = %{{.*}} to
// CHECK: %[[T1:.*]] = arith.addi %[[S]], %c1{{.*}} : index
// CHECK: arith.cmpi ult, %[[T1]]
// CHECK: mgpu.copy_gmem_to_smem %[[X]][
// CHECK: %[[T2:.*]] = arith.addi %[[S]], %c2{{.*}} : index
// CHECK: arith.cmpi ult, %[[T2]]
// CHECK: mgpu.copy_gmem_to_smem %[[Y]][
