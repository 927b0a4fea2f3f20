// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=NONE
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s --check-prefix=NONE
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu | FileCheck %s --check-prefix=NONE

// griddepcontrol on sm_90: every lane runs it, in program order with the
// lanes' own loads and stores (the wait before the load, the release after
// the store), not under a lane-0 guard. Before sm_90, in the emulator and
// on the CPU, where kernels run one after another, nothing is left.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>

// CHECK-LABEL: func.func @pdl
// CHECK: gpu.launch
// CHECK-NOT: scf.if
// CHECK: nvvm.griddepcontrol wait
// CHECK: vector.load
// CHECK: vector.store
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK: gpu.terminator
// NONE-LABEL: func.func @pdl
// NONE-NOT: griddepcontrol
// NONE: return
func.func @pdl(%x: memref<128xf32>, %o: memref<128xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<128xf32>) outs(%o : memref<128xf32>) {
  ^bb0(%xg: memref<128xf32>, %og: memref<128xf32>):
    %c0 = arith.constant 0 : index
    mgpu.griddepcontrol_wait
    %v = vector.load %xg[%c0] : memref<128xf32>, vector<128xf32>
    vector.store %v, %og[%c0] : memref<128xf32>, vector<128xf32>
    mgpu.griddepcontrol_launch_dependents
  }
  return
}
