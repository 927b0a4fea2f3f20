// Blackwell bf16 matmul with 2-CTA collective MMAs, in the structure of
// JAX's blackwell_matmul_mgpu.py with `collective=True`: c = a * b (a:
// 256x512, b: 512x512 bf16, c: 256x512 f32). The mesh is 2 clusters (axis
// "j": the 256 columns of c a cluster owns) of a pair of CTAs (axis "x",
// the cluster's first axis). The pair computes a 256x256 tile of c with one
// tcgen05.mma.cta_group::2 (M = 256, N = 256) per K step of 16: CTA r
// holds rows [128r, 128r + 128) of a's block and of the accumulator (a
// 128x256 `collective` TMEM buffer in each CTA), and columns
// [128r, 128r + 128) of b's block, which the tensor cores of both CTAs
// read. Each CTA thus loads and stores half of what a 1-CTA 128x256 tile
// would, for the same MMA work per CTA.
//
// Each CTA runs two Pallas threads (warpgroups):
//
// - thread 1 streams K in steps of 64 into a ring of 4 stages: per stage
//   its part of a's 256x64 block and of b's 64x256 block (16 KiB each),
//   tiled and 128-byte swizzled, both copies partitioned across the pair
//   (`collective_axes ["x"] partitioned 0` / `partitioned 1`, JAX's
//   `leader_tracked=CopyPartition.PARTITIONED`): they complete on the
//   first CTA's `full` barrier, which counts both CTAs' bytes. Before
//   refilling a stage it waits on its own `empty` barrier;
// - thread 0 of the first CTA waits for each stage and issues the pair's
//   MMA (`collective_axis "x"`), then commits to `empty` of both CTAs
//   (multicast), so that both producers refill behind the tensor cores.
//   After the last step it commits to `done` of both CTAs; thread 0 of
//   every CTA then waits for `done` and, as the epilogue, reads its
//   128x256 accumulator from TMEM (each lane its row) into the ring (free
//   once every MMA is done) and copies it out (TMA).
//
// The CPU backend and the emulator run the pair's MMA, its copies and its
// commits on the first CTA of the pair, over both CTAs' memory, with the
// same numbers. Run test:
// test/Integration/TensorCores/blackwell_matmul_2cta.mlir; compile it for
// the GPU with --mgpu-to-binary="chip=sm_100a".
// Chip: sm_100a
//
// Summary: Blackwell bf16 matmul on a pair of CTAs: partitioned TMA
//   copies, collective tcgen05 MMAs (cta_group::2) into collective TMEM,
//   multicast commits

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["x"], num_threads = 2, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 1>
!done = !mgpu.barrier<count = 1, arrivals = 1>
!acc = !mgpu.tmem<128x256xf32, collective>
// The 4 stages of a (16 KiB each) then of b (16 KiB each), as bytes
// viewed per stage; the whole ring holds the 128x256 f32 tile (128 KiB)
// on its way out.
!ring = memref<131072xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x128xbf16, #gpu.address_space<workgroup>>
!out = memref<128x256xf32, #gpu.address_space<workgroup>>

func.func @blackwell_matmul_2cta(%a: memref<256x512xbf16>,
                                 %b: memref<512x512xbf16>,
                                 %c: memref<256x512xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x512xbf16>)
      outs(%c : memref<256x512xf32>)
      scratch [!ring, !acc, !full, !empty, !done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x512xbf16>,
       %cg: memref<256x512xf32>, %ring: !ring, %acc: !acc, %full: !full,
       %empty: !empty, %done: !done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %steps = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %stage_bytes = arith.constant 16384 : index
    %b_base = arith.constant 65536 : index
    %j = mgpu.axis_index "j"
    %x = mgpu.axis_index "x"
    %wg = mgpu.axis_index "wg"
    %col = arith.muli %j, %c256 : index
    %producer = arith.cmpi eq, %wg, %c1 : index
    scf.if %producer {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        %reuse = arith.cmpi uge, %k, %c4 : index
        scf.if %reuse {
          mgpu.barrier_wait %empty[%slot] : !empty
        }
        %kk = arith.muli %k, %c64 : index
        %a_at = arith.muli %slot, %stage_bytes : index
        %b_off = arith.muli %slot, %stage_bytes : index
        %b_at = arith.addi %b_base, %b_off : index
        %a_dst = memref.view %ring[%a_at][] : !ring to !a_stage
        %b_dst = memref.view %ring[%b_at][] : !ring to !b_stage
        // The pair's 256x64 block of a and 64x256 block of b, each CTA
        // loading its part.
        mgpu.copy_gmem_to_smem %ag[%c0, %kk], %a_dst, %full[%slot]
            transforms #sw collective_axes ["x"] partitioned 0
            : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw collective_axes ["x"] partitioned 1
            : memref<512x512xbf16>, !b_stage, !full
      }
    } else {
      %leader = arith.cmpi eq, %x, %c0 : index
      scf.if %leader {
        scf.for %k = %c0 to %steps step %c1 {
          %slot = arith.remui %k, %c4 : index
          mgpu.barrier_wait %full[%slot] : !full
          %a_at = arith.muli %slot, %stage_bytes : index
          %b_off = arith.muli %slot, %stage_bytes : index
          %b_at = arith.addi %b_base, %b_off : index
          %a_src = memref.view %ring[%a_at][] : !ring to !a_stage
          %b_src = memref.view %ring[%b_at][] : !ring to !b_stage
          %later = arith.cmpi ne, %k, %c0 : index
          mgpu.tcgen05_mma %acc, %a_src, %b_src accumulate(%later)
              a_transforms #sw b_transforms #sw collective_axis "x"
              : !acc, !a_stage, !b_stage
          // The stage is free in both CTAs once this MMA has read it.
          mgpu.tcgen05_commit_arrive %empty[%slot] collective_axis "x"
              : !empty
        }
        mgpu.tcgen05_commit_arrive %done[%c0] collective_axis "x" : !done
      }
      // The epilogue, in each CTA: its rows of the pair's tile.
      mgpu.barrier_wait %done[%c0] : !done
      %o = memref.view %ring[%c0][] : !ring to !out
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x256xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x256xf32>, !out
      mgpu.commit_smem
      %row = arith.muli %x, %c128 : index
      mgpu.copy_smem_to_gmem %o, %cg[%row, %col] : !out, memref<256x512xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
