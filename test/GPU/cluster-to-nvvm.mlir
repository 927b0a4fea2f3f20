// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=SM80

// The cluster ops on the GPU. cluster_sync: every lane arrives on the
// cluster barrier and waits for it (barrier.cluster.arrive / wait); sm_80
// has no clusters, and it is a CTA-wide barrier there.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
func.func @cluster_sync(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %g[%c0] : memref<8xf32>
    mgpu.cluster_sync
    %v = memref.load %g[%c0] : memref<8xf32>
    memref.store %v, %g[%c0] : memref<8xf32>
  }
  return
}

// CHECK-LABEL: func.func @cluster_sync
// CHECK: gpu.launch
// CHECK-SAME: clusters
// CHECK: memref.store
// CHECK-NOT: nvvm.cluster.wait
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: memref.load
// CHECK-NOT: mgpu.cluster_sync

// SM80-LABEL: func.func @cluster_sync
// SM80-NOT: nvvm.cluster
// SM80: memref.store
// SM80: gpu.barrier
// SM80: memref.load
