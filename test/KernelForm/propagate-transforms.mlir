// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-propagate-transforms -split-input-file | FileCheck %s

// One layout per shared buffer: a copy out that names no transforms reads
// the buffer through those of its copy in (JAX's test_copy_with_transforms:
// the transforms belong to the SMEM ref), through views too (a slot of a
// ring, a slice of whole tiles).

#tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
!buf = memref<128x64xbf16, #gpu.address_space<workgroup>>
!ring = memref<2x128x64xbf16, #gpu.address_space<workgroup>>
!slot = memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!rows = memref<8x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
#g = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

// CHECK-LABEL: func.func @copy_out
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
func.func @copy_out(%x: memref<256x64xbf16>, %o: memref<256x64xbf16>) {
  mgpu.pallas_call grid [1] ins(%x : memref<256x64xbf16>) outs(%o : memref<256x64xbf16>)
      in_specs [#g] out_specs [#g] scratch [!buf, !ring, !bar] {
  ^bb0(%xg: memref<256x64xbf16>, %og: memref<256x64xbf16>, %s: !buf, %r: !ring, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %s, %bar[%c0] transforms #tiles
        : memref<256x64xbf16>, !buf, !bar
    // The slots of a ring: one filled with transforms, the other copied out.
    %s0 = memref.subview %r[%c0, 0, 0] [1, 128, 64] [1, 1, 1] : !ring to !slot
    %s1 = memref.subview %r[%c1, 0, 0] [1, 128, 64] [1, 1, 1] : !ring to !slot
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %s0, %bar[%c0] transforms #tiles
        : memref<256x64xbf16>, !slot, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %s, %og[0, 0] : !buf, memref<256x64xbf16>
    mgpu.copy_smem_to_gmem %s1, %og[128, 0] : !slot, memref<256x64xbf16>
    // A tile row of the buffer.
    %tile_row = memref.subview %s[%c8, 0] [8, 64] [1, 1] : !buf to !rows
    mgpu.copy_smem_to_gmem %tile_row, %og[8, 0] : !rows, memref<256x64xbf16>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

// -----

// A buffer whose elements the lanes also read in part (here through a
// peer CTA's view of it) stays row-major: its copies' transforms are
// dropped.

#tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
!buf = memref<16x64xbf16, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
#g = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>

// CHECK-LABEL: func.func @elements
// CHECK-NOT: transforms
// CHECK: return
func.func @elements(%x: memref<16x64xbf16>, %o: memref<16x64xbf16>) {
  mgpu.pallas_call grid [1, 2] ins(%x : memref<16x64xbf16>) outs(%o : memref<16x64xbf16>)
      in_specs [#g] out_specs [#g] scratch [!buf, !bar] mesh #mesh {
  ^bb0(%xg: memref<16x64xbf16>, %og: memref<16x64xbf16>, %s: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %c = mgpu.axis_index "c"
    mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #tiles
        collective_axes ["c"] : memref<16x64xbf16>, !buf, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    mgpu.copy_smem_to_gmem %s, %og : !buf, memref<16x64xbf16>
    %peer = mgpu.cluster_ref %s[%c] along ["c"] : !buf -> memref<16x64xbf16>
    %v = vector.transfer_read %peer[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<16x64xbf16>, vector<8x64xbf16>
    mgpu.wait_smem_to_gmem 0
    mgpu.cluster_sync
  }
  return
}

// -----

// Where the lanes access whole views (a tiled epilogue: JAX's
// `o_smem[...] = acc` into a buffer with transforms, then its copy out),
// the buffer keeps its layout and the accesses go through it
// (`mgpu.transforms`), as do the copies that name nothing.

#tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
!ring = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!slot = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
#g = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

// CHECK-LABEL: func.func @whole_views
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, true], mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]}
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true, true], mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]}
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
func.func @whole_views(%o: memref<64x64xf16>) {
  mgpu.pallas_call grid [1] outs(%o : memref<64x64xf16>) in_specs [] out_specs [#g]
      scratch [!ring] {
  ^bb0(%og: memref<64x64xf16>, %s: !ring):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f16
    %v = arith.constant dense<1.0> : vector<64x64xf16>
    %s0 = memref.subview %s[%c0, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !slot
    %s1 = memref.subview %s[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !slot
    vector.transfer_write %v, %s0[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !slot
    %w = vector.transfer_read %s0[%c0, %c0], %pad {in_bounds = [true, true]} : !slot, vector<64x64xf16>
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %s0, %og transforms #tiles : !slot, memref<64x64xf16>
    mgpu.copy_smem_to_gmem %s1, %og : !slot, memref<64x64xf16>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

// -----

// A kernel buffer that no op lays out but the tensor cores read gets the
// layout JAX's warpgroup semantics infers for MMA operands (fa3_kernel's
// plain `qo_smem`): tiles of 8 rows of the largest swizzle dividing its
// rows; its copy in and the lanes' whole-view store follow. One whose lanes
// also read part of it stays row-major (the MMA copies it into place),
// while the b it reads alone gets the layout.

!qo = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!q = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!k = memref<64x64xf16, #gpu.address_space<workgroup>>
!kt = memref<64x64xf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
!half = memref<64x32xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>
#g = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]

// CHECK-LABEL: func.func @inferred
// CHECK: mgpu.copy_gmem_to_smem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
// CHECK: mgpu.wgmma {{.*}} a_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] {mgpu.tensor_cores}
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, true], mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]}
// CHECK: mgpu.copy_smem_to_gmem {{.*}} transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
// CHECK-LABEL: func.func @partly_read
// CHECK: mgpu.copy_gmem_to_smem %{{[^ ]*}}[%{{[^ ]*}}, 0], %{{[^ ]*}}, %{{[^ ]*}}[%{{[^ ]*}}] : memref<128x64xf16>
// CHECK: mgpu.wgmma %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}} b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] {mgpu.tensor_cores}
func.func @inferred(%x: memref<128x64xf16>, %o: memref<128x64xf16>) {
  mgpu.pallas_call grid [1] ins(%x : memref<128x64xf16>) outs(%o : memref<128x64xf16>)
      in_specs [#g] out_specs [#g] scratch [!qo, !k, !bar] {
  ^bb0(%xg: memref<128x64xf16>, %og: memref<128x64xf16>, %qo: !qo, %k: !k, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %q = memref.subview %qo[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : !qo to !q
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %q, %bar[%c0] : memref<128x64xf16>, !q, !bar
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %k, %bar[%c1] transforms #sw : memref<128x64xf16>, !k, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    mgpu.barrier_wait %bar[%c1] : !bar
    %kt = memref.transpose %k (r, c) -> (c, r) : !k to !kt
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %s = mgpu.wgmma %zero, %q, %kt b_transforms #sw {mgpu.tensor_cores} : vector<64x64xf32>, !q, !kt
    mgpu.wgmma_wait 0
    %s16 = arith.truncf %s : vector<64x64xf32> to vector<64x64xf16>
    vector.transfer_write %s16, %q[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !q
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %q, %og[0, 0] : !q, memref<128x64xf16>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

func.func @partly_read(%x: memref<128x64xf16>, %o: memref<128x64xf16>) {
  mgpu.pallas_call grid [1] ins(%x : memref<128x64xf16>) outs(%o : memref<128x64xf16>)
      in_specs [#g] out_specs [#g] scratch [!qo, !k, !bar] {
  ^bb0(%xg: memref<128x64xf16>, %og: memref<128x64xf16>, %qo: !qo, %k: !k, %bar: !bar):
    %c0 = arith.constant 0 : index
    %q = memref.subview %qo[%c0, 0, 0] [1, 64, 64] [1, 1, 1] : !qo to !q
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %q, %bar[%c0] : memref<128x64xf16>, !q, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %s = mgpu.wgmma %zero, %q, %k {mgpu.tensor_cores} : vector<64x64xf32>, !q, !k
    mgpu.wgmma_wait 0
    %half = memref.subview %q[0, 0] [64, 32] [1, 1] : !q to !half
    %pad = arith.constant 0.0 : f16
    %h = vector.transfer_read %half[%c0, %c0], %pad {in_bounds = [true, true]} : !half, vector<64x32xf16>
    "test.use"(%s, %h) : (vector<64x64xf32>, vector<64x32xf16>) -> ()
  }
  return
}
