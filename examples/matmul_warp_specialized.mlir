// Warp-specialized bf16 matmul, written by hand with the kernel-level ops as
// JAX's Hopper matmul is: c = a * b (a: 256x512, b: 512x256, c: 256x256
// f32). Each program of the [2, 2] mesh owns a 128x128 tile of c and runs
// three Pallas threads (warpgroups):
//
// - thread 2, the producer, drops to 40 registers and streams K in steps of
//   64 into a ring of 4 stages: per stage a 128x64 block of a and a 64x128
//   block of b, copied (TMA on the GPU) tiled and 128-byte swizzled, both
//   counted on the stage's `full` barrier; before refilling a stage it
//   waits on the stage's `empty` barrier;
// - threads 0 and 1, the consumers, rise to 232 registers; consumer w
//   multiplies rows [64 w, 64 w + 64) of the a block by the b block on the
//   tensor cores (m64n128k16), reading both in place, with its 64x128 f32
//   accumulator carried in registers by the loop. It keeps one step's MMAs
//   in flight: once step k's are issued it waits for the others
//   (wgmma_wait 1) and releases step k - 1's stage, so the tensor cores
//   never idle between steps. After the loop it waits for the last ones
//   and writes its rows through shared memory with one async copy.
//
// The transforms are the tensor cores' layout: the host backends and the
// GPU lowering without tensor cores keep the stages row-major and compute
// the same numbers. Run test: test/Integration/TensorCores/matmul_warp_specialized.mlir.

#mesh = #mgpu.mesh<grid = [2, 2], grid_names = ["i", "j"], num_threads = 3, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 2>
// The stages of a and of b, 4 x 16 KiB each, as bytes viewed per stage.
!ring = memref<65536xi8, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, #gpu.address_space<workgroup>>
!a_rows = memref<64x64xbf16, #gpu.address_space<workgroup>>
!b_stage = memref<64x128xbf16, #gpu.address_space<workgroup>>
// Each consumer's 64x128 f32 rows of c (32 KiB) on their way out.
!out = memref<65536xi8, #gpu.address_space<workgroup>>
!out_rows = memref<64x128xf32, #gpu.address_space<workgroup>>

func.func @matmul_ws(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                     %c: memref<256x256xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      scratch [!ring, !ring, !out, !full, !empty] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>,
       %cg: memref<256x256xf32>, %as: !ring, %bs: !ring, %os: !out,
       %full: !full, %empty: !empty):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
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
        %shift = arith.muli %slot, %stage_bytes : index
        %a_dst = memref.view %as[%shift][] : !ring to !a_stage
        %b_dst = memref.view %bs[%shift][] : !ring to !b_stage
        mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
            transforms #sw : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw : memref<512x256xbf16>, !b_stage, !full
      }
    } else {
      mgpu.set_max_registers 232 increase
      %mine = arith.muli %wg, %c64 : index
      // Rows 64 w of a stage: w 64x64 tiles (8 KiB) into it.
      %rows_bytes = arith.constant 8192 : index
      %mine_bytes = arith.muli %wg, %rows_bytes : index
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%acc_k = %zero)
          -> vector<64x128xf32> {
        %slot = arith.remui %k, %c4 : index
        mgpu.barrier_wait %full[%slot] : !full
        %shift = arith.muli %slot, %stage_bytes : index
        %a_at = arith.addi %shift, %mine_bytes : index
        %a_rows = memref.view %as[%a_at][] : !ring to !a_rows
        %b_src = memref.view %bs[%shift][] : !ring to !b_stage
        %next = mgpu.wgmma %acc_k, %a_rows, %b_src
            a_transforms #sw b_transforms #sw
            : vector<64x128xf32>, !a_rows, !b_stage
        // At most this step's MMAs in flight: the previous stage is free.
        mgpu.wgmma_wait 1
        %started = arith.cmpi uge, %k, %c1 : index
        scf.if %started {
          %back = arith.addi %k, %c3 : index
          %prev = arith.remui %back, %c4 : index
          mgpu.barrier_arrive %empty[%prev] : !empty
        }
        scf.yield %next : vector<64x128xf32>
      }
      mgpu.wgmma_wait 0
      %out_bytes = arith.constant 32768 : index
      %o_at = arith.muli %wg, %out_bytes : index
      %o = memref.view %os[%o_at][] : !out to !out_rows
      vector.transfer_write %acc, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, !out_rows
      mgpu.commit_smem
      %at = arith.addi %row, %mine : index
      mgpu.copy_smem_to_gmem %o, %cg[%at, %col]
          : !out_rows, memref<256x256xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}
