// The GPU lowering of the Blackwell ops, up to --mgpu-lower-to-gpu (LOWER)
// and then --mgpu-primitives-to-nvvm for sm_100a (NVVM): the TMEM scratch
// (64 + 96 columns, one allocation of 256) is allocated by the first warp
// into its shared slot before the CTA barrier, each buffer read at its
// column offset after it, and freed by the first warp after a CTA barrier
// at the end; the MMA and the commit are issued by lane 0; a TMEM load or
// store moves one row per lane (96 columns: tcgen05.ld/st of 64 then 32).
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=LOWER
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_100a" | FileCheck %s --check-prefix=NVVM

// LOWER-LABEL: func.func @tcgen05
// LOWER: gpu.launch
// LOWER: %[[SLOT:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi32, #gpu.address_space<workgroup>>
// LOWER: %[[FIRST_WARP:.*]] = arith.cmpi ult, %{{.*}}, %c32 : index
// LOWER-NEXT: scf.if %[[FIRST_WARP]] {
// LOWER-NEXT: mgpu.tmem_alloc %[[SLOT]] columns 256
// LOWER: {{^ *}}gpu.barrier{{$}}
// LOWER-NEXT: %[[ACC:.*]] = mgpu.tmem_ref %[[SLOT]][0] : {{.*}} -> !mgpu.tmem<128x64xf32>
// LOWER-NEXT: %[[ODD:.*]] = mgpu.tmem_ref %[[SLOT]][64] : {{.*}} -> !mgpu.tmem<128x96xf32>
// LOWER: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE:.*]], %{{.*}} : index
// LOWER-NEXT: scf.if %[[LANE0]] {
// LOWER-NEXT: mgpu.tcgen05_mma %[[ACC]], %{{.*}}, %{{.*}} accumulate(%{{.*}})
// LOWER: mgpu.tcgen05_commit_arrive
// LOWER: mgpu.barrier_wait
// LOWER: mgpu.tmem_lane_load %[[ODD]][%[[LANE]]] : !mgpu.tmem<128x96xf32> -> vector<96xf32>
// LOWER: mgpu.tmem_lane_store %{{.*}}, %[[ODD]][%[[LANE]]] : vector<96xf32>, !mgpu.tmem<128x96xf32>
// LOWER: {{^ *}}gpu.barrier{{$}}
// LOWER: %[[LAST_WARP:.*]] = arith.cmpi ult, %{{.*}}, %c32{{.*}} : index
// LOWER-NEXT: scf.if %[[LAST_WARP]] {
// LOWER-NEXT: mgpu.tmem_dealloc %[[SLOT]] columns 256

// NVVM-LABEL: func.func @tcgen05
// NVVM: nvvm.tcgen05.alloc %{{.*}}, %c256_i32 : !llvm.ptr<3>, i32
// NVVM-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// NVVM: nvvm.tcgen05.fence <after>
// The instruction descriptor: f32 accumulator, bf16 a and b, b N-major,
// N = 64 (8 << 17), M = 128 (8 << 24); the first MMA with `accumulate`.
// NVVM: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c135333008_i32, %false {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// NVVM-COUNT-3: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c135333008_i32, %true
// NVVM: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// NVVM: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// NVVM: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// NVVM: nvvm.tcgen05.wait <load>
// NVVM: nvvm.tcgen05.st %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// NVVM: nvvm.tcgen05.st %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// NVVM-NEXT: nvvm.tcgen05.wait <store>
// NVVM-NEXT: nvvm.tcgen05.fence <before>
// NVVM: nvvm.tcgen05.dealloc %{{.*}}, %c256_i32 : !llvm.ptr<6>, i32

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x64xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x64xf32>
!odd = !mgpu.tmem<128x96xf32>
!bar = !mgpu.barrier<count = 1>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @tcgen05(%o: memref<128x96xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128x96xf32>) scratch [!a, !b, !acc, !odd, !bar] {
    ^bb0(%og: memref<128x96xf32>, %as: !a, %bs: !b, %acc: !acc, %odd: !odd, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      mgpu.tcgen05_mma %acc, %as, %bs accumulate(%false)
          a_transforms #sw b_transforms #sw : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %odd : !odd -> vector<128x96xf32>
      mgpu.wait_load_tmem
      mgpu.async_store_tmem %v, %odd : vector<128x96xf32>, !odd
      vector.transfer_write %v, %og[%c0, %c0] {in_bounds = [true, true]} : vector<128x96xf32>, memref<128x96xf32>
    }
    return
  }
}
