// A 2-CTA cluster matmul on Hopper with multicast of b: c = a * b (a, b:
// 256x256 bf16, c: 256x256 f32), shaped after JAX's hopper_matmul_mgpu.py
// with `cluster_dimension = M`.
//
// The mesh is 2 clusters (axis "j": the 128 columns of c a cluster owns)
// of 2 CTAs (axis "c": the 128 rows each CTA owns). The two CTAs of a
// cluster need the same columns of b at every K step, so each loads half
// of b's 64x128 block and multicasts it into both CTAs' slot
// (`collective_axes ["c"]`, cp.async.bulk.tensor...multicast::cluster);
// each loads its own 128x64 block of a (the two copies are the 2 arrivals
// on the slot's barrier, which also waits for their bytes). K goes in 4
// steps of 64 through 2 slots: the copies for step k + 1 are in flight
// while step k computes.
// A slot is written by both CTAs' multicasts, so before refilling it a
// CTA waits until both have finished reading it: every CTA arrives on the
// slot's `!mgpu.cluster_barrier` of both CTAs after its MMAs, and the
// refill waits for the 2 arrivals. The slots hold JAX's layout, (8, 64)
// tiles with the 128-byte swizzle (`transforms`; each CTA multicasts its
// share as whole tile rows), so the tensor cores read them in place: each
// step is two m64n128k16 wgmma groups (one per 64-row half) issued back
// to back and waited for once, accumulating in registers. The 128x128
// tile goes out through the output block's TMA store.
//
// Summary: a 2-CTA cluster bf16 matmul, b multicast to both CTAs, slots
//   released by a cluster barrier

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"]>
#whole = #mgpu.block_spec<shape = [256, 256], index_map = affine_map<(j, c) -> (0, 0)>, memory_space = gmem>
#c_block = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(j, c) -> (c, j)>>
#tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
!a_slot = memref<128x64xbf16, #gpu.address_space<workgroup>>
!a_top = memref<64x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
!a_bot = memref<64x64xbf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
!b_slot = memref<64x128xbf16, #gpu.address_space<workgroup>>
!c_tile = memref<128x128xf32, #gpu.address_space<workgroup>>
!full = !mgpu.barrier<count = 2, arrivals = 2>
!empty = !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
!acc = vector<64x128xf32>

func.func @cluster_matmul(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>,
                          %c: memref<256x256xf32>) {
  mgpu.pallas_call grid [2, 2]
      ins(%a, %b : memref<256x256xbf16>, memref<256x256xbf16>)
      outs(%c : memref<256x256xf32>)
      in_specs [#whole, #whole] out_specs [#c_block]
      scratch [!a_slot, !a_slot, !b_slot, !b_slot, !full, !empty] mesh #mesh {
  ^bb0(%ag: memref<256x256xbf16>, %bg: memref<256x256xbf16>, %cs: !c_tile,
       %a0: !a_slot, %a1: !a_slot, %b0: !b_slot, %b1: !b_slot,
       %full: !full, %empty: !empty):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %j = mgpu.axis_index "j"
    %cta = mgpu.axis_index "c"
    %row = arith.muli %cta, %c128 : index
    %col = arith.muli %j, %c128 : index
    %zero = arith.constant dense<0.0> : !acc
    // Step 0 into slot 0.
    mgpu.copy_gmem_to_smem %ag[%row, 0], %a0, %full[%c0]
            transforms #tiles
        : memref<256x256xbf16>, !a_slot, !full
    mgpu.copy_gmem_to_smem %bg[0, %col], %b0, %full[%c0]
            transforms #tiles
        collective_axes ["c"] : memref<256x256xbf16>, !b_slot, !full
    // Steps 2 k2 (slot 0) and 2 k2 + 1 (slot 1).
    %acc:2 = scf.for %k2 = %c0 to %c2 step %c1
        iter_args(%x0 = %zero, %x1 = %zero) -> (!acc, !acc) {
      %k = arith.muli %k2, %c2 : index
      %k1 = arith.addi %k, %c1 : index
      // Refill slot 1 with step k + 1 once both CTAs are done with step
      // k - 1.
      %reused1 = arith.cmpi uge, %k2, %c1 : index
      scf.if %reused1 {
        mgpu.barrier_wait %empty[%c1] : !empty
      }
      %k64_k1 = arith.muli %k1, %c64 : index
      mgpu.copy_gmem_to_smem %ag[%row, %k64_k1], %a1, %full[%c1]
            transforms #tiles
          : memref<256x256xbf16>, !a_slot, !full
      mgpu.copy_gmem_to_smem %bg[%k64_k1, %col], %b1, %full[%c1]
            transforms #tiles
          collective_axes ["c"] : memref<256x256xbf16>, !b_slot, !full
      mgpu.barrier_wait %full[%c0] : !full
      %top0 = memref.subview %a0[0, 0] [64, 64] [1, 1] : !a_slot to !a_top
      %bot0 = memref.subview %a0[64, 0] [64, 64] [1, 1] : !a_slot to !a_bot
      %y0 = mgpu.wgmma %x0, %top0, %b0 a_transforms #tiles b_transforms #tiles : !acc, !a_top, !b_slot
      %y1 = mgpu.wgmma %x1, %bot0, %b0 a_transforms #tiles b_transforms #tiles : !acc, !a_bot, !b_slot
      mgpu.wgmma_wait 0
      mgpu.barrier_arrive %empty[%c0] : !empty
      // Refill slot 0 with step k + 2, if any.
      %more = arith.cmpi ult, %k2, %c1 : index
      scf.if %more {
        %k2s = arith.addi %k, %c2 : index
        mgpu.barrier_wait %empty[%c0] : !empty
        %k64_k2s = arith.muli %k2s, %c64 : index
        mgpu.copy_gmem_to_smem %ag[%row, %k64_k2s], %a0, %full[%c0]
            transforms #tiles
            : memref<256x256xbf16>, !a_slot, !full
        mgpu.copy_gmem_to_smem %bg[%k64_k2s, %col], %b0, %full[%c0]
            transforms #tiles
            collective_axes ["c"] : memref<256x256xbf16>, !b_slot, !full
      }
      mgpu.barrier_wait %full[%c1] : !full
      %top1 = memref.subview %a1[0, 0] [64, 64] [1, 1] : !a_slot to !a_top
      %bot1 = memref.subview %a1[64, 0] [64, 64] [1, 1] : !a_slot to !a_bot
      %z0 = mgpu.wgmma %y0, %top1, %b1 a_transforms #tiles b_transforms #tiles : !acc, !a_top, !b_slot
      %z1 = mgpu.wgmma %y1, %bot1, %b1 a_transforms #tiles b_transforms #tiles : !acc, !a_bot, !b_slot
      mgpu.wgmma_wait 0
      mgpu.barrier_arrive %empty[%c1] : !empty
      scf.yield %z0, %z1 : !acc, !acc
    }
    vector.transfer_write %acc#0, %cs[%c0, %c0] {in_bounds = [true, true]} : !acc, !c_tile
    vector.transfer_write %acc#1, %cs[%c64, %c0] {in_bounds = [true, true]} : !acc, !c_tile
  }
  return
}
