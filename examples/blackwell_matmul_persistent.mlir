// The Blackwell bf16 matmul in the structure of JAX's
// blackwell_matmul_mgpu.py with `collective=True`, persistent: c = a * b
// (a: 256x512, b: 512x1024 bf16, c: 256x1024 f32). The mesh is 2 clusters
// (axis "sm") of a pair of CTAs (axis "x"); the pairs share the 4 tiles of
// 256x256 (one row of tiles) with `mgpu.nd_loop`, each tile computed by
// one tcgen05.mma.cta_group::2 per K step of 16 into a slot of a
// double-buffered accumulator: a 128x512 collective TMEM buffer per CTA
// holds two 256-column slots, taken with `mgpu.tmem_slice` at the tile's
// slot (its local step mod 2), so the MMAs of a tile run while the
// epilogue of the previous one drains the other slot. Three Pallas
// threads per CTA:
//
// - thread 2 (JAX's TMA warp) streams a 4-stage ring across tiles: per
//   step its part of a's 256x64 and b's 64x256 blocks, partitioned across
//   the pair (they complete on the first CTA's `full` barrier); before
//   refilling a stage it waits on `consumed`;
// - thread 1 (JAX's MMA warp) of the pair's first CTA waits for each stage
//   and issues the pair's MMA, committing the stage to both CTAs'
//   `consumed`; before a tile it waits until both CTAs' epilogues freed its
//   slot (`store_done`, a cluster barrier), after it commits `mma_done` of
//   both CTAs;
// - thread 0 (JAX's store warpgroup), in both CTAs, waits for `mma_done`,
//   reads its 128 rows of the slot 64 columns at a time (TMEM slices) into
//   two alternating shared buffers copied out by TMA, then arrives on
//   `store_done` of both CTAs.
//
// The CPU backend and the emulator run the pair's MMA, copies and commits
// on the first CTA over both CTAs' memory, with the same numbers. Run
// test: test/Integration/TensorCores/blackwell_matmul_persistent.mlir;
// compile it for the GPU with --mgpu-to-binary="chip=sm_100a".
// Chip: sm_100a
//
// Summary: persistent Blackwell matmul on pairs of CTAs (JAX's
//   blackwell_matmul_mgpu.py): nd_loop over tiles, double-buffered TMEM
//   accumulator slots, TMA, MMA and store threads

#mesh = #mgpu.mesh<grid = [1], grid_names = ["sm"], cluster = [2], cluster_names = ["x"], num_threads = 3, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!consumed = !mgpu.barrier<count = 4, arrivals = 1>
!mma_done = !mgpu.barrier<count = 2, arrivals = 1>
!store_done = !mgpu.cluster_barrier<axes = ["x"], count = 2, arrivals = 2>
!acc = !mgpu.tmem<128x512xf32, collective>
!slot = !mgpu.tmem<128x256xf32, collective>
!chunk = !mgpu.tmem<128x64xf32, collective>
// The ring: 4 stages of a (16 KiB each), then 4 of b (16 KiB each).
!ring = memref<131072xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x128xbf16, #gpu.address_space<workgroup>>
// Two 128x64 f32 buffers (32 KiB each) on their way out.
!outs = memref<65536xi8, #gpu.address_space<workgroup>>
!out = memref<128x64xf32, #gpu.address_space<workgroup>>

func.func @blackwell_matmul_persistent(%a: memref<256x512xbf16>,
                                       %b: memref<512x1024xbf16>,
                                       %c: memref<256x1024xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x1024xbf16>)
      outs(%c : memref<256x1024xf32>)
      scratch [!ring, !outs, !acc, !full, !consumed, !mma_done, !store_done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x1024xbf16>,
       %cg: memref<256x1024xf32>, %ring: !ring, %outs: !outs, %acc: !acc,
       %full: !full, %consumed: !consumed, %mma_done: !mma_done,
       %store_done: !store_done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %k_iters = arith.constant 8 : index
    %stage_bytes = arith.constant 16384 : index
    %b_base = arith.constant 65536 : index
    %out_bytes = arith.constant 32768 : index
    %m_iters = arith.constant 1 : index
    %n_iters = arith.constant 4 : index
    %x = mgpu.axis_index "x"
    %wg = mgpu.axis_index "wg"
    %leader = arith.cmpi eq, %x, %c0 : index
    %is_tma = arith.cmpi eq, %wg, %c2 : index
    %is_mma = arith.cmpi eq, %wg, %c1 : index
    scf.if %is_tma {
      mgpu.nd_loop [%m_iters, %n_iters] collective_axes ["sm"] {
      ^bb0(%mi: index, %ni: index, %local: index):
        %col = arith.muli %ni, %c256 : index
        %row = arith.muli %mi, %c256 : index
        scf.for %ki = %c0 to %k_iters step %c1 {
          %t = arith.muli %local, %k_iters : index
          %step = arith.addi %t, %ki : index
          %slot = arith.remui %step, %c4 : index
          %reuse = arith.cmpi uge, %step, %c4 : index
          scf.if %reuse {
            mgpu.barrier_wait %consumed[%slot] : !consumed
          }
          %kk = arith.muli %ki, %c64 : index
          %a_at = arith.muli %slot, %stage_bytes : index
          %b_off = arith.muli %slot, %stage_bytes : index
          %b_at = arith.addi %b_base, %b_off : index
          %a_dst = memref.view %ring[%a_at][] : !ring to !a_stage
          %b_dst = memref.view %ring[%b_at][] : !ring to !b_stage
          mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
              transforms #sw collective_axes ["x"] partitioned 0
              : memref<256x512xbf16>, !a_stage, !full
          mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
              transforms #sw collective_axes ["x"] partitioned 1
              : memref<512x1024xbf16>, !b_stage, !full
        }
      }
    }
    %issues = arith.andi %is_mma, %leader : i1
    scf.if %issues {
      mgpu.nd_loop [%m_iters, %n_iters] collective_axes ["sm"] {
      ^bb0(%mi: index, %ni: index, %local: index):
        %acc_slot = arith.remui %local, %c2 : index
        %again = arith.cmpi uge, %local, %c2 : index
        scf.if %again {
          mgpu.barrier_wait %store_done[%acc_slot] : !store_done
        }
        %first_col = arith.muli %acc_slot, %c256 : index
        %tile = mgpu.tmem_slice %acc[%first_col] : !acc -> !slot
        scf.for %ki = %c0 to %k_iters step %c1 {
          %t = arith.muli %local, %k_iters : index
          %step = arith.addi %t, %ki : index
          %slot = arith.remui %step, %c4 : index
          mgpu.barrier_wait %full[%slot] : !full
          %a_at = arith.muli %slot, %stage_bytes : index
          %b_off = arith.muli %slot, %stage_bytes : index
          %b_at = arith.addi %b_base, %b_off : index
          %a_src = memref.view %ring[%a_at][] : !ring to !a_stage
          %b_src = memref.view %ring[%b_at][] : !ring to !b_stage
          %later = arith.cmpi ne, %ki, %c0 : index
          mgpu.tcgen05_mma %tile, %a_src, %b_src accumulate(%later)
              a_transforms #sw b_transforms #sw collective_axis "x"
              : !slot, !a_stage, !b_stage
          mgpu.tcgen05_commit_arrive %consumed[%slot] collective_axis "x"
              : !consumed
        }
        mgpu.tcgen05_commit_arrive %mma_done[%acc_slot] collective_axis "x"
            : !mma_done
      }
    }
    %is_store = arith.cmpi eq, %wg, %c0 : index
    scf.if %is_store {
      mgpu.nd_loop [%m_iters, %n_iters] collective_axes ["sm"] {
      ^bb0(%mi: index, %ni: index, %local: index):
        %acc_slot = arith.remui %local, %c2 : index
        mgpu.barrier_wait %mma_done[%acc_slot] : !mma_done
        %pair_row = arith.muli %mi, %c256 : index
        %own_row = arith.muli %x, %c128 : index
        %row = arith.addi %pair_row, %own_row : index
        %tile_col = arith.muli %ni, %c256 : index
        %first_col = arith.muli %acc_slot, %c256 : index
        scf.for %chunk = %c0 to %c4 step %c1 {
          %in_tile = arith.muli %chunk, %c64 : index
          %at = arith.addi %first_col, %in_tile : index
          %part = mgpu.tmem_slice %acc[%at] : !acc -> !chunk
          %which = arith.remui %chunk, %c2 : index
          %o_at = arith.muli %which, %out_bytes : index
          %o = memref.view %outs[%o_at][] : !outs to !out
          %v = mgpu.async_load_tmem %part : !chunk -> vector<128x64xf32>
          mgpu.wait_load_tmem
          vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]}
              : vector<128x64xf32>, !out
          mgpu.commit_smem
          %col = arith.addi %tile_col, %in_tile : index
          mgpu.copy_smem_to_gmem %o, %cg[%row, %col] : !out, memref<256x1024xf32>
          mgpu.wait_smem_to_gmem 1
        }
        // Both CTAs' epilogues are done with the slot.
        mgpu.barrier_arrive %store_done[%acc_slot] : !store_done
      }
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
