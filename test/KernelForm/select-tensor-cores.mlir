// RUN: mgpu-opt %s --mgpu-select-tensor-cores -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-select-tensor-cores="enable=0" -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: sed 's/sm_90a/sm_80/' %s | mgpu-opt --mgpu-select-tensor-cores -split-input-file | FileCheck %s --check-prefix=OFF

// On sm_90a the wgmma ops the tensor cores run are marked, and the layouts
// named for them stay; a wgmma they cannot run (an f32 accumulator of
// 128 KiB, over the 64 KiB one warpgroup holds) is not marked. Disabled, or
// on sm_80, nothing is marked and the layouts are dropped from copies and wgmma ops:
// the buffers stay row-major.

!ablock = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x128xbf16, #gpu.address_space<workgroup>>
!wide = memref<64x256xbf16, #gpu.address_space<workgroup>>
#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @mixed
  // CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
  // CHECK: mgpu.wgmma {{.*}} b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] {mgpu.tensor_cores} : vector<64x128xf32>
  // CHECK: mgpu.wgmma
  // CHECK-NOT: mgpu.tensor_cores
  // CHECK-SAME: vector<128x256xf32>
  // OFF-LABEL: func.func @mixed
  // OFF-NOT: transforms
  // OFF-NOT: mgpu.tensor_cores
  // OFF: return
  func.func @mixed(%g: memref<256x256xbf16>) {
    mgpu.pallas_call grid [1] ins(%g : memref<256x256xbf16>) in_specs [#whole] out_specs []
        scratch [!ablock, !b, !wide, !mgpu.barrier<count = 1>] {
    ^bb0(%g0: memref<256x256xbf16>, %ab: !ablock, %b: !b, %wide: !wide, %bar: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %g0[%c0, 0], %b, %bar[%c0] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
          : memref<256x256xbf16>, !b, !mgpu.barrier<count = 1>
      %top = memref.subview %ab[0, 0] [64, 64] [1, 1] : !ablock to memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %z = arith.constant dense<0.0> : vector<64x128xf32>
      %r = mgpu.wgmma %z, %top, %b b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
          : vector<64x128xf32>, memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, !b
      %big = arith.constant dense<0.0> : vector<128x256xf32>
      %s = mgpu.wgmma %big, %ab, %wide : vector<128x256xf32>, !ablock, !wide
      mgpu.wgmma_wait 0
    }
    return
  }
}

// -----

// f8 inputs (e4m3, e5m2, mixed) run on the tensor cores when both are read
// K-major, as PTX's wgmma reads 8-bit operands: a plain a and a transposed
// b (plgpu.transpose_ref); with b as stored (N-major) they stay on ordinary
// instructions. f32 inputs read K-major run there too, as tf32 (every
// backend reads them so); read N-major they stay on ordinary
// instructions.
!a8 = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!b8 = memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
!b8t = memref<64x64xf8E5M2, strided<[1, 64]>, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #gpu.address_space<workgroup>>
!ft = memref<64x64xf32, strided<[1, 64]>, #gpu.address_space<workgroup>>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @f8
  // CHECK: mgpu.wgmma {{.*}} {mgpu.tensor_cores} : vector<64x64xf32>, memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf8E5M2, strided<[1, 64]>
  // CHECK: mgpu.wgmma
  // CHECK-NOT: mgpu.tensor_cores
  // CHECK-SAME: memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
  // CHECK: mgpu.wgmma {{.*}} {mgpu.tensor_cores} : vector<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, strided<[1, 64]>
  // CHECK: mgpu.wgmma
  // CHECK-NOT: mgpu.tensor_cores
  // CHECK-SAME: memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<workgroup>>
  func.func @f8() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [!a8, !b8, !f, !f] {
    ^bb0(%a: !a8, %b: !b8, %fa: !f, %fb: !f):
      %z = arith.constant dense<0.0> : vector<64x64xf32>
      %bt = memref.transpose %b (r, c) -> (c, r) : !b8 to !b8t
      %x = mgpu.wgmma %z, %a, %bt : vector<64x64xf32>, !a8, !b8t
      %y = mgpu.wgmma %x, %a, %b : vector<64x64xf32>, !a8, !b8
      %fbt = memref.transpose %fb (r, c) -> (c, r) : !f to !ft
      %w = mgpu.wgmma %y, %fa, %fbt : vector<64x64xf32>, !f, !ft
      %v = mgpu.wgmma %w, %fa, %fb : vector<64x64xf32>, !f, !f
      mgpu.wgmma_wait 0
    }
    return
  }
}
