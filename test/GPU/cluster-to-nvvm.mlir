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

// -----

// A cluster barrier: each CTA initializes its own barriers (arrival count
// 2) and the cluster meets before any arrival and again at the end; lane 0
// arrives on the barrier of each CTA along the axis (mapa to its
// shared::cluster address, a release at cluster scope); every lane waits on
// its own with an acquire at cluster scope.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>
func.func @cluster_barrier(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!cbar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %bar: !cbar):
    %c0 = arith.constant 0 : index
    mgpu.barrier_arrive %bar[%c0] : !cbar
    mgpu.barrier_wait %bar[%c0] : !cbar
  }
  return
}

// CHECK-LABEL: func.func @cluster_barrier
// CHECK: gpu.launch
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: scf.if
// CHECK: %[[SIZE:.*]] = gpu.cluster_dim_blocks x
// CHECK: scf.for %{{.*}} = %c0 to %[[SIZE]] step %c1
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK: scf.while
// CHECK: nvvm.mbarrier.try_wait %{{.*}}, %{{.*}}, %{{.*}} {scope = #nvvm.mem_scope<cluster>}
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.terminator
