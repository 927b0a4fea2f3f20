// A tcgen05 MMA whose a is in tensor memory (JAX's TMEM lhs), written
// there from registers as bf16, up to --mgpu-primitives-to-nvvm for
// sm_100a: each lane packs its row's 64 bf16 into 32 words and stores them
// (one tcgen05.st 32x32b.x32); the MMA takes a's TMEM address, 8 columns
// (16 packed elements) further at each K step of 16, in place of a's
// shared-memory descriptor; JAX's plgpu.commit_tmem after the store is
// one more tcgen05.wait::st and fence::before_thread_sync; a lane's TMEM
// load ends with
// tcgen05.fence::before_thread_sync, so that an MMA issued after the next
// barrier is ordered after it.
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_100a" | FileCheck %s

// CHECK-LABEL: func.func @tmem_a
// CHECK: %[[WORDS:.*]] = vector.bitcast %{{.*}} : vector<64xbf16> to vector<32xi32>
// CHECK: nvvm.tcgen05.st %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK: %[[A0:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<6>
// CHECK: nvvm.tcgen05.mma %{{.*}}, %[[A0]], %{{.*}}, %{{.*}}, %false
// CHECK: arith.constant 8 : i32
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %true
// CHECK: arith.constant 16 : i32
// CHECK: nvvm.tcgen05.mma
// CHECK: arith.constant 24 : i32
// CHECK: nvvm.tcgen05.mma
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.ld
// CHECK: nvvm.tcgen05.wait <load>
// CHECK-NEXT: nvvm.tcgen05.fence <before>

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!b = memref<64x64xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x64xf32>
!p = !mgpu.tmem<128x64xbf16>
!bar = !mgpu.barrier<count = 1>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @tmem_a(%o: memref<128x64xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128x64xf32>) scratch [!b, !acc, !p, !bar] {
    ^bb0(%og: memref<128x64xf32>, %bs: !b, %acc: !acc, %p: !p, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      %ones = arith.constant dense<1.0> : vector<128x64xbf16>
      mgpu.async_store_tmem %ones, %p : vector<128x64xbf16>, !p
      mgpu.commit_tmem
      mgpu.tcgen05_mma %acc, %p, %bs accumulate(%false) b_transforms #sw
          : !acc, !p, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x64xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %og[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xf32>, memref<128x64xf32>
    }
    return
  }
}
