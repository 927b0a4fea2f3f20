// Blackwell bf16 matmul, written by hand with the kernel-level ops in the
// structure of JAX's blackwell_matmul_mgpu.py: c = a * b (a: 256x512,
// b: 512x256 bf16, c: 256x256 f32). Each program of the [2, 2] mesh owns a
// 128x128 tile of c, accumulated in tensor memory (two 64-column
// `!mgpu.tmem` scratch buffers, one per half of the tile's columns: 128
// columns of TMEM), and runs two Pallas threads (warpgroups):
//
// - thread 1, the producer, streams K in steps of 64 into a ring of 4
//   stages: per stage a 128x64 block of a and a 64x128 block of b (16 KiB
//   each), copied (TMA on the GPU) tiled and 128-byte swizzled, both counted
//   on the stage's `full` barrier; before refilling a stage it waits on the
//   stage's `empty` barrier;
// - thread 0, the MMA issuer, waits for each stage and issues two
//   `mgpu.tcgen05_mma` 128x64x64, one per half of b's columns (four
//   tcgen05.mma of K 16 each, from one thread on the GPU), into the TMEM
//   accumulators, reading the stage in place, then commits: the stage's
//   `empty` barrier gets its arrival once the MMAs have read it, so the
//   tensor cores run ahead of the issuing thread and the producer refills
//   behind them. After the last step it commits to `done`, waits, and as
//   the epilogue reads each accumulator from TMEM into registers (each lane
//   its row, tcgen05.ld), stores it into the a ring (free once every MMA is
//   done) and copies it out (TMA).
//
// The CPU backend and the emulator keep TMEM as per-CTA memory and compute
// each MMA when it is issued, with the same numbers. Run test:
// test/Integration/TensorCores/blackwell_matmul.mlir; compile it for the
// GPU with --mgpu-to-binary="chip=sm_100a".
// Chip: sm_100a
//
// Two 64-column halves rather than one 128x128 accumulator: the rows cross
// the warpgroup scratch on their way from TMEM into the lanes' layout, 32
// KiB per half, which leaves the 4-stage ring its 128 KiB of shared memory.
//
// Summary: Blackwell bf16 matmul, 128x128 tiles: a TMA producer warpgroup,
//   an MMA issuer with the accumulator in tensor memory (`!mgpu.tmem`,
//   `tcgen05_mma`, `tcgen05_commit_arrive`, `async_load_tmem`)

#mesh = #mgpu.mesh<grid = [2, 2], grid_names = ["i", "j"], num_threads = 2, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 1>
!done = !mgpu.barrier<count = 1, arrivals = 1>
!half = !mgpu.tmem<128x64xf32>
// The 4 stages of a and of b (16 KiB each), as bytes viewed per stage.
!ring = memref<65536xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x128xbf16, #gpu.address_space<workgroup>>
// Columns [0, 64) and [64, 128) of a b stage.
!b_left = memref<64x64xbf16, strided<[128, 1]>, #gpu.address_space<workgroup>>
!b_right = memref<64x64xbf16, strided<[128, 1], offset: 64>, #gpu.address_space<workgroup>>
// A 128x64 f32 half of c (32 KiB) on its way out.
!out = memref<128x64xf32, #gpu.address_space<workgroup>>

func.func @blackwell_matmul(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                            %c: memref<256x256xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      scratch [!ring, !ring, !half, !half, !full, !empty, !done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>,
       %cg: memref<256x256xf32>, %as: !ring, %bs: !ring,
       %left: !half, %right: !half, %full: !full, %empty: !empty,
       %done: !done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %steps = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %stage_bytes = arith.constant 16384 : index
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %row = arith.muli %i, %c128 : index
    %col = arith.muli %j, %c128 : index
    %wg = mgpu.axis_index "wg"
    %producer = arith.cmpi eq, %wg, %c1 : index
    scf.if %producer {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        %reuse = arith.cmpi uge, %k, %c4 : index
        scf.if %reuse {
          mgpu.barrier_wait %empty[%slot] : !empty
        }
        %kk = arith.muli %k, %c64 : index
        %at = arith.muli %slot, %stage_bytes : index
        %a_dst = memref.view %as[%at][] : !ring to !a_stage
        %b_dst = memref.view %bs[%at][] : !ring to !b_stage
        mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
            transforms #sw : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw : memref<512x256xbf16>, !b_stage, !full
      }
    } else {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        mgpu.barrier_wait %full[%slot] : !full
        %at = arith.muli %slot, %stage_bytes : index
        %a_src = memref.view %as[%at][] : !ring to !a_stage
        %b_src = memref.view %bs[%at][] : !ring to !b_stage
        %b_left = memref.subview %b_src[0, 0] [64, 64] [1, 1]
            : !b_stage to !b_left
        %b_right = memref.subview %b_src[0, 64] [64, 64] [1, 1]
            : !b_stage to !b_right
        %later = arith.cmpi ne, %k, %c0 : index
        mgpu.tcgen05_mma %left, %a_src, %b_left accumulate(%later)
            a_transforms #sw b_transforms #sw : !half, !a_stage, !b_left
        mgpu.tcgen05_mma %right, %a_src, %b_right accumulate(%later)
            a_transforms #sw b_transforms #sw : !half, !a_stage, !b_right
        // The stage is free once these MMAs have read it.
        mgpu.tcgen05_commit_arrive %empty[%slot] : !empty
      }
      // The epilogue: the accumulator once every MMA is done.
      mgpu.tcgen05_commit_arrive %done[%c0] : !done
      mgpu.barrier_wait %done[%c0] : !done
      %half_bytes = arith.constant 32768 : index
      %o_left = memref.view %as[%c0][] : !ring to !out
      %o_right = memref.view %as[%half_bytes][] : !ring to !out
      %vl = mgpu.async_load_tmem %left : !half -> vector<128x64xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %vl, %o_left[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x64xf32>, !out
      %vr = mgpu.async_load_tmem %right : !half -> vector<128x64xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %vr, %o_right[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x64xf32>, !out
      mgpu.commit_smem
      %col_right = arith.addi %col, %c64 : index
      mgpu.copy_smem_to_gmem %o_left, %cg[%row, %col] : !out, memref<256x256xf32>
      mgpu.copy_smem_to_gmem %o_right, %cg[%row, %col_right]
          : !out, memref<256x256xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
