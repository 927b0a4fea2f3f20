// The GPU lowering of a pair's ops (Blackwell's 2-CTA MMAs), up to
// --mgpu-lower-to-gpu (LOWER) and then --mgpu-primitives-to-nvvm for
// sm_100a (NVVM): the collective TMEM is allocated and freed by both CTAs
// (cta_group::2), the cluster meets before the body (the peer's copies
// complete on this CTA's barriers) and before the TMEM is freed (the
// pair's MMAs write both CTAs' accumulators); the MMA and its commit are
// issued by lane 0 of the pair's first CTA only (cluster x index 0); the
// partitioned copy: the first CTA expects both CTAs' bytes, each CTA loads
// its part at its rank's offset and completes it on the first CTA's
// barrier (mapa to rank 0), with cta_group::2.
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=LOWER
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_100a" | FileCheck %s --check-prefix=NVVM

// LOWER-LABEL: func.func @pair
// LOWER: gpu.launch
// LOWER: mgpu.tmem_alloc %[[SLOT:.*]] columns 256 collective
// LOWER: mgpu.cluster_sync
// LOWER: mgpu.copy_gmem_to_smem {{.*}} collective_axes ["x"] partitioned 0
// LOWER: %[[RANK:.*]] = gpu.cluster_block_id  x
// LOWER: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}} : index
// LOWER: %[[ISSUES:.*]] = arith.andi %{{.*}}, %[[FIRST]] : i1
// LOWER-NEXT: scf.if %[[ISSUES]] {
// LOWER-NEXT: mgpu.tcgen05_mma {{.*}} collective_axis "x"
// LOWER: gpu.cluster_block_id  x
// LOWER: mgpu.tcgen05_commit_arrive {{.*}} collective_axis "x"
// LOWER: {{^ *}}gpu.barrier{{$}}
// LOWER-NEXT: mgpu.cluster_sync
// LOWER: mgpu.tmem_dealloc %[[SLOT]] columns 256 collective
// LOWER-NOT: mgpu.cluster_sync
// LOWER: gpu.terminator

// NVVM-LABEL: func.func @pair
// NVVM: nvvm.tcgen05.alloc %{{.*}}, %c256_i32 {group = #nvvm.cta_group<cta_2>}
// NVVM-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// NVVM: nvvm.mapa %{{.*}}, %c0_i32{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// The first CTA expects both CTAs' 16 KiB.
// NVVM: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} {group = #nvvm.cta_group<cta_2>
// The instruction descriptor: M = 256 (16 << 24), N = 256 (32 << 17).
// NVVM: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c272696464_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// NVVM: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>}
// NVVM: nvvm.tcgen05.dealloc %{{.*}}, %c256_i32 {group = #nvvm.cta_group<cta_2>}

#m = #mgpu.mesh<grid = [1], grid_names = ["i"], cluster = [2], cluster_names = ["x"]>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x128xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x256xf32, collective>
!bar = !mgpu.barrier<count = 1>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @pair(%ag: memref<256x64xbf16>, %bg: memref<64x256xbf16>) {
    mgpu.mpmd_map meshes [#m] ins(%ag, %bg : memref<256x64xbf16>, memref<64x256xbf16>)
        scratch [!a, !b, !acc, !bar, !bar] {
    ^bb0(%a_g: memref<256x64xbf16>, %b_g: memref<64x256xbf16>, %as: !a, %bs: !b,
         %acc: !acc, %full: !bar, %done: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %a_g[0, 0], %as, %full[%c0] transforms #sw
          collective_axes ["x"] partitioned 0 : memref<256x64xbf16>, !a, !bar
      mgpu.barrier_wait %full[%c0] : !bar
      mgpu.tcgen05_mma %acc, %as, %bs a_transforms #sw b_transforms #sw
          collective_axis "x" : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] collective_axis "x" : !bar
      mgpu.barrier_wait %done[%c0] : !bar
    }
    return
  }
}
