// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: not mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80

// cluster_ref: every lane maps the buffer to the peer's rank (mapa to
// shared::cluster), casts it to a generic address and reads through a
// memref descriptor of it. async_store_smem: lane 0 arrives on the peer's
// barrier expecting the 256 bytes, then one bulk copy to the peer's buffer
// completes them there. The kernel meets its cluster after initializing
// its barriers and at its end.

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#o = #mgpu.block_spec<shape = [64], index_map = affine_map<(i, c) -> (i * 2 + c)>>
!row = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @dsmem(%o: memref<256xf32>) {
  mgpu.pallas_call grid [2, 2] outs(%o : memref<256xf32>)
      in_specs [] out_specs [#o] scratch [!row, !row, !bar] mesh #mesh {
  ^bb0(%os: !row, %mine: !row, %recv: !row, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %c = mgpu.axis_index "c"
    %other = arith.subi %c1, %c : index
    %peer = mgpu.cluster_ref %mine[%other] along ["c"] : !row -> memref<64xf32>
    %r = vector.transfer_read %peer[%c0], %pad {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
    vector.transfer_write %r, %os[%c0] {in_bounds = [true]} : vector<64xf32>, !row
    %peer_recv = mgpu.cluster_ref %recv[%other] along ["c"] : !row -> memref<64xf32>
    mgpu.async_store_smem %mine, %peer_recv, %bar[%c0] : !row, memref<64xf32>, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}

// CHECK-LABEL: func.func @dsmem
// CHECK: gpu.launch
// CHECK: nvvm.mbarrier.init
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: %[[GENERIC:.*]] = llvm.addrspacecast %[[REMOTE]] : !llvm.ptr<7> to !llvm.ptr
// CHECK: llvm.insertvalue %[[GENERIC]], %{{.*}}[1]
// CHECK: %[[PEER:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<64xf32>
// CHECK: vector.load %[[PEER]]
// CHECK: scf.if
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[PBAR:.*]], %c256_i32 {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
// CHECK-NEXT: %[[DST:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.shared.cluster.shared.cta %[[DST]], %{{.*}}, %{{.*}}, %c256_i32 : <7>, <3>
// CHECK: nvvm.mbarrier.try_wait
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.terminator

// sm_80 has no clusters and no bulk copies.
// SM80: error: 'mgpu.async_store_smem' op needs sm_90 or later (bulk copies between the CTAs of a cluster)
