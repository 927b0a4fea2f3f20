// RUN: mgpu-opt %s --mgpu-select-tensor-cores --mgpu-expand-pipelines -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines -split-input-file | FileCheck %s --check-prefix=OFF

// With apply-transforms (the tensor-core pipelines), a staged input block
// with [#mgpu.tile, #mgpu.swizzle<128>] that the body reads only as shared
// operands of tensor-core wgmma is stored in that layout: its copies carry
// `transforms` and the wgmma ops say which operands they read in place.
// Without the option, or when anything else reads the block, it stays
// row-major.

#whole = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
!s = memref<128x64xbf16, #gpu.address_space<workgroup>>
!t = memref<64x128xbf16, #gpu.address_space<workgroup>>
!low = memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @only_wgmma
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] : memref<128x128xbf16>, memref<128x64xbf16
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] : memref<128x128xbf16>, memref<64x128xbf16
// CHECK: mgpu.wgmma {{.*}} a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] {mgpu.tensor_cores} :
// OFF-LABEL: func.func @only_wgmma
// OFF-NOT: transforms [
func.func @only_wgmma(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>) {
  mgpu.pallas_call grid [1] ins(%a, %b : memref<128x128xbf16>, memref<128x128xbf16>)
      in_specs [#whole, #whole] out_specs [] {
  ^bb0(%ag: memref<128x128xbf16>, %bg: memref<128x128xbf16>):
    mgpu.emit_pipeline grid [2] ins(%ag, %bg : memref<128x128xbf16>, memref<128x128xbf16>)
        in_specs [#a_k, #b_k] out_specs [] {
    ^bb0(%k: index, %as: !s, %bs: !t):
      %z = arith.constant dense<0.0> : vector<64x128xf32>
      %low = memref.subview %as[64, 0] [64, 64] [1, 1] : !s to !low
      %r = mgpu.wgmma %z, %low, %bs : vector<64x128xf32>, !low, !t
      mgpu.wgmma_wait 0
    }
  }
  return
}

// -----

#whole = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
!s = memref<128x64xbf16, #gpu.address_space<workgroup>>
!t = memref<64x128xbf16, #gpu.address_space<workgroup>>
!mid = memref<64x64xbf16, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>

// a is also read by a transfer, and its view does not start at a tile: a
// stays row-major (and its wgmma copies it); b is still read in place.
// CHECK-LABEL: func.func @other_readers
// CHECK: mgpu.copy_gmem_to_smem {{.*}}, %{{.*}}[%{{.*}}] : memref<128x128xbf16>, memref<128x64xbf16
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] : memref<128x128xbf16>, memref<64x128xbf16
// CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] {mgpu.tensor_cores} :
// CHECK-NOT: a_transforms
func.func @other_readers(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %o: memref<128x64xbf16>) {
  mgpu.pallas_call grid [1] ins(%a, %b : memref<128x128xbf16>, memref<128x128xbf16>)
      outs(%o : memref<128x64xbf16>) in_specs [#whole, #whole]
      out_specs [#mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>] {
  ^bb0(%ag: memref<128x128xbf16>, %bg: memref<128x128xbf16>, %og: memref<128x64xbf16>):
    mgpu.emit_pipeline grid [2] ins(%ag, %bg : memref<128x128xbf16>, memref<128x128xbf16>)
        in_specs [#a_k, #b_k] out_specs [] {
    ^bb0(%k: index, %as: !s, %bs: !t):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : bf16
      %z = arith.constant dense<0.0> : vector<64x128xf32>
      %mid = memref.subview %as[32, 0] [64, 64] [1, 1] : !s to !mid
      %r = mgpu.wgmma %z, %mid, %bs : vector<64x128xf32>, !mid, !t
      mgpu.wgmma_wait 0
      %v = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : !s, vector<128x64xbf16>
      vector.transfer_write %v, %og[%c0, %c0] {in_bounds = [true, true]} : vector<128x64xbf16>, memref<128x64xbf16>
    }
  }
  return
}

// -----

#whole = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
!s = memref<64x64xbf16, #gpu.address_space<workgroup>>

// A wgmma that cannot use the tensor cores (an f16 accumulator) reads the
// block lane by lane: it stays row-major.
// CHECK-LABEL: func.func @not_on_tensor_cores
// CHECK-NOT: transforms [
func.func @not_on_tensor_cores(%a: memref<128x128xf16>) {
  mgpu.pallas_call grid [1] ins(%a : memref<128x128xf16>) in_specs [#whole] out_specs []
      scratch [memref<64x64xf16, #gpu.address_space<workgroup>>] {
  ^bb0(%ag: memref<128x128xf16>, %bs: memref<64x64xf16, #gpu.address_space<workgroup>>):
    mgpu.emit_pipeline grid [2] ins(%ag : memref<128x128xf16>) in_specs [#a_k] out_specs [] {
    ^bb0(%k: index, %as: memref<64x64xf16, #gpu.address_space<workgroup>>):
      %z = arith.constant dense<0.0> : vector<64x64xf16>
      %r = mgpu.wgmma %z, %as, %bs : vector<64x64xf16>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>
      mgpu.wgmma_wait 0
    }
  }
  return
}

// -----

// Blocks whose specs name no transforms get the ones JAX's warpgroup
// semantics infers for MMA operands: the largest swizzle dividing a row
// (128 bytes for 64 f16, 64 for 32, 32 for 16) in tiles of 8 rows of it.
// A block whose rows are not a multiple of 32 bytes (8 f16) stays
// row-major (its wgmma copies it into place).
#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#a64 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#b32 = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(k) -> (k, 0)>>
#a16 = #mgpu.block_spec<shape = [64, 16], index_map = affine_map<(k) -> (0, k)>>
#b16 = #mgpu.block_spec<shape = [16, 8], index_map = affine_map<(k) -> (k, 0)>>
!g = memref<256x256xf16>
!a64 = memref<64x64xf16, #gpu.address_space<workgroup>>
!b32 = memref<64x32xf16, #gpu.address_space<workgroup>>
!a16 = memref<64x16xf16, #gpu.address_space<workgroup>>
!b16 = memref<16x8xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @inferred
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] : memref<256x256xf16>, memref<64x64xf16
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[8, 32]>, #mgpu.swizzle<64>] : memref<256x256xf16>, memref<64x32xf16
// CHECK: mgpu.wgmma {{.*}} a_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[8, 32]>, #mgpu.swizzle<64>] {mgpu.tensor_cores} :
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[8, 16]>, #mgpu.swizzle<32>] : memref<256x256xf16>, memref<64x16xf16
// CHECK: mgpu.copy_gmem_to_smem {{.*}}, %{{.*}}[%{{.*}}] : memref<256x256xf16>, memref<16x8xf16
// CHECK: mgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} a_transforms [#mgpu.tile<[8, 16]>, #mgpu.swizzle<32>] {mgpu.tensor_cores} :
// OFF-LABEL: func.func @inferred
// OFF-NOT: transforms [
func.func @inferred(%a: !g, %b: !g) {
  mgpu.pallas_call grid [1] ins(%a, %b : !g, !g) in_specs [#whole, #whole] out_specs [] {
  ^bb0(%ag: !g, %bg: !g):
    mgpu.emit_pipeline grid [2] ins(%ag, %bg : !g, !g) in_specs [#a64, #b32] out_specs [] {
    ^bb0(%k: index, %as: !a64, %bs: !b32):
      %z = arith.constant dense<0.0> : vector<64x32xf32>
      %r = mgpu.wgmma %z, %as, %bs : vector<64x32xf32>, !a64, !b32
      mgpu.wgmma_wait 0
    }
    mgpu.emit_pipeline grid [2] ins(%ag, %bg : !g, !g) in_specs [#a16, #b16] out_specs [] {
    ^bb0(%k: index, %as: !a16, %bs: !b16):
      %z = arith.constant dense<0.0> : vector<64x8xf32>
      %r = mgpu.wgmma %z, %as, %bs : vector<64x8xf32>, !a16, !b16
      mgpu.wgmma_wait 0
    }
  }
  return
}
