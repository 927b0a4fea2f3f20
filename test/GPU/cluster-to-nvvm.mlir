// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=SM80

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

// -----

// A multicast copy: lane 0 expects the whole 8x64 window (2048 bytes) on
// its own barrier and loads its half (4 rows from row 8i + 4 x, at byte
// 1024 x of the buffer) into both CTAs of the cluster (mask bits 2 (y + z)
// and 2 (y + z) + 1); the cluster meets after the barriers are
// initialized and at the end.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!buf = memref<8x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @multicast(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [!buf, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %window: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %i = mgpu.axis_index "i"
    %row = arith.muli %i, %c8 : index
    mgpu.copy_gmem_to_smem %xg[%row, 0], %window, %bar[%c0]
        collective_axes ["c"] : memref<32x64xf32>, !buf, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}

// CHECK-LABEL: func.func @multicast
// CHECK: gpu.launch
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: scf.if
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c2048_i32
// CHECK: %[[X:.*]] = gpu.cluster_block_id x
// CHECK: %[[MASK:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.muli %[[X]], %c4 : index
// CHECK: arith.muli %[[X]], %c1024 : index
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%c0_i32, %{{.*}}] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.mbarrier.try_wait %[[BAR]]
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.terminator

// SM80-LABEL: func.func @multicast
// SM80-NOT: multicast_mask
// SM80: nvvm.mbarrier.arrive

