// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The tensor-core ops of SPEC section 7 round trip: wgmma with a in shared
// memory or in registers, for every input type (f16 / bf16 K step 16, f8
// K step 32, f32 as tf32 K step 8) and both accumulators; wgmma_wait;
// set_max_registers in both directions.

!a = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x128xbf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @tensor_cores
func.func @tensor_cores() {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!a, !b,
               memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
               memref<32x8xf8E4M3FN, #gpu.address_space<workgroup>>,
               memref<128x8xf32, #gpu.address_space<workgroup>>,
               memref<8x256xf32, #gpu.address_space<workgroup>>,
               memref<64x32xi8, #gpu.address_space<workgroup>>,
               memref<32x8xi8, #gpu.address_space<workgroup>>,
               memref<32x8xf8E5M2, #gpu.address_space<workgroup>>] {
  ^bb0(%a: !a, %b: !b,
       %a8: memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
       %b8: memref<32x8xf8E4M3FN, #gpu.address_space<workgroup>>,
       %at: memref<128x8xf32, #gpu.address_space<workgroup>>,
       %bt: memref<8x256xf32, #gpu.address_space<workgroup>>,
       %ai: memref<64x32xi8, #gpu.address_space<workgroup>>,
       %bi: memref<32x8xi8, #gpu.address_space<workgroup>>,
       %b5: memref<32x8xf8E5M2, #gpu.address_space<workgroup>>):
    // CHECK: mgpu.set_max_registers 232 increase
    mgpu.set_max_registers 232 increase
    %zero = arith.constant dense<0.0> : vector<64x128xf32>
    // CHECK: %[[ACC:.*]] = mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : vector<64x128xf32>, memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    %acc = mgpu.wgmma %zero, %a, %b : vector<64x128xf32>, !a, !b
    %ra = arith.constant dense<1.0> : vector<64x64xbf16>
    // CHECK: mgpu.wgmma %[[ACC]], %{{.*}}, %{{.*}} : vector<64x128xf32>, vector<64x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    %acc2 = mgpu.wgmma %acc, %ra, %b : vector<64x128xf32>, vector<64x64xbf16>, !b
    // CHECK: mgpu.wgmma_wait 1
    mgpu.wgmma_wait 1
    %z16 = arith.constant dense<0.0> : vector<64x8xf16>
    // CHECK: mgpu.wgmma {{.*}} : vector<64x8xf16>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<32x8xf8E4M3FN, #gpu.address_space<workgroup>>
    %acc8 = mgpu.wgmma %z16, %a8, %b8 : vector<64x8xf16>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<32x8xf8E4M3FN, #gpu.address_space<workgroup>>
    %z32 = arith.constant dense<0.0> : vector<128x256xf32>
    // CHECK: mgpu.wgmma {{.*}} : vector<128x256xf32>, memref<128x8xf32, #gpu.address_space<workgroup>>, memref<8x256xf32, #gpu.address_space<workgroup>>
    %acct = mgpu.wgmma %z32, %at, %bt : vector<128x256xf32>, memref<128x8xf32, #gpu.address_space<workgroup>>, memref<8x256xf32, #gpu.address_space<workgroup>>
    // s8 x s8 into s32, and the two f8 types mixed (JAX allows both).
    %zi = arith.constant dense<0> : vector<64x8xi32>
    // CHECK: mgpu.wgmma {{.*}} : vector<64x8xi32>, memref<64x32xi8, #gpu.address_space<workgroup>>, memref<32x8xi8, #gpu.address_space<workgroup>>
    %acci = mgpu.wgmma %zi, %ai, %bi : vector<64x8xi32>, memref<64x32xi8, #gpu.address_space<workgroup>>, memref<32x8xi8, #gpu.address_space<workgroup>>
    // CHECK: mgpu.wgmma {{.*}} : vector<64x8xf16>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<32x8xf8E5M2, #gpu.address_space<workgroup>>
    %accm = mgpu.wgmma %z16, %a8, %b5 : vector<64x8xf16>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<32x8xf8E5M2, #gpu.address_space<workgroup>>
    // CHECK: mgpu.wgmma_wait 0
    mgpu.wgmma_wait 0
    // CHECK: mgpu.set_max_registers 40 decrease
    mgpu.set_max_registers 40 decrease
  }
  return
}

// A block staged by TMA in the tiled layout with the 128-byte swizzle and
// read in place by wgmma: the copy's `transforms` and the wgmma's
// `a_transforms` / `b_transforms` round trip (a is the lower 64-row tile of
// a 128x64 block, b two 64x64 tiles side by side).
!ablock = memref<128x64xbf16, #gpu.address_space<workgroup>>
!alow = memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
// CHECK-LABEL: func.func @tiled_operands
func.func @tiled_operands(%g: memref<256x256xbf16>) {
  mgpu.pallas_call grid [1] ins(%g : memref<256x256xbf16>) in_specs [#whole] out_specs []
      scratch [!ablock, !b, !mgpu.barrier<count = 1>] {
  ^bb0(%g0: memref<256x256xbf16>, %ab: !ablock, %b: !b, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}, 0], %{{.*}}, %{{.*}}[%{{.*}}] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] :
    mgpu.copy_gmem_to_smem %g0[%c0, 0], %ab, %bar[%c0] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : memref<256x256xbf16>, !ablock, !mgpu.barrier<count = 1>
    %low = memref.subview %ab[64, 0] [64, 64] [1, 1] : !ablock to !alow
    %z = arith.constant dense<0.0> : vector<64x128xf32>
    // CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] :
    %r = mgpu.wgmma %z, %low, %b a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, !alow, !b
    // CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} b_transforms [#mgpu.tile<[16, 64]>, #mgpu.swizzle<128>] :
    %s = mgpu.wgmma %r, %low, %b b_transforms [#mgpu.tile<[16, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, !alow, !b
    // JAX's default operand tiling, (8, 64) with the 128-byte swizzle: one
    // swizzle atom per tile.
    // CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} a_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
    %t = mgpu.wgmma %s, %low, %b a_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, !alow, !b
    // b as the transpose of a 128 x 64 block (JAX's transpose_ref of a
    // swizzled buffer: attention's k), read K-major.
    %bt = memref.transpose %ab (d0, d1) -> (d1, d0)
        : !ablock to memref<64x128xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
    // CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] : vector<64x128xf32>, {{.*}}, memref<64x128xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
    %u = mgpu.wgmma %t, %low, %bt b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, !alow, memref<64x128xbf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
    mgpu.wgmma_wait 0
  }
  return
}

// One lane's part of a wgmma with a in registers, as the distribution
// writes it.
// CHECK-LABEL: func.func @wgmma_register_a
func.func @wgmma_register_a(%acc: vector<64xf32>, %a: vector<8xbf16>, %desc: i64, %h: vector<8xf16>) -> (vector<64xf32>, vector<64xf32>) {
  // CHECK: mgpu.wgmma_register_a %{{.*}}, %{{.*}}, %{{.*}} b_mn_major : vector<8xbf16>, vector<64xf32>
  %d = mgpu.wgmma_register_a %acc, %a, %desc b_mn_major : vector<8xbf16>, vector<64xf32>
  // CHECK: mgpu.wgmma_register_a %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>, vector<64xf32>
  %e = mgpu.wgmma_register_a %d, %h, %desc : vector<8xf16>, vector<64xf32>
  return %d, %e : vector<64xf32>, vector<64xf32>
}

// One lane's part of Ampere's warp-wide m16n8k16 MMA, as the distribution
// writes it for mgpu.mma.
// CHECK-LABEL: func.func @mma_sync
func.func @mma_sync(%acc: vector<4xf32>, %a: vector<8xbf16>, %b: vector<4xbf16>, %ha: vector<8xf16>, %hb: vector<4xf16>) -> vector<4xf32> {
  // CHECK: mgpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>, vector<4xbf16>
  %d = mgpu.mma_sync %acc, %a, %b : vector<8xbf16>, vector<4xbf16>
  // CHECK: mgpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>, vector<4xf16>
  %e = mgpu.mma_sync %d, %ha, %hb : vector<8xf16>, vector<4xf16>
  return %e : vector<4xf32>
}

// One lane's wgmma steps with both operands in shared memory, as the
// distribution writes them: fence, steps, commit, wait.
// CHECK-LABEL: func.func @wgmma_shared
func.func @wgmma_shared(%acc: vector<64xf32>, %da: i64, %db: i64) -> (vector<64xf32>, vector<64xf32>) {
  // CHECK: mgpu.wgmma_fence
  mgpu.wgmma_fence
  // CHECK: mgpu.wgmma_shared %{{.*}}, %{{.*}}, %{{.*}} a_mn_major b_mn_major {a_type = bf16, b_type = bf16} : vector<64xf32>
  %d = mgpu.wgmma_shared %acc, %da, %db a_mn_major b_mn_major {a_type = bf16, b_type = bf16} : vector<64xf32>
  // CHECK: mgpu.wgmma_shared %{{.*}}, %{{.*}}, %{{.*}} {a_type = f8E4M3FN, b_type = f8E5M2} : vector<64xf32>
  %e = mgpu.wgmma_shared %d, %da, %db {a_type = f8E4M3FN, b_type = f8E5M2} : vector<64xf32>
  // CHECK: mgpu.wgmma_commit_group
  mgpu.wgmma_commit_group
  // CHECK: mgpu.wgmma_wait_group 0
  mgpu.wgmma_wait_group 0
  return %d, %e : vector<64xf32>, vector<64xf32>
}
