// A wgmma whose a the lanes hold in the WGMMA fragment layout (read so by
// layout assignment, as JAX's register a: attention's p, the mixed-type
// matmul's widened a) runs on the tensor cores from those registers: per
// 64-row tile, between the wgmma fence and the commit, one
// mgpu.wgmma_register_a per 16 of K takes the tile's fragment registers
// 8s..8s+7 (wgmma's a0..a7, sliced before the fence) and b's descriptor; a is not staged in shared
// memory (only b, 32 x 128, is copied into the scratch). The NVVM
// lowering makes each one PTX's register-A wgmma.mma_async as inline
// assembly: the accumulators tied to the results, a in four 32-bit
// registers, b's descriptor, trans-b 1 for an N-major b.
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups | FileCheck %s --check-prefix=PORTABLE

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @register_a
  // CHECK-NOT: memref<2048xf16
  // CHECK: vector.store %{{.*}} : memref<4096xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  // CHECK-NOT: memref<2048xf16
  // CHECK: %[[A0:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
  // CHECK: %[[A1:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
  // CHECK: mgpu.wgmma_fence
  // CHECK: mgpu.wgmma_register_a %{{.*}}, %[[A0]], %{{.*}} b_mn_major : vector<8xf16>, vector<64xf32>
  // CHECK: mgpu.wgmma_register_a %{{.*}}, %[[A1]], %{{.*}} b_mn_major : vector<8xf16>, vector<64xf32>
  // CHECK-NOT: mgpu.wgmma_register_a
  // CHECK: mgpu.wgmma_commit_group
  // NVVM-LABEL: func.func @register_a
  // NVVM: nvvm.wgmma.fence.aligned
  // NVVM-COUNT-2: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, $1, {{.*}}, $63}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;\0A}", "=f,=f,{{.*}},=f,0,1,2,{{.*}},63,r,r,r,r,l" {{.*}} : (f32, {{.*}}, i32, i32, i32, i32, i64) -> !llvm.struct<(f32, {{.*}})>
  // NVVM: nvvm.wgmma.commit.group.sync.aligned
  // NVVM-NOT: mgpu.wgmma_register_a
  // PORTABLE-LABEL: func.func @register_a
  // PORTABLE-NOT: mgpu.wgmma_register_a
  func.func @register_a() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x32xf16, #s>, memref<32x128xf16, #s>, memref<64x128xf32, #s>] {
    ^bb0(%a: memref<64x32xf16, #s>, %b: memref<32x128xf16, #s>, %c: memref<64x128xf32, #s>):
      %c0 = arith.constant 0 : index
      %h = arith.constant 0.0 : f16
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %x = vector.transfer_read %a[%c0, %c0], %h {in_bounds = [true, true]}
          : memref<64x32xf16, #s>, vector<64x32xf16>
      %r = mgpu.wgmma %zero, %x, %b : vector<64x128xf32>, vector<64x32xf16>, memref<32x128xf16, #s>
      mgpu.wgmma_wait 0
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #s>
    }
    return
  }
}
