// RUN: mgpu-opt %s --mgpu-propagate-transforms -split-input-file -verify-diagnostics

// Two layouts named for one buffer.

!buf = memref<128x64xbf16, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
#g = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

func.func @two_layouts(%x: memref<128x64xbf16>, %o: memref<128x64xbf16>) {
  mgpu.pallas_call grid [1] ins(%x : memref<128x64xbf16>) outs(%o : memref<128x64xbf16>)
      in_specs [#g] out_specs [#g] scratch [!buf, !bar] {
  ^bb0(%xg: memref<128x64xbf16>, %og: memref<128x64xbf16>, %s: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-note @below {{transforms named here}}
    mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
        : memref<128x64xbf16>, !buf, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op names transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] for a shared buffer that another op lays out with [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]: a buffer holds one layout}}
    mgpu.copy_smem_to_gmem %s, %og transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : !buf, memref<128x64xbf16>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

// -----

// The lanes read a buffer that the tensor cores read tiled.

!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x64xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x64xf32>
!bar = !mgpu.barrier<count = 1>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
#g = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @elements_and_mma(%x: memref<128x64xbf16>) {
    mgpu.pallas_call grid [1] ins(%x : memref<128x64xbf16>) in_specs [#g] out_specs []
        scratch [!a, !b, !acc, !bar] {
    ^bb0(%xg: memref<128x64xbf16>, %as: !a, %bs: !b, %tmem: !acc, %bar: !bar):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : bf16
      mgpu.copy_gmem_to_smem %xg, %as, %bar[%c0] transforms #sw : memref<128x64xbf16>, !a, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      // Part of the buffer: the lanes cannot go through its layout.
      // expected-error @below {{'vector.transfer_read' op accesses the elements of a shared buffer that the tensor cores read in the layout [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]: the lanes go through that layout in a vector.transfer_read or transfer_write of a whole 2-d view with contiguous rows, at [0, 0]; access such a view or give the elements a buffer of their own}}
      %v = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : !a, vector<64x64xbf16>
      // expected-note @below {{the tensor cores read it here}}
      mgpu.tcgen05_mma %tmem, %as, %bs a_transforms #sw b_transforms #sw : !acc, !a, !b
    }
    return
  }
}

// -----

// A copy out of a view that is not whole tiles of the buffer.

!buf = memref<128x64xbf16, #gpu.address_space<workgroup>>
!half = memref<4x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
#g = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

func.func @part_of_a_tile(%x: memref<128x64xbf16>, %o: memref<128x64xbf16>) {
  mgpu.pallas_call grid [1] ins(%x : memref<128x64xbf16>) outs(%o : memref<128x64xbf16>)
      in_specs [#g] out_specs [#g] scratch [!buf, !bar] {
  ^bb0(%xg: memref<128x64xbf16>, %og: memref<128x64xbf16>, %s: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-note @below {{transforms named here}}
    mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
        : memref<128x64xbf16>, !buf, !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    %rows = memref.subview %s[%c0, 0] [4, 64] [1, 1] : !buf to !half
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op copies a view of a shared buffer laid out with transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] that is not whole tiles of it: copy whole tiles}}
    mgpu.copy_smem_to_gmem %rows, %og[0, 0] : !half, memref<128x64xbf16>
    mgpu.wait_smem_to_gmem 0
  }
  return
}
