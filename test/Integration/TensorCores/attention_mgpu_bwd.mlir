// jax/experimental/pallas/ops/gpu/attention_mgpu.py (jax-ml/jax cec06d1),
// _attention_bwd: kernel_dq and kernel_dkv (lines 348-644: kernel_dq
// 393-484, kernel_dkv 486-596, their plgpu.kernel calls 598-637), written
// line for line. Two plgpu.kernels (each an mpmd_map with one mesh) of 3
// Pallas threads "wg": compute warpgroups 0 and 1 (232 registers) and a
// memory warpgroup (40) that runs emit_pipeline_warp_specialized's copies
// with manual_consumed_barriers=True: the body gets one consumed barrier
// per input (`#mgpu.warp_specialization<.., manual_consumed_barriers =
// true>`, barrier arguments after the blocks) and arrives on each once per
// step, in JAX's order, after the MMAs that read its block have completed;
// the compute threads run compute_context(pipeline_callback) (an
// argument-less compute_context with `mgpu.eval_pipeline`): their own TMA
// loads, then the steps, then the stores.
// - kernel_dq, grid (heads, q_seq, batch) = (2, 2, 1): each compute
//   warpgroup loads its block_q rows of q and do (TMA through the 4-D
//   arrays' rank-reducing views) and of lse and delta (1-D TMAs), then over
//   the kv pipeline (4 steps of k and v, 2 slots): s = q k^T,
//   p = exp2(s log2e - lse), dp = do v^T, ds = p (dp - delta),
//   dq += ds16 k (ds from registers); dq goes out through q_smem.
// - kernel_dkv, grid (heads, kv_seq, batch) = (2, 2, 1): each compute
//   warpgroup loads its block_kv rows of k and v, then over the q pipeline
//   (4 steps of q, do, lse and delta; lse and delta 1-D blocks):
//   sT = k q^T, pT = exp2(sT log2e - lse) (lse in Layout.WGMMA.reduce(0),
//   one value per column), dv += pT16 do and dpT = v do^T (two MMAs, one
//   wait), dsT = pT (dpT - delta), dk += dsT16 q; dk and dv go out through
//   k_smem and v_smem in one bulk group, per q head.
// Sizes: batch 1, 2 q heads sharing 1 kv head (q_heads_per_kv_head = 2),
// head_dim 64, q_seq = kv_seq = 256, compute_wgs 2, block_q_dq = block_kv_dq
// = block_q_dkv = block_kv_dkv = 64, max_concurrent_steps 2 (num_q_tiles =
// num_kv_tiles = 2, so both pipelines keep 2 slots). The host computes lse
// in base 2 as the forward saves it (m_i + log2(l_i), m_i scaled by log2e,
// line 247), delta = rowsum(out * do) (the einsum of line 390) with out =
// softmax(q k^T) v in f32 (JAX's forward has no 1/sqrt(d) scale; out is
// not rounded to f16 here), and the reference gradients
// P = exp2(s log2e - lse), dP = do v^T, dS = P (dP - delta), dq = dS k,
// dk = dS^T q, dv = P^T do, per q head (dk and dv come out per q head,
// shape (batch, kv_seq, num_q_heads, head_dim); JAX sums them over the q
// heads of a kv head outside the kernel, lines 639-642: here each head is
// compared on its own), within 1e-2 relative + 1e-3 absolute (ds, p and
// the outputs are f16).
// Changed:
// 1. plgpu.kernel's scratch_types are allocated by a
//    pl.run_scoped(collective_axes=thread_name) around the body (JAX's
//    plgpu.kernel does so): written as mgpu.run_scoped collective_axes
//    ["wg"], its arguments the flattened tuples of scratch_types.
// 2. The Python ints of the sizes are SSA constants; lax.div on the traced
//    q_head is arith.divsi.
// 3. plgpu.load(x, layout=WGMMA.reduce(1) / reduce(0)) is a
//    vector.transfer_read and an mgpu.layout_cast to
//    #mgpu.layout<wgmma_row> / <wgmma_col>; lax.broadcast_in_dim(x, shape,
//    [0]) is a shape_cast to 64 x 1 and a broadcast, [1] a broadcast.
// 4. pl.run_scoped(f, plgpu.ACC) is mgpu.run_scoped whose region gets the
//    zeroed accumulator; `return acc_ref[...]` is a wgmma_wait 0 and the
//    yield. pl.run_state(f)(plgpu.ACC.init(x)) is the wgmmas on x, then one
//    wgmma_wait 0 (run_state reads the accumulators back).
//    plgpu.transpose_ref(ref, (1, 0)) inside f is a memref.transpose just
//    before the run_scoped.
// 5. The scratch buffers' transforms (tiling, swizzle) are named on the ops
//    that use them (copies in, wgmma a_transforms); the pipeline blocks
//    carry theirs in the block specs. The stores of dq, dk and dv into the
//    scratch tiles and the copies out take the tiles' transforms (as in
//    the forward test).
// 6. The kernel functions' arguments are named %x_in / %x_out: MLIR's
//    parser does not let a name of the body (the carries lse and delta)
//    shadow a function argument.
// JAX quirks kept: kernel_dkv starts the pipeline with (dv_acc, dk_acc)
// (line 514) but q_pipeline unpacks the carry as dk_acc, dv_acc (line 532)
// and the context its result as (dk, dv): harmless, both start at zero.
// kernel_dq's dq, _, _ = pipeline_callback(..) (line 425) ignores the last
// lse and delta.
// Planted bugs (by hand): kernel_dq arriving on v_consumed_barrier only at
// steps 0-2 deadlocks (emulator: `mgpu.barrier_wait waits for a phase
// that can never complete`; cpu: the 10 s wait timeout); its arrival on
// k_consumed_barrier moved before the dq MMA's wgmma_wait races with the
// memory thread's refill of the k slot (emulator, every seed:
// `copy_gmem_to_smem overwrites shared memory that a wgmma ... may still
// read`); lse and delta swapped in its broadcasts gives 32768 dq
// mismatches; kernel_dkv yielding (dv, dk) gives dk and dv mismatches; an
// arrival dropped altogether is refused (`consumed barrier of ins[3] is
// never arrived on`).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.dq.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.dkv.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.dq.ptx -o %t.dq.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.dkv.ptx -o %t.dkv.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// Both kernels: two accumulators (dkv) or one accumulator and two score
// tiles (dq) stay in the compute warpgroups' registers.
// PTXAS: Compiling entry function 'attention_bwd_{{dq|dkv}}_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// Per kernel: 232 / 40 registers; the 4-D tensor maps of q, do, k, v
// (through the rank-reducing views: the compute warpgroups' own tiles and
// the pipeline's blocks), 3-D ones of lse and delta (1-D blocks of
// .at[batch, q_head, ..]), and the stores out through 4-D ones.
// PTX-LABEL: .visible .entry attention_bwd_dq_kernel(
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// PTX-LABEL: .visible .entry attention_bwd_dkv_kernel(
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// dk and dv out in one bulk group (commit_group=False twice, then
// commit_smem_to_gmem_group).
// PTX: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.commit_group;
// All MMAs on the tensor cores, 4 K steps each: dq 3 per step (s, dp, and
// dq with ds16 from registers), dkv 4 (sT, dv with pT16 from registers,
// dpT, dk with dsT16 from registers).
// MMA-LABEL: .visible .entry attention_bwd_dq_kernel(
// MMA-COUNT-12: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// MMA-NOT: wgmma.mma_async
// MMA-LABEL: .visible .entry attention_bwd_dkv_kernel(
// MMA-COUNT-16: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// MMA-NOT: wgmma.mma_async
// CHECK: dq mismatches: 0
// CHECK-NEXT: dk mismatches: 0
// CHECK-NEXT: dv mismatches: 0

// grid=(num_q_heads, num_q_tiles, batch_size) and (num_q_heads,
// num_kv_tiles, batch_size), num_threads=compute_wgs + 1, thread_name="wg".
#mesh_dq = #mgpu.mesh<grid = [2, 2, 1], grid_names = ["heads", "q_seq", "batch"],
                      num_threads = 3, thread_name = "wg">
#mesh_dkv = #mgpu.mesh<grid = [2, 2, 1], grid_names = ["heads", "kv_seq", "batch"],
                       num_threads = 3, thread_name = "wg">
// compiler_params=plgpu.CompilerParams(approx_math=True)
#approx = #mgpu.compiler_params<approx_math = true>
// max_concurrent_steps=min([config.max_concurrent_steps, num_q_tiles]) (and
// num_kv_tiles): min(2, 2).
#steps = #mgpu.compiler_params<max_concurrent_steps = 2>
// memory_registers=40, manual_consumed_barriers=True.
#ws = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
// TilingTransform((8, 64)), SwizzleTransform(128).
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
// BlockSpec((block, head_dim), lambda i: (i, 0), transforms=[tiling,
// swizzle]) and BlockSpec((block_q,), lambda i: (i,)).
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>,
                         transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#vec = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
#smem = #gpu.address_space<workgroup>
// q, do, dq, and dk, dv (per q head): (batch_size, seq_len, num_q_heads,
// head_dim); k, v: (batch_size, kv_seq_len, num_kv_heads, head_dim); lse,
// delta: (batch_size, num_q_heads, q_seq_len) f32.
!q_t = memref<1x256x2x64xf16>
!kv_t = memref<1x256x1x64xf16>
!r_t = memref<1x2x256xf32>
// .at[batch, pl.ds(base, block), head] of q / k, .at[batch, head,
// pl.ds(base, block)] of lse: rank-reducing views.
!q_win = memref<64x64xf16, strided<[128, 1], offset: ?>>
!kv_win = memref<64x64xf16, strided<[64, 1], offset: ?>>
!r_win = memref<64xf32, strided<[1], offset: ?>>
// .at[batch, :, head, :] of q / k, .at[batch, q_head, :] of lse.
!q_all = memref<256x64xf16, strided<[128, 1], offset: ?>>
!kv_all = memref<256x64xf16, strided<[64, 1], offset: ?>>
!r_all = memref<256xf32, strided<[1], offset: ?>>
// SMEM((compute_wgs, block, head_dim), f16, transforms=(tiling, swizzle)),
// SMEM((compute_wgs, block_q_dq), f32), and .at[wg_idx] of them.
!s2 = memref<2x64x64xf16, #smem>
!r2 = memref<2x64xf32, #smem>
!tile = memref<64x64xf16, strided<[64, 1], offset: ?>, #smem>
!r_tile = memref<64xf32, strided<[1], offset: ?>, #smem>
// The pipeline's blocks, and plgpu.transpose_ref(block, (1, 0)).
!blk = memref<64x64xf16, #smem>
!blk_t = memref<64x64xf16, strided<[1, 64]>, #smem>
!vblk = memref<64xf32, #smem>
// Barrier(num_barriers=compute_wgs); a consumed barrier of the pipeline
// (Barrier(num_arrivals=num_compute_wgs).at[slot]).
!bars = !mgpu.barrier<count = 2>
!cons = !mgpu.barrier<count = 1, arrivals = 2>

func.func @attention_bwd_dq(%q_in: !q_t, %k_in: !kv_t, %v_in: !kv_t, %do_in: !q_t,
                            %lse_in: !r_t, %delta_in: !r_t, %dq_out: !q_t) {
  mgpu.mpmd_map meshes [#mesh_dq]
      ins(%q_in, %k_in, %v_in, %do_in, %lse_in, %delta_in
          : !q_t, !kv_t, !kv_t, !q_t, !r_t, !r_t)
      outs(%dq_out : !q_t) params #approx {
  ^bb0(%q_ref: !q_t, %k_ref: !kv_t, %v_ref: !kv_t, %do_ref: !q_t,
       %lse_ref: !r_t, %delta_ref: !r_t, %dq_ref: !q_t):
    // scratch_types=[(q_scratch, do_scratch, lse_scratch, delta_scratch),
    //                (plgpu.Barrier(num_barriers=compute_wgs),) * 4]
    mgpu.run_scoped collective_axes ["wg"] {
    ^bb0(%q_smem2: !s2, %do_smem2: !s2, %lse_smem2: !r2, %delta_smem2: !r2,
         %q_barriers: !bars, %do_barriers: !bars, %lse_barriers: !bars,
         %delta_barriers: !bars):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      // block_q, compute_wgs * block_q, q_heads_per_kv_head.
      %block_q = arith.constant 64 : index
      %wgs_block_q = arith.constant 128 : index
      %q_heads_per_kv_head = arith.constant 2 : index
      %log2e = arith.constant dense<1.44269504088896340736> : vector<64x64xf32>
      %batch = mgpu.axis_index "batch"
      %q_head = mgpu.axis_index "heads"
      %wg_idx = mgpu.axis_index "wg"
      %kv_head = arith.divsi %q_head, %q_heads_per_kv_head : index

      // k_ref = k_ref.at[batch, :, kv_head, :]
      // v_ref = v_ref.at[batch, :, kv_head, :]
      %k_view = memref.subview %k_ref[%batch, 0, %kv_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !kv_t to !kv_all
      %v_view = memref.subview %v_ref[%batch, 0, %kv_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !kv_t to !kv_all
      // pipeline(k_ref, v_ref): grid=(num_kv_tiles_in_dq,)
      mgpu.emit_pipeline grid [4] ins(%k_view, %v_view : !kv_all, !kv_all)
          in_specs [#rows, #rows] out_specs [] params #steps
          warp_specialization #ws {
      // def kv_pipeline(_, k_smem, v_smem, k_consumed_barrier,
      //                 v_consumed_barrier, carry)
      ^bb0(%i: index, %k_smem: !blk, %v_smem: !blk,
           %k_consumed_barrier: !cons, %v_consumed_barrier: !cons,
           %dq_acc: vector<64x64xf32>, %lse: vector<64xf32>, %delta: vector<64xf32>):
        // q_smem, do_smem = q_smem2.at[wg_idx], do_smem2.at[wg_idx]
        %q_smem = memref.subview %q_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        %do_smem = memref.subview %do_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile

        // s = pl.run_scoped(compute_s, plgpu.ACC((block_q, block_kv), f32))
        %k_t = memref.transpose %k_smem (r, c) -> (c, r) : !blk to !blk_t
        %s0 = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // plgpu.wgmma(acc_ref, q_smem, plgpu.transpose_ref(k_smem, (1, 0)))
          %r = mgpu.wgmma %acc_ref, %q_smem, %k_t a_transforms #sw
              : vector<64x64xf32>, !tile, !blk_t
          // return acc_ref[...]
          mgpu.wgmma_wait 0
          mgpu.yield %r : vector<64x64xf32>
        }
        // s *= math.log2(math.e)
        %s = arith.mulf %s0, %log2e : vector<64x64xf32>
        // p = jnp.exp2(s - lax.broadcast_in_dim(lse, (block_q, block_kv), [0]))
        %lse_col = vector.shape_cast %lse : vector<64xf32> to vector<64x1xf32>
        %lse_b = vector.broadcast %lse_col : vector<64x1xf32> to vector<64x64xf32>
        %s_sub = arith.subf %s, %lse_b : vector<64x64xf32>
        %p = math.exp2 %s_sub : vector<64x64xf32>

        // dp = pl.run_scoped(compute_dp, plgpu.ACC((block_q, block_kv), f32))
        %v_t = memref.transpose %v_smem (r, c) -> (c, r) : !blk to !blk_t
        %dp = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // plgpu.wgmma(acc_ref, do_smem, plgpu.transpose_ref(v_smem, (1, 0)))
          %r = mgpu.wgmma %acc_ref, %do_smem, %v_t a_transforms #sw
              : vector<64x64xf32>, !tile, !blk_t
          // return acc_ref[...]
          mgpu.wgmma_wait 0
          mgpu.yield %r : vector<64x64xf32>
        }
        // plgpu.barrier_arrive(v_consumed_barrier)
        mgpu.barrier_arrive %v_consumed_barrier[%c0] : !cons

        // ds = p * (dp - lax.broadcast_in_dim(delta, (block_q, block_kv), [0]))
        %delta_col = vector.shape_cast %delta : vector<64xf32> to vector<64x1xf32>
        %delta_b = vector.broadcast %delta_col : vector<64x1xf32> to vector<64x64xf32>
        %dp_sub = arith.subf %dp, %delta_b : vector<64x64xf32>
        %ds = arith.mulf %p, %dp_sub : vector<64x64xf32>

        // dq_acc = pl.run_state(compute_dq)(plgpu.ACC.init(dq_acc)):
        // plgpu.wgmma(acc_ref, ds.astype(k_ref.dtype), k_smem)
        %ds16 = arith.truncf %ds : vector<64x64xf32> to vector<64x64xf16>
        %dq_next = mgpu.wgmma %dq_acc, %ds16, %k_smem
            : vector<64x64xf32>, vector<64x64xf16>, !blk
        mgpu.wgmma_wait 0
        // plgpu.barrier_arrive(k_consumed_barrier)
        mgpu.barrier_arrive %k_consumed_barrier[%c0] : !cons

        // return (dq_acc, lse, delta)
        mgpu.yield %dq_next, %lse, %delta : vector<64x64xf32>, vector<64xf32>, vector<64xf32>
      } compute_context {
        // def _compute_thread(pipeline_callback)
        // q_smem, do_smem, lse_smem, delta_smem = q_smem2.at[wg_idx], ...
        %q_smem = memref.subview %q_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        %do_smem = memref.subview %do_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        %lse_smem = memref.subview %lse_smem2[%wg_idx, 0] [1, 64] [1, 1] : !r2 to !r_tile
        %delta_smem = memref.subview %delta_smem2[%wg_idx, 0] [1, 64] [1, 1] : !r2 to !r_tile
        // q_seq_base = lax.axis_index("q_seq") * (compute_wgs * block_q) + wg_idx * block_q
        %q_seq = mgpu.axis_index "q_seq"
        %q_tile_base = arith.muli %q_seq, %wgs_block_q : index
        %wg_rows = arith.muli %wg_idx, %block_q : index
        %q_seq_base = arith.addi %q_tile_base, %wg_rows : index
        // q_slice = (batch, pl.ds(q_seq_base, block_q), q_head)
        // plgpu.copy_gmem_to_smem(q_ref.at[q_slice], q_smem, q_barriers.at[wg_idx])
        %q_src = memref.subview %q_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_gmem_to_smem %q_src, %q_smem, %q_barriers[%wg_idx] transforms #sw
            : !q_win, !tile, !bars
        // plgpu.copy_gmem_to_smem(do_ref.at[q_slice], do_smem, do_barriers.at[wg_idx])
        %do_src = memref.subview %do_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_gmem_to_smem %do_src, %do_smem, %do_barriers[%wg_idx] transforms #sw
            : !q_win, !tile, !bars
        // plgpu.copy_gmem_to_smem(delta_ref.at[batch, q_head, pl.ds(q_seq_base, block_q)],
        //                         delta_smem, delta_barriers.at[wg_idx])
        %delta_src = memref.subview %delta_ref[%batch, %q_head, %q_seq_base] [1, 1, 64] [1, 1, 1]
            : !r_t to !r_win
        mgpu.copy_gmem_to_smem %delta_src, %delta_smem, %delta_barriers[%wg_idx]
            : !r_win, !r_tile, !bars
        // plgpu.copy_gmem_to_smem(lse_ref.at[batch, q_head, pl.ds(q_seq_base, block_q)],
        //                         lse_smem, lse_barriers.at[wg_idx])
        %lse_src = memref.subview %lse_ref[%batch, %q_head, %q_seq_base] [1, 1, 64] [1, 1, 1]
            : !r_t to !r_win
        mgpu.copy_gmem_to_smem %lse_src, %lse_smem, %lse_barriers[%wg_idx]
            : !r_win, !r_tile, !bars
        // for buffer in buffer_barriers: plgpu.barrier_wait(buffer.at[wg_idx])
        mgpu.barrier_wait %q_barriers[%wg_idx] : !bars
        mgpu.barrier_wait %do_barriers[%wg_idx] : !bars
        mgpu.barrier_wait %lse_barriers[%wg_idx] : !bars
        mgpu.barrier_wait %delta_barriers[%wg_idx] : !bars

        // delta = plgpu.load(delta_smem, layout=plgpu.Layout.WGMMA.reduce(1))
        %delta_read = vector.transfer_read %delta_smem[%c0], %pad {in_bounds = [true]}
            : !r_tile, vector<64xf32>
        %delta0 = mgpu.layout_cast %delta_read : vector<64xf32> to #mgpu.layout<wgmma_row>
        // lse = plgpu.load(lse_smem, layout=plgpu.Layout.WGMMA.reduce(1))
        %lse_read = vector.transfer_read %lse_smem[%c0], %pad {in_bounds = [true]}
            : !r_tile, vector<64xf32>
        %lse0 = mgpu.layout_cast %lse_read : vector<64xf32> to #mgpu.layout<wgmma_row>
        // dq_acc = plgpu.layout_cast(jnp.full((block_q, head_dim), 0, f32), plgpu.Layout.WGMMA)
        %zacc = arith.constant dense<0.0> : vector<64x64xf32>
        %dq_acc = mgpu.layout_cast %zacc : vector<64x64xf32> to #mgpu.layout<wgmma>
        // dq, _, _ = pipeline_callback((dq_acc, lse, delta))
        %dq_res, %lse_last, %delta_last = mgpu.eval_pipeline(%dq_acc, %lse0, %delta0
            : vector<64x64xf32>, vector<64xf32>, vector<64xf32>)
        // q_smem[...] = dq.astype(dtype)
        %dq16 = arith.truncf %dq_res : vector<64x64xf32> to vector<64x64xf16>
        vector.transfer_write %dq16, %q_smem[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf16>, !tile
        mgpu.commit_smem
        // plgpu.copy_smem_to_gmem(q_smem, dq_ref.at[q_slice])
        %dq_dst = memref.subview %dq_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_smem_to_gmem %q_smem, %dq_dst : !tile, !q_win
        mgpu.wait_smem_to_gmem 0
      }
    }
  }
  return
}

func.func @attention_bwd_dkv(%q_in: !q_t, %k_in: !kv_t, %v_in: !kv_t, %do_in: !q_t,
                             %lse_in: !r_t, %delta_in: !r_t, %dk_out: !q_t, %dv_out: !q_t) {
  mgpu.mpmd_map meshes [#mesh_dkv]
      ins(%q_in, %k_in, %v_in, %do_in, %lse_in, %delta_in
          : !q_t, !kv_t, !kv_t, !q_t, !r_t, !r_t)
      outs(%dk_out, %dv_out : !q_t, !q_t) params #approx {
  ^bb0(%q_ref: !q_t, %k_ref: !kv_t, %v_ref: !kv_t, %do_ref: !q_t,
       %lse_ref: !r_t, %delta_ref: !r_t, %dk_ref: !q_t, %dv_ref: !q_t):
    // scratch_types=[(k_scratch, v_scratch),
    //                (plgpu.Barrier(num_barriers=compute_wgs),) * 2]
    mgpu.run_scoped collective_axes ["wg"] {
    ^bb0(%k_smem2: !s2, %v_smem2: !s2, %k_barriers: !bars, %v_barriers: !bars):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      // block_kv, compute_wgs * block_kv, q_heads_per_kv_head.
      %block_kv = arith.constant 64 : index
      %wgs_block_kv = arith.constant 128 : index
      %q_heads_per_kv_head = arith.constant 2 : index
      %log2e = arith.constant dense<1.44269504088896340736> : vector<64x64xf32>
      %batch = mgpu.axis_index "batch"
      %q_head = mgpu.axis_index "heads"
      %wg_idx = mgpu.axis_index "wg"

      // q_ref = q_ref.at[batch, :, q_head, :]
      // do_ref = do_ref.at[batch, :, q_head, :]
      // lse_ref = lse_ref.at[batch, q_head, :]
      // delta_ref = delta_ref.at[batch, q_head, :]
      %q_view = memref.subview %q_ref[%batch, 0, %q_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !q_t to !q_all
      %do_view = memref.subview %do_ref[%batch, 0, %q_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !q_t to !q_all
      %lse_view = memref.subview %lse_ref[%batch, %q_head, 0] [1, 1, 256] [1, 1, 1]
          : !r_t to !r_all
      %delta_view = memref.subview %delta_ref[%batch, %q_head, 0] [1, 1, 256] [1, 1, 1]
          : !r_t to !r_all
      // pipeline(q_ref, do_ref, lse_ref, delta_ref): grid=(num_q_tiles_in_dkv,)
      mgpu.emit_pipeline grid [4]
          ins(%q_view, %do_view, %lse_view, %delta_view : !q_all, !q_all, !r_all, !r_all)
          in_specs [#rows, #rows, #vec, #vec] out_specs [] params #steps
          warp_specialization #ws {
      // def q_pipeline(_, q_smem, do_smem, lse_smem, delta_smem,
      //                q_consumed_barrier, do_consumed_barrier,
      //                lse_consumed_barrier, delta_consumed_barrier, carry)
      ^bb0(%i: index, %q_smem: !blk, %do_smem: !blk, %lse_smem: !vblk, %delta_smem: !vblk,
           %q_consumed_barrier: !cons, %do_consumed_barrier: !cons,
           %lse_consumed_barrier: !cons, %delta_consumed_barrier: !cons,
           // dk_acc, dv_acc = carry
           %dk_acc: vector<64x64xf32>, %dv_acc: vector<64x64xf32>):
        // k_smem, v_smem = k_smem2.at[wg_idx], v_smem2.at[wg_idx]
        %k_smem = memref.subview %k_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        %v_smem = memref.subview %v_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile

        // sT = pl.run_scoped(_compute_sT, plgpu.ACC((block_kv, block_q), f32))
        %q_t = memref.transpose %q_smem (r, c) -> (c, r) : !blk to !blk_t
        %sT0 = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // plgpu.wgmma(acc_ref, k_smem, plgpu.transpose_ref(q_smem, (1, 0)))
          %r = mgpu.wgmma %acc_ref, %k_smem, %q_t a_transforms #sw
              : vector<64x64xf32>, !tile, !blk_t
          // return acc_ref[...]
          mgpu.wgmma_wait 0
          mgpu.yield %r : vector<64x64xf32>
        }
        // sT *= math.log2(math.e)
        %sT = arith.mulf %sT0, %log2e : vector<64x64xf32>

        // lse = plgpu.load(lse_smem, layout=plgpu.Layout.WGMMA.reduce(0))
        %lse_read = vector.transfer_read %lse_smem[%c0], %pad {in_bounds = [true]}
            : !vblk, vector<64xf32>
        %lse = mgpu.layout_cast %lse_read : vector<64xf32> to #mgpu.layout<wgmma_col>
        // plgpu.barrier_arrive(lse_consumed_barrier)
        mgpu.barrier_arrive %lse_consumed_barrier[%c0] : !cons
        // pT = jnp.exp2(sT - lax.broadcast_in_dim(lse, (block_kv, block_q), [1]))
        %lse_b = vector.broadcast %lse : vector<64xf32> to vector<64x64xf32>
        %sT_sub = arith.subf %sT, %lse_b : vector<64x64xf32>
        %pT = math.exp2 %sT_sub : vector<64x64xf32>

        // zeros = plgpu.layout_cast(jnp.full((block_kv, block_q), 0, f32), plgpu.Layout.WGMMA)
        %zfull = arith.constant dense<0.0> : vector<64x64xf32>
        %zeros = mgpu.layout_cast %zfull : vector<64x64xf32> to #mgpu.layout<wgmma>
        // dv_acc, dpT = pl.run_state(_compute)((plgpu.ACC.init(dv_acc), plgpu.ACC.init(zeros))):
        // plgpu.wgmma(dv_acc_ref, pT.astype(dtype), do_smem)  # dV
        %pT16 = arith.truncf %pT : vector<64x64xf32> to vector<64x64xf16>
        %dv_next = mgpu.wgmma %dv_acc, %pT16, %do_smem
            : vector<64x64xf32>, vector<64x64xf16>, !blk
        // plgpu.wgmma(dpT_acc_ref, v_smem, plgpu.transpose_ref(do_smem, (1, 0)))  # dpT
        %do_t = memref.transpose %do_smem (r, c) -> (c, r) : !blk to !blk_t
        %dpT = mgpu.wgmma %zeros, %v_smem, %do_t a_transforms #sw
            : vector<64x64xf32>, !tile, !blk_t
        mgpu.wgmma_wait 0
        // plgpu.barrier_arrive(do_consumed_barrier)
        mgpu.barrier_arrive %do_consumed_barrier[%c0] : !cons

        // delta = plgpu.load(delta_smem, layout=plgpu.Layout.WGMMA.reduce(0))
        %delta_read = vector.transfer_read %delta_smem[%c0], %pad {in_bounds = [true]}
            : !vblk, vector<64xf32>
        %delta = mgpu.layout_cast %delta_read : vector<64xf32> to #mgpu.layout<wgmma_col>
        // plgpu.barrier_arrive(delta_consumed_barrier)
        mgpu.barrier_arrive %delta_consumed_barrier[%c0] : !cons

        // dsT = pT * (dpT - lax.broadcast_in_dim(delta, (block_kv, block_q), [1]))
        %delta_b = vector.broadcast %delta : vector<64xf32> to vector<64x64xf32>
        %dpT_sub = arith.subf %dpT, %delta_b : vector<64x64xf32>
        %dsT = arith.mulf %pT, %dpT_sub : vector<64x64xf32>

        // dk_acc = pl.run_state(compute_dk)(plgpu.ACC.init(dk_acc)):
        // plgpu.wgmma(acc_ref, dsT.astype(dtype), q_smem)
        %dsT16 = arith.truncf %dsT : vector<64x64xf32> to vector<64x64xf16>
        %dk_next = mgpu.wgmma %dk_acc, %dsT16, %q_smem
            : vector<64x64xf32>, vector<64x64xf16>, !blk
        mgpu.wgmma_wait 0
        // plgpu.barrier_arrive(q_consumed_barrier)
        mgpu.barrier_arrive %q_consumed_barrier[%c0] : !cons

        // return (dk_acc, dv_acc)
        mgpu.yield %dk_next, %dv_next : vector<64x64xf32>, vector<64x64xf32>
      } compute_context {
        // def _compute_thread(pipeline_callback)
        // k_smem, v_smem = k_smem2.at[wg_idx], v_smem2.at[wg_idx]
        %k_smem = memref.subview %k_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        %v_smem = memref.subview %v_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !s2 to !tile
        // kv_seq_base = lax.axis_index("kv_seq") * (compute_wgs * block_kv) + wg_idx * block_kv
        %kv_seq = mgpu.axis_index "kv_seq"
        %kv_tile_base = arith.muli %kv_seq, %wgs_block_kv : index
        %wg_rows = arith.muli %wg_idx, %block_kv : index
        %kv_seq_base = arith.addi %kv_tile_base, %wg_rows : index
        // kv_head = lax.div(q_head, jnp.array(q_heads_per_kv_head, q_head.dtype))
        %kv_head = arith.divsi %q_head, %q_heads_per_kv_head : index
        // plgpu.copy_gmem_to_smem(k_ref.at[(batch, pl.ds(kv_seq_base, block_kv), kv_head)],
        //                         k_smem, k_barriers.at[wg_idx])
        %k_src = memref.subview %k_ref[%batch, %kv_seq_base, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !kv_t to !kv_win
        mgpu.copy_gmem_to_smem %k_src, %k_smem, %k_barriers[%wg_idx] transforms #sw
            : !kv_win, !tile, !bars
        // plgpu.copy_gmem_to_smem(v_ref.at[(batch, pl.ds(kv_seq_base, block_kv), kv_head)],
        //                         v_smem, v_barriers.at[wg_idx])
        %v_src = memref.subview %v_ref[%batch, %kv_seq_base, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !kv_t to !kv_win
        mgpu.copy_gmem_to_smem %v_src, %v_smem, %v_barriers[%wg_idx] transforms #sw
            : !kv_win, !tile, !bars
        mgpu.barrier_wait %k_barriers[%wg_idx] : !bars
        mgpu.barrier_wait %v_barriers[%wg_idx] : !bars
        // dk_acc = plgpu.layout_cast(jnp.full((block_kv, head_dim), 0, f32), plgpu.Layout.WGMMA)
        %zk = arith.constant dense<0.0> : vector<64x64xf32>
        %dk_acc = mgpu.layout_cast %zk : vector<64x64xf32> to #mgpu.layout<wgmma>
        // dv_acc = plgpu.layout_cast(jnp.full((block_kv, head_dim), 0, f32), plgpu.Layout.WGMMA)
        %zv = arith.constant dense<0.0> : vector<64x64xf32>
        %dv_acc = mgpu.layout_cast %zv : vector<64x64xf32> to #mgpu.layout<wgmma>
        // (dk, dv) = pipeline_callback((dv_acc, dk_acc))
        %dk_res, %dv_res = mgpu.eval_pipeline(%dv_acc, %dk_acc
            : vector<64x64xf32>, vector<64x64xf32>)
        // k_smem[...] = dk.astype(dtype)
        %dk16 = arith.truncf %dk_res : vector<64x64xf32> to vector<64x64xf16>
        vector.transfer_write %dk16, %k_smem[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf16>, !tile
        // v_smem[...] = dv.astype(dtype)
        %dv16 = arith.truncf %dv_res : vector<64x64xf32> to vector<64x64xf16>
        vector.transfer_write %dv16, %v_smem[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf16>, !tile

        mgpu.commit_smem
        // plgpu.copy_smem_to_gmem(k_smem, dk_ref.at[(batch, pl.ds(kv_seq_base, block_kv), q_head)],
        //                         commit_group=False)
        %dk_dst = memref.subview %dk_ref[%batch, %kv_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_smem_to_gmem %k_smem, %dk_dst {commit_group = false} : !tile, !q_win
        // plgpu.copy_smem_to_gmem(v_smem, dv_ref.at[(batch, pl.ds(kv_seq_base, block_kv), q_head)],
        //                         commit_group=False)
        %dv_dst = memref.subview %dv_ref[%batch, %kv_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_smem_to_gmem %v_smem, %dv_dst {commit_group = false} : !tile, !q_win
        mgpu.commit_smem_to_gmem_group
        mgpu.wait_smem_to_gmem 0
      }
    }
  }
  return
}

// ((131 x + 71 y + 37 x y + 1009 seed) mod 97 - 48) / div: small f16
// values, pseudo-random (row x has its own stride in y, so that rows are
// not shifts of each other and the softmax is neither flat nor one-hot).
func.func @rand(%x: index, %y: index, %seed: index, %div: f32) -> f16 {
  %c131 = arith.constant 131 : index
  %c71 = arith.constant 71 : index
  %c37 = arith.constant 37 : index
  %c1009 = arith.constant 1009 : index
  %c97 = arith.constant 97 : index
  %c48 = arith.constant 48 : index
  %a = arith.muli %x, %c131 : index
  %b = arith.muli %y, %c71 : index
  %xy = arith.muli %x, %y : index
  %c = arith.muli %xy, %c37 : index
  %e = arith.muli %seed, %c1009 : index
  %ab = arith.addi %a, %b : index
  %abc = arith.addi %ab, %c : index
  %t = arith.addi %abc, %e : index
  %r = arith.remui %t, %c97 : index
  %d = arith.subi %r, %c48 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  %g = arith.divf %f, %div : f32
  %h = arith.truncf %g : f32 to f16
  return %h : f16
}

// Row i of head h of a (batch, seq, heads, head_dim) f16 array, in f32.
func.func @row(%a: memref<1x256x2x64xf16>, %i: index, %h: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %r16 = vector.transfer_read %a[%c0, %i, %h, %c0], %pad {in_bounds = [true]}
      : memref<1x256x2x64xf16>, vector<64xf16>
  %r = arith.extf %r16 : vector<64xf16> to vector<64xf32>
  return %r : vector<64xf32>
}

// n + the elements of got (row i, head h) not within rtol |want| + atol of
// want (NaN counts).
func.func @count(%n: index, %got_ref: memref<1x256x2x64xf16>, %i: index, %h: index,
                 %want: vector<64xf32>) -> index {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %rtol = arith.constant dense<1.0e-2> : vector<64xf32>
  %atol = arith.constant dense<1.0e-3> : vector<64xf32>
  %zeros = arith.constant dense<0> : vector<64xi32>
  %ones = arith.constant dense<1> : vector<64xi32>
  %got16 = vector.transfer_read %got_ref[%c0, %i, %h, %c0], %pad {in_bounds = [true]}
      : memref<1x256x2x64xf16>, vector<64xf16>
  %got = arith.extf %got16 : vector<64xf16> to vector<64xf32>
  %diff = arith.subf %got, %want : vector<64xf32>
  %ad = math.absf %diff : vector<64xf32>
  %aw = math.absf %want : vector<64xf32>
  %tol0 = arith.mulf %aw, %rtol : vector<64xf32>
  %tol = arith.addf %tol0, %atol : vector<64xf32>
  %ok = arith.cmpf ole, %ad, %tol : vector<64xf32>
  %bad = arith.select %ok, %zeros, %ones : vector<64xi1>, vector<64xi32>
  %nbad = vector.reduction <add>, %bad : vector<64xi32> into i32
  %nb = arith.index_cast %nbad : i32 to index
  %r = arith.addi %n, %nb : index
  return %r : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %div_q = arith.constant 72.0 : f32
  %div_do = arith.constant 40.0 : f32
  %div_k = arith.constant 72.0 : f32
  %div_v = arith.constant 40.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %zrow = arith.constant dense<0.0> : vector<64xf32>
  %q = memref.alloc() : !q_t
  %k = memref.alloc() : !kv_t
  %v = memref.alloc() : !kv_t
  %do = memref.alloc() : !q_t
  %lse = memref.alloc() : !r_t
  %delta = memref.alloc() : !r_t
  %dq = memref.alloc() : !q_t
  %dk = memref.alloc() : !q_t
  %dv = memref.alloc() : !q_t
  // Per q head: s log2e, then P; dS. k and v as (kv_seq, head_dim) f32.
  %p = memref.alloc() : memref<2x256x256xf32>
  %ds = memref.alloc() : memref<2x256x256xf32>
  %kf = memref.alloc() : memref<256x64xf32>
  %vf = memref.alloc() : memref<256x64xf32>
  // q[0, s, h, d] = rand(s + 256 h, d, 1) / 72 (|q| <= 2/3),
  // do[0, s, h, d] = rand(s + 256 h, d, 2) / 40 (|do| <= 1.2),
  // k[0, s, 0, d] = rand(s, d, 3) / 72, v[0, s, 0, d] = rand(s, d, 4) / 40:
  // scores of a few units, so that most of dq, dk and dv are well above
  // the 1e-3 absolute tolerance (about 95% above 2e-2).
  scf.for %s = %c0 to %c256 step %c1 {
    scf.for %d = %c0 to %c64 step %c1 {
      scf.for %h = %c0 to %c2 step %c1 {
        %h256 = arith.muli %h, %c256 : index
        %sh = arith.addi %s, %h256 : index
        %x = func.call @rand(%sh, %d, %c1, %div_q) : (index, index, index, f32) -> f16
        memref.store %x, %q[%c0, %s, %h, %d] : !q_t
        %y = func.call @rand(%sh, %d, %c2, %div_do) : (index, index, index, f32) -> f16
        memref.store %y, %do[%c0, %s, %h, %d] : !q_t
      }
      %x = func.call @rand(%s, %d, %c3, %div_k) : (index, index, index, f32) -> f16
      memref.store %x, %k[%c0, %s, %c0, %d] : !kv_t
      %xf = arith.extf %x : f16 to f32
      memref.store %xf, %kf[%s, %d] : memref<256x64xf32>
      %y = func.call @rand(%s, %d, %c4, %div_v) : (index, index, index, f32) -> f16
      memref.store %y, %v[%c0, %s, %c0, %d] : !kv_t
      %yf = arith.extf %y : f16 to f32
      memref.store %yf, %vf[%s, %d] : memref<256x64xf32>
    }
  }
  // The forward's residuals (lse, out) and the reference's P and dS, per
  // q head h and row i, in f32.
  scf.for %h = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c256 step %c1 {
      %qi = func.call @row(%q, %i, %h) : (!q_t, index, index) -> vector<64xf32>
      %doi = func.call @row(%do, %i, %h) : (!q_t, index, index) -> vector<64xf32>
      // s_j log2e = (q_i . k_j) log2e; m = max_j of it.
      %m = scf.for %j = %c0 to %c256 step %c1 iter_args(%mx = %ninf) -> f32 {
        %kj = vector.transfer_read %kf[%j, %c0], %f0 {in_bounds = [true]} : memref<256x64xf32>, vector<64xf32>
        %pr = arith.mulf %qi, %kj : vector<64xf32>
        %dot = vector.reduction <add>, %pr : vector<64xf32> into f32
        %s2 = arith.mulf %dot, %log2e : f32
        memref.store %s2, %p[%h, %i, %j] : memref<2x256x256xf32>
        %mx2 = arith.maximumf %mx, %s2 : f32
        scf.yield %mx2 : f32
      }
      // lse = m + log2(sum_j exp2(s_j log2e - m)): the forward's
      // m_i + log2(l_i), in base 2.
      %l = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %f0) -> f32 {
        %sj = memref.load %p[%h, %i, %j] : memref<2x256x256xf32>
        %e = arith.subf %sj, %m : f32
        %pe = math.exp2 %e : f32
        %a2 = arith.addf %acc, %pe : f32
        scf.yield %a2 : f32
      }
      %log2l = math.log2 %l : f32
      %lse_i = arith.addf %m, %log2l : f32
      memref.store %lse_i, %lse[%c0, %h, %i] : !r_t
      // P_ij = exp2(s_ij log2e - lse_i); out_i = sum_j P_ij v_j.
      %out = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %zrow) -> vector<64xf32> {
        %sj = memref.load %p[%h, %i, %j] : memref<2x256x256xf32>
        %e = arith.subf %sj, %lse_i : f32
        %pe = math.exp2 %e : f32
        memref.store %pe, %p[%h, %i, %j] : memref<2x256x256xf32>
        %vj = vector.transfer_read %vf[%j, %c0], %f0 {in_bounds = [true]} : memref<256x64xf32>, vector<64xf32>
        %pb = vector.broadcast %pe : f32 to vector<64xf32>
        %a2 = vector.fma %pb, %vj, %acc : vector<64xf32>
        scf.yield %a2 : vector<64xf32>
      }
      // delta_i = sum_d out_id do_id (the einsum 'bqhd,bqhd->bhq').
      %od = arith.mulf %out, %doi : vector<64xf32>
      %delta_i = vector.reduction <add>, %od : vector<64xf32> into f32
      memref.store %delta_i, %delta[%c0, %h, %i] : !r_t
      // dS_ij = P_ij (dP_ij - delta_i), dP_ij = do_i . v_j.
      scf.for %j = %c0 to %c256 step %c1 {
        %vj = vector.transfer_read %vf[%j, %c0], %f0 {in_bounds = [true]} : memref<256x64xf32>, vector<64xf32>
        %pr = arith.mulf %doi, %vj : vector<64xf32>
        %dp = vector.reduction <add>, %pr : vector<64xf32> into f32
        %pe = memref.load %p[%h, %i, %j] : memref<2x256x256xf32>
        %dd = arith.subf %dp, %delta_i : f32
        %dsv = arith.mulf %pe, %dd : f32
        memref.store %dsv, %ds[%h, %i, %j] : memref<2x256x256xf32>
      }
    }
  }
  func.call @attention_bwd_dq(%q, %k, %v, %do, %lse, %delta, %dq)
      : (!q_t, !kv_t, !kv_t, !q_t, !r_t, !r_t, !q_t) -> ()
  func.call @attention_bwd_dkv(%q, %k, %v, %do, %lse, %delta, %dk, %dv)
      : (!q_t, !kv_t, !kv_t, !q_t, !r_t, !r_t, !q_t, !q_t) -> ()
  // Per q head h and row a: dq_a = sum_j dS_aj k_j; dk_a = sum_i dS_ia q_i,
  // dv_a = sum_i P_ia do_i (dk and dv of q head h, before JAX's sum over the
  // q heads of a kv head).
  %bad:3 = scf.for %h = %c0 to %c2 step %c1 iter_args(%nq0 = %c0, %nk0 = %c0, %nv0 = %c0) -> (index, index, index) {
    %r:3 = scf.for %a = %c0 to %c256 step %c1 iter_args(%nq = %nq0, %nk = %nk0, %nv = %nv0) -> (index, index, index) {
      %sums:3 = scf.for %b = %c0 to %c256 step %c1 iter_args(%sq = %zrow, %sk = %zrow, %sv = %zrow) -> (vector<64xf32>, vector<64xf32>, vector<64xf32>) {
        %ds_ab = memref.load %ds[%h, %a, %b] : memref<2x256x256xf32>
        %ds_ab_b = vector.broadcast %ds_ab : f32 to vector<64xf32>
        %kb = vector.transfer_read %kf[%b, %c0], %f0 {in_bounds = [true]} : memref<256x64xf32>, vector<64xf32>
        %sq2 = vector.fma %ds_ab_b, %kb, %sq : vector<64xf32>
        %ds_ba = memref.load %ds[%h, %b, %a] : memref<2x256x256xf32>
        %ds_ba_b = vector.broadcast %ds_ba : f32 to vector<64xf32>
        %qb = func.call @row(%q, %b, %h) : (!q_t, index, index) -> vector<64xf32>
        %sk2 = vector.fma %ds_ba_b, %qb, %sk : vector<64xf32>
        %p_ba = memref.load %p[%h, %b, %a] : memref<2x256x256xf32>
        %p_ba_b = vector.broadcast %p_ba : f32 to vector<64xf32>
        %dob = func.call @row(%do, %b, %h) : (!q_t, index, index) -> vector<64xf32>
        %sv2 = vector.fma %p_ba_b, %dob, %sv : vector<64xf32>
        scf.yield %sq2, %sk2, %sv2 : vector<64xf32>, vector<64xf32>, vector<64xf32>
      }
      %nq2 = func.call @count(%nq, %dq, %a, %h, %sums#0) : (index, !q_t, index, index, vector<64xf32>) -> index
      %nk2 = func.call @count(%nk, %dk, %a, %h, %sums#1) : (index, !q_t, index, index, vector<64xf32>) -> index
      %nv2 = func.call @count(%nv, %dv, %a, %h, %sums#2) : (index, !q_t, index, index, vector<64xf32>) -> index
      scf.yield %nq2, %nk2, %nv2 : index, index, index
    }
    scf.yield %r#0, %r#1, %r#2 : index, index, index
  }
  vector.print str "dq mismatches: "
  vector.print %bad#0 : index
  vector.print str "dk mismatches: "
  vector.print %bad#1 : index
  vector.print str "dv mismatches: "
  vector.print %bad#2 : index
  return
}
