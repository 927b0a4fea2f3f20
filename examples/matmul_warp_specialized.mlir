// Warp-specialized bf16 matmul, written by hand with the kernel-level ops as
// JAX's Hopper matmul is: c = a * b (a: 256x512, b: 512x256, c: 256x256
// f32). Each program of the [2, 1] mesh owns a 128x256 tile of c and runs
// three Pallas threads (warpgroups):
//
// - thread 2, the producer, drops to 40 registers and streams K in steps of
//   64 into a ring of 4 stages: per stage a 128x64 block of a (16 KiB) and
//   a 64x256 block of b (32 KiB), copied (TMA on the GPU) tiled and 128-byte
//   swizzled, both counted on the stage's `full` barrier; before refilling
//   a stage it waits on the stage's `empty` barrier;
// - threads 0 and 1, the consumers, rise to 232 registers; consumer w
//   multiplies rows [64 w, 64 w + 64) of the a block by the two 64x128
//   halves of the b block on the tensor cores (m64n128k16), reading them in
//   place, with its two 64x128 f32 accumulators carried in registers by the
//   loop. It keeps one step's MMAs in flight: once step k's are issued it
//   waits for the others (wgmma_wait 1) and releases step k - 1's stage, so
//   the tensor cores never idle between steps. After the loop it waits for
//   the last ones, and once both consumers are done with the ring, writes
//   its rows into the ring's b half and out with async copies.
//
// The transforms are the tensor cores' layout: the host backends and the
// GPU lowering without tensor cores keep the stages row-major and compute
// the same numbers. Run test: test/Integration/TensorCores/matmul_warp_specialized.mlir.
//
// Summary: bf16 matmul, 128x256 tiles: a TMA producer warpgroup, two consumers
//   with register accumulators on the tensor cores, `set_max_registers`,
//   `wgmma_wait 1`

#mesh = #mgpu.mesh<grid = [2, 1], grid_names = ["i", "j"], num_threads = 3, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 2>
!done = !mgpu.barrier<count = 1, arrivals = 2>
// The 4 stages of a (16 KiB each) and of b (32 KiB each), as bytes viewed
// per stage.
!ring_a = memref<65536xi8, #gpu.address_space<workgroup>>
!ring_b = memref<131072xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x256xbf16, #gpu.address_space<workgroup>>
// Columns [0, 128) and [128, 256) of a b stage.
!b_left = memref<64x128xbf16, strided<[256, 1]>, #gpu.address_space<workgroup>>
!b_right = memref<64x128xbf16, strided<[256, 1], offset: 128>, #gpu.address_space<workgroup>>
// A consumer's 64x128 f32 quarter of c (32 KiB) on its way out.
!out = memref<64x128xf32, #gpu.address_space<workgroup>>

func.func @matmul_ws(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                     %c: memref<256x256xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      scratch [!ring_a, !ring_b, !full, !empty, !done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>,
       %cg: memref<256x256xf32>, %as: !ring_a, %bs: !ring_b,
       %full: !full, %empty: !empty, %done: !done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
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
    %producer = arith.cmpi eq, %wg, %c2 : index
    scf.if %producer {
      mgpu.set_max_registers 40 decrease
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        %reuse = arith.cmpi uge, %k, %c4 : index
        scf.if %reuse {
          mgpu.barrier_wait %empty[%slot] : !empty
        }
        %kk = arith.muli %k, %c64 : index
        %a_at = arith.muli %slot, %a_bytes : index
        %b_at = arith.muli %slot, %b_bytes : index
        %a_dst = memref.view %as[%a_at][] : !ring_a to !a_stage
        %b_dst = memref.view %bs[%b_at][] : !ring_b to !b_stage
        mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
            transforms #sw : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw : memref<512x256xbf16>, !b_stage, !full
      }
    } else {
      mgpu.set_max_registers 232 increase
      %mine = arith.muli %wg, %c64 : index
      // Rows 64 w of an a stage: w 64x64 tiles (8 KiB) into it.
      %rows_bytes = arith.constant 8192 : index
      %mine_bytes = arith.muli %wg, %rows_bytes : index
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %acc:2 = scf.for %k = %c0 to %steps step %c1
          iter_args(%left = %zero, %right = %zero)
          -> (vector<64x128xf32>, vector<64x128xf32>) {
        %slot = arith.remui %k, %c4 : index
        mgpu.barrier_wait %full[%slot] : !full
        %a_stage_at = arith.muli %slot, %a_bytes : index
        %a_at = arith.addi %a_stage_at, %mine_bytes : index
        %a_rows = memref.view %as[%a_at][] : !ring_a to !a_rows
        %b_at = arith.muli %slot, %b_bytes : index
        %b_src = memref.view %bs[%b_at][] : !ring_b to !b_stage
        %b_left = memref.subview %b_src[0, 0] [64, 128] [1, 1]
            : !b_stage to !b_left
        %b_right = memref.subview %b_src[0, 128] [64, 128] [1, 1]
            : !b_stage to !b_right
        %next_left = mgpu.wgmma %left, %a_rows, %b_left
            a_transforms #sw b_transforms #sw
            : vector<64x128xf32>, !a_rows, !b_left
        %next_right = mgpu.wgmma %right, %a_rows, %b_right
            a_transforms #sw b_transforms #sw
            : vector<64x128xf32>, !a_rows, !b_right
        // At most this step's MMAs in flight: the previous stage is free.
        mgpu.wgmma_wait 1
        %started = arith.cmpi uge, %k, %c1 : index
        scf.if %started {
          %back = arith.addi %k, %c3 : index
          %prev = arith.remui %back, %c4 : index
          mgpu.barrier_arrive %empty[%prev] : !empty
        }
        scf.yield %next_left, %next_right
            : vector<64x128xf32>, vector<64x128xf32>
      }
      mgpu.wgmma_wait 0
      // The ring is free once both consumers' MMAs are done: the producer's
      // copies all landed before the consumers' waits on `full`.
      mgpu.barrier_arrive %done[%c0] : !done
      mgpu.barrier_wait %done[%c0] : !done
      // Consumer w's quarters at 64 KiB w and 64 KiB w + 32 KiB of b's ring.
      %quarter = arith.constant 32768 : index
      %left_at = arith.muli %mine_bytes, %c8 : index
      %right_at = arith.addi %left_at, %quarter : index
      %o_left = memref.view %bs[%left_at][] : !ring_b to !out
      %o_right = memref.view %bs[%right_at][] : !ring_b to !out
      vector.transfer_write %acc#0, %o_left[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !out
      vector.transfer_write %acc#1, %o_right[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !out
      mgpu.commit_smem
      %at = arith.addi %row, %mine : index
      %col_right = arith.addi %col, %c128 : index
      mgpu.copy_smem_to_gmem %o_left, %cg[%at, %col]
          : !out, memref<256x256xf32>
      mgpu.copy_smem_to_gmem %o_right, %cg[%at, %col_right]
          : !out, memref<256x256xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
