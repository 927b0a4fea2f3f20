// Blackwell bf16 matmul, written by hand with the kernel-level ops in the
// structure of JAX's blackwell_matmul_mgpu.py: c = a * b (a: 256x512,
// b: 512x256 bf16, c: 256x256 f32). Each program of the [2, 1] mesh owns a
// 128x256 tile of c, accumulated in tensor memory (one 128x256
// `!mgpu.tmem` scratch buffer: 256 columns of TMEM), and runs two Pallas
// threads (warpgroups):
//
// - thread 1, the producer, streams K in steps of 64 into a ring of 4
//   stages: per stage a 128x64 block of a (16 KiB) and a 64x256 block of b
//   (32 KiB), copied (TMA on the GPU) tiled and 128-byte swizzled, both
//   counted on the stage's `full` barrier; before refilling a stage it
//   waits on the stage's `empty` barrier;
// - thread 0, the MMA issuer, waits for each stage and issues one
//   `mgpu.tcgen05_mma` 128x256x64 (four tcgen05.mma of K 16 each, from one
//   thread on the GPU) into the TMEM accumulator, reading the stage in
//   place, then commits: the stage's `empty` barrier gets its arrival once
//   the MMA has read it, so the tensor cores run ahead of the issuing
//   thread and the producer refills behind them. After the last step it
//   commits to `done`, waits, and as the epilogue reads the accumulator
//   from TMEM (each lane its row, tcgen05.ld) into the b ring (free once
//   every MMA is done) and copies it out (TMA).
//
// The CPU backend and the emulator keep TMEM as per-CTA memory and compute
// each MMA when it is issued, with the same numbers. Run test:
// test/Integration/TensorCores/blackwell_matmul.mlir; compile it for the
// GPU with --mgpu-to-binary="chip=sm_100a".
// Chip: sm_100a
//
// The epilogue's load goes straight into shared memory: a TMEM load whose
// value is only stored into a row-major shared buffer moves 32 columns of
// each lane's row at a time from TMEM to its row of the buffer, with no
// exchange area and no 256-register rows, so the whole 128x256 f32 tile
// (128 KiB) fits in the b ring beside nothing else.
//
// Summary: Blackwell bf16 matmul, 128x256 tiles: a TMA producer warpgroup,
//   an MMA issuer with the accumulator in tensor memory (`!mgpu.tmem`,
//   `tcgen05_mma`, `tcgen05_commit_arrive`, `async_load_tmem`)

#mesh = #mgpu.mesh<grid = [2, 1], grid_names = ["i", "j"], num_threads = 2, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 1>
!done = !mgpu.barrier<count = 1, arrivals = 1>
!acc = !mgpu.tmem<128x256xf32>
// The 4 stages of a (16 KiB each) and of b (32 KiB each), as bytes viewed
// per stage.
!a_ring = memref<65536xi8, #gpu.address_space<workgroup>>
!b_ring = memref<131072xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x256xbf16, #gpu.address_space<workgroup>>
// The 128x256 f32 tile of c (128 KiB) on its way out.
!out = memref<128x256xf32, #gpu.address_space<workgroup>>

func.func @blackwell_matmul(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                            %c: memref<256x256xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      scratch [!a_ring, !b_ring, !acc, !full, !empty, !done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>,
       %cg: memref<256x256xf32>, %as: !a_ring, %bs: !b_ring,
       %acc: !acc, %full: !full, %empty: !empty, %done: !done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %steps = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %a_bytes = arith.constant 16384 : index
    %b_bytes = arith.constant 32768 : index
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %row = arith.muli %i, %c128 : index
    %col = arith.muli %j, %c256 : index
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
        %a_at = arith.muli %slot, %a_bytes : index
        %b_at = arith.muli %slot, %b_bytes : index
        %a_dst = memref.view %as[%a_at][] : !a_ring to !a_stage
        %b_dst = memref.view %bs[%b_at][] : !b_ring to !b_stage
        mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
            transforms #sw : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw : memref<512x256xbf16>, !b_stage, !full
      }
    } else {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        mgpu.barrier_wait %full[%slot] : !full
        %a_at = arith.muli %slot, %a_bytes : index
        %b_at = arith.muli %slot, %b_bytes : index
        %a_src = memref.view %as[%a_at][] : !a_ring to !a_stage
        %b_src = memref.view %bs[%b_at][] : !b_ring to !b_stage
        %later = arith.cmpi ne, %k, %c0 : index
        mgpu.tcgen05_mma %acc, %a_src, %b_src accumulate(%later)
            a_transforms #sw b_transforms #sw : !acc, !a_stage, !b_stage
        // The stage is free once this MMA has read it.
        mgpu.tcgen05_commit_arrive %empty[%slot] : !empty
      }
      // The epilogue: the accumulator once every MMA is done.
      mgpu.tcgen05_commit_arrive %done[%c0] : !done
      mgpu.barrier_wait %done[%c0] : !done
      %o = memref.view %bs[%c0][] : !b_ring to !out
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x256xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x256xf32>, !out
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %o, %cg[%row, %col] : !out, memref<256x256xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
