// jax/experimental/pallas/ops/gpu/attention_mgpu.py, attention_with_pipeline_emitter (fa3_kernel, lines 648-803), written line for line
// (jax-ml/jax cec06d1) with save_residuals=True: out and lse (lse_smem2 and
// lse_ref not None). A plgpu.kernel (an mpmd_map with one mesh) over grid
// (heads, q_seq, batch) with 3 Pallas threads "wg", scratch_types
// ((qo_scratch, lse_scratch), Barrier(num_barriers=compute_wgs),
// Barrier(num_arrivals=compute_wgs)), approx_math. The kv loop is
// plgpu.emit_pipeline_warp_specialized (mgpu.emit_pipeline with
// #mgpu.warp_specialization): memory warpgroup 2 (40 registers) fills 2
// slots of k and v blocks, whose block specs name no transforms (mgpu
// infers those of the blocks wgmma reads, as JAX's Warpgroup semantics
// do); manual_consumed_barriers=True, so kv_pipeline gets one consumed
// barrier per input and arrives on k's after QK's MMA (acc_ref[...]) and
// on v's after PV's; compute_context=_compute_thread (an argument-less
// compute_context calling mgpu.eval_pipeline, JAX's
// pipeline_callback((acc, m_i, l_i))) loads the warpgroup's block_q rows of
// q with its own TMA, runs the steps on compute warpgroups 0 and 1 (232
// registers), and writes acc / l_i and lse = m_i + log2(l_i) (m_i scaled by
// log2e, so lse is in base 2) through qo_smem and lse_smem. qo_smem is
// JAX's plain SMEM((compute_wgs, block_q, head_dim), f16) with no
// transforms: wgmma's a operand (QK) and the lanes' store of o. As JAX's
// Warpgroup semantics do, mgpu infers the MMA layout for it (tiles of
// (8, 64), 128-byte swizzle; --mgpu-propagate-transforms): QK reads q in
// place, the copy in and the lanes' store go through that layout, and QK
// stays in flight across the schedule barrier. (Before that inference, q
// was copied into the tensor cores' layout at every step, 8 KiB each way
// per warpgroup, and QK completed before the schedule barrier.)
// Sizes: batch 1, 2 q heads sharing 1 kv head (q_heads_per_kv_head = 2),
// q_seq 128 = 2 * block_q (block_q = 64, num_q_tiles = 1), kv_seq 256
// (block_kv = 64, 4 kv steps), head_dim 64, max_concurrent_steps 2,
// use_schedule_barrier True. Inputs are small f16 values; the reference is
// out = softmax(q k^T) v in f32 (no 1/sqrt(d) scale, as JAX) and
// lse = max_j(s_j) log2e + log2(sum_j exp(s_j - max)), within 1e-2
// relative + 1e-3 absolute (p and o are f16).
// Changed:
// 1. plgpu.kernel's scratch_types are allocated by a
//    pl.run_scoped(collective_axes="wg") around the body (as JAX's
//    plgpu.kernel does): mgpu.run_scoped collective_axes ["wg"], its
//    arguments the flattened scratch tuple.
// 2. The Python ints of the sizes are SSA constants; lax.div on the traced
//    q_head is arith.divsi.
// 3. pl.run_scoped(compute_qk, plgpu.ACC) is mgpu.run_scoped whose region
//    gets the zeroed accumulator; `return acc_ref[...]` is a wgmma_wait 0
//    and the yield. pl.run_state(compute_pv)(plgpu.ACC.init(acc)) is the
//    wgmma on acc and a wgmma_wait 0 (run_state reads the accumulator
//    back); plgpu.transpose_ref(k_smem, (1, 0)) is a memref.transpose
//    before the run_scoped. lax.broadcast_in_dim(x, shape, [0]) is a
//    shape_cast to 64 x 1 and a broadcast.
// 4. The consumed barriers JAX passes as one barrier (barrier.at[slot]) are
//    !mgpu.barrier<count = 1, arrivals = 2>, arrived on at index 0.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
// Planted: k's consumed barrier arrived on before QK's wgmma_wait lets the
// memory thread refill the slot QK still reads.
// RUN: awk '/plgpu.barrier_arrive\(k_consumed_barrier\)/ { skip = 1; next } skip { skip = 0; next } /^ *mgpu.wgmma_wait 0$/ && !done { print "mgpu.barrier_arrive %k_consumed_barrier[%c0] : !cons"; done = 1 } { print }' %s > %t.early.mlir
// RUN: not mgpu-run --backend=emulate --emulate-seed 1 %t.early.mlir 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: copy_gmem_to_smem overwrites shared memory that a wgmma of warpgroup {{[01]}} (at {{.*}}) may still read
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// q, k and v come in through 4-D tensor maps of the (batch, seq, heads,
// head_dim) arrays (k and v through the views .at[batch, :, kv_head, :]),
// o goes out through a 4-D one and lse through a 3-D one.
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// PTX-DAG: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group
// Both wgmmas on the tensor cores, 4 K steps each (PV's a, p16, from
// registers), once in the pipeline's step loop.
// MMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// MMA-NOT: wgmma.mma_async
// CHECK: out mismatches: 0
// CHECK-NEXT: lse mismatches: 0

// grid=(num_q_heads, num_q_tiles, batch_size), grid_names=("heads", "q_seq",
// "batch"), num_threads=3, thread_name="wg".
#mesh = #mgpu.mesh<grid = [2, 1, 1], grid_names = ["heads", "q_seq", "batch"],
                   num_threads = 3, thread_name = "wg">
// compiler_params=plgpu.CompilerParams(approx_math=True,
// lowering_semantics=plgpu.LoweringSemantics.Warpgroup)
#params = #mgpu.compiler_params<approx_math = true, lowering_semantics = warpgroup>
// max_concurrent_steps=min(config.max_concurrent_steps, kv_seq_len // block_kv)
#steps = #mgpu.compiler_params<max_concurrent_steps = 2>
// memory_registers=40, manual_consumed_barriers=True (num_compute_wgs=2,
// wg_axis="wg": the mesh's thread axis).
#ws = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
// plgpu.BlockSpec(block_shape=(block_kv, head_dim), index_map=lambda i: (i, 0))
#kv_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#smem = #gpu.address_space<workgroup>
// q, out: (batch_size, q_seq_len, num_q_heads, head_dim); k, v:
// (batch_size, kv_seq_len, num_kv_heads, head_dim); lse: (batch_size,
// num_q_heads, q_seq_len) f32.
!q_t = memref<1x128x2x64xf16>
!kv_t = memref<1x256x1x64xf16>
!lse_t = memref<1x2x128xf32>
// q_ref.at[batch, pl.ds(q_seq_base, block_q), q_head] and
// lse_ref.at[batch, q_head, pl.ds(q_seq_base, block_q)]: rank-reducing views.
!q_win = memref<64x64xf16, strided<[128, 1], offset: ?>>
!lse_win = memref<64xf32, strided<[1], offset: ?>>
// k_ref.at[batch, :, kv_head, :]
!kv_all = memref<256x64xf16, strided<[64, 1], offset: ?>>
// qo_scratch = SMEM((compute_wgs, block_q, head_dim), f16),
// SMEM((compute_wgs, block_q), f32), and .at[wg_idx] of them.
!qo2 = memref<2x64x64xf16, #smem>
!lse2 = memref<2x64xf32, #smem>
!tile = memref<64x64xf16, strided<[64, 1], offset: ?>, #smem>
!lse_tile = memref<64xf32, strided<[1], offset: ?>, #smem>
// The pipeline's blocks, and plgpu.transpose_ref(k_smem, (1, 0)).
!blk = memref<64x64xf16, #smem>
!blk_t = memref<64x64xf16, strided<[1, 64]>, #smem>
// Barrier(num_barriers=compute_wgs), Barrier(num_arrivals=compute_wgs), and
// a consumed barrier of the pipeline (Barrier(num_arrivals=
// num_compute_wgs).at[slot]).
!q_bars = !mgpu.barrier<count = 2>
!sched = !mgpu.barrier<count = 1, arrivals = 2>
!cons = !mgpu.barrier<count = 1, arrivals = 2>

func.func @attention(%q_in: !q_t, %k_in: !kv_t, %v_in: !kv_t, %out_in: !q_t, %lse_in: !lse_t) {
  mgpu.mpmd_map meshes [#mesh] ins(%q_in, %k_in, %v_in : !q_t, !kv_t, !kv_t)
      outs(%out_in, %lse_in : !q_t, !lse_t) params #params {
  // def fa3_kernel(q_ref, k_ref, v_ref, out_ref, lse_ref, smem_buffers,
  //                q_barriers, schedule_barrier)
  ^bb0(%q_ref: !q_t, %k_ref: !kv_t, %v_ref: !kv_t, %out_ref: !q_t, %lse_ref: !lse_t):
    mgpu.run_scoped collective_axes ["wg"] {
    ^bb0(%qo_smem2: !qo2, %lse_smem2: !lse2, %q_barriers: !q_bars,
         %schedule_barrier: !sched):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // block_q, 2 * block_q, q_heads_per_kv_head.
      %block_q = arith.constant 64 : index
      %two_block_q = arith.constant 128 : index
      %q_heads_per_kv_head = arith.constant 2 : index
      // batch = lax.axis_index("batch"); wg_idx = lax.axis_index("wg")
      %batch = mgpu.axis_index "batch"
      %wg_idx = mgpu.axis_index "wg"
      // q_seq_base = lax.axis_index("q_seq") * (2 * block_q) + wg_idx * block_q
      %q_seq = mgpu.axis_index "q_seq"
      %q_tile_base = arith.muli %q_seq, %two_block_q : index
      %wg_rows = arith.muli %wg_idx, %block_q : index
      %q_seq_base = arith.addi %q_tile_base, %wg_rows : index
      // q_head = lax.axis_index("heads")
      %q_head = mgpu.axis_index "heads"
      // kv_head = lax.div(q_head, q_heads_per_kv_head)
      %kv_head = arith.divsi %q_head, %q_heads_per_kv_head : index

      // k_ref = k_ref.at[batch, :, kv_head, :]
      // v_ref = v_ref.at[batch, :, kv_head, :]
      %k_view = memref.subview %k_ref[%batch, 0, %kv_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !kv_t to !kv_all
      %v_view = memref.subview %v_ref[%batch, 0, %kv_head, 0] [1, 256, 1, 64] [1, 1, 1, 1]
          : !kv_t to !kv_all
      // pipeline(k_ref, v_ref): grid=(kv_seq_len // block_kv,)
      mgpu.emit_pipeline grid [4] ins(%k_view, %v_view : !kv_all, !kv_all)
          in_specs [#kv_spec, #kv_spec] out_specs [] params #steps
          warp_specialization #ws {
      // def kv_pipeline(_, k_smem, v_smem, k_consumed_barrier,
      //                 v_consumed_barrier, carry)
      ^bb0(%i: index, %k_smem: !blk, %v_smem: !blk,
           %k_consumed_barrier: !cons, %v_consumed_barrier: !cons,
           %acc: vector<64x64xf32>, %m_i: vector<64xf32>, %l_i: vector<64xf32>):
        // qo_smem = qo_smem2.at[wg_idx]
        %qo_smem = memref.subview %qo_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !qo2 to !tile
        // qk = pl.run_scoped(compute_qk, plgpu.ACC((block_q, block_kv), f32))
        %k_t = memref.transpose %k_smem (r, c) -> (c, r) : !blk to !blk_t
        %qk = mgpu.run_scoped -> vector<64x64xf32> {
        ^bb0(%acc_ref: vector<64x64xf32>):
          // plgpu.wgmma(acc_ref, qo_smem, plgpu.transpose_ref(k_smem, (1, 0)))
          %s = mgpu.wgmma %acc_ref, %qo_smem, %k_t : vector<64x64xf32>, !tile, !blk_t
          // perform_schedule_barrier()
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched
          // return acc_ref[...]
          mgpu.wgmma_wait 0
          mgpu.yield %s : vector<64x64xf32>
        }
        // plgpu.barrier_arrive(k_consumed_barrier)
        mgpu.barrier_arrive %k_consumed_barrier[%c0] : !cons

        // Softmax. We keep m scaled by log2e to use FMA instructions when
        // computing p. log2e = math.log2(math.e)
        %log2e = arith.constant dense<1.44269504088896340736> : vector<64xf32>
        %log2e2 = arith.constant dense<1.44269504088896340736> : vector<64x64xf32>
        %ninf_row = arith.constant dense<0xFF800000> : vector<64xf32>
        // m_ij = jnp.maximum(m_i, qk.max(axis=1) * log2e)
        %qk_max = vector.multi_reduction <maximumf>, %qk, %ninf_row [1] : vector<64x64xf32> to vector<64xf32>
        %qk_max2 = arith.mulf %qk_max, %log2e : vector<64xf32>
        %m_ij = arith.maximumf %m_i, %qk_max2 : vector<64xf32>
        // alpha = jnp.exp2(m_i - m_ij)
        %m_diff = arith.subf %m_i, %m_ij : vector<64xf32>
        %alpha = math.exp2 %m_diff : vector<64xf32>
        // m_i = m_ij
        // p = jnp.exp2(qk * log2e - lax.broadcast_in_dim(m_ij, qk.shape, [0]))
        %qk2 = arith.mulf %qk, %log2e2 : vector<64x64xf32>
        %m_col = vector.shape_cast %m_ij : vector<64xf32> to vector<64x1xf32>
        %m_b = vector.broadcast %m_col : vector<64x1xf32> to vector<64x64xf32>
        %qk_sub = arith.subf %qk2, %m_b : vector<64x64xf32>
        %p = math.exp2 %qk_sub : vector<64x64xf32>
        // acc *= lax.broadcast_in_dim(alpha, acc.shape, [0])
        %a_col = vector.shape_cast %alpha : vector<64xf32> to vector<64x1xf32>
        %a_b = vector.broadcast %a_col : vector<64x1xf32> to vector<64x64xf32>
        %acc_s = arith.mulf %acc, %a_b : vector<64x64xf32>
        // l_i *= alpha
        %l_s = arith.mulf %l_i, %alpha : vector<64xf32>
        // p16 = p.astype(dtype)
        %p16 = arith.truncf %p : vector<64x64xf32> to vector<64x64xf16>
        // perform_schedule_barrier()
        mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
        mgpu.barrier_wait %schedule_barrier[%c0] : !sched
        // l_i += p.sum(axis=1)
        %zero_row = arith.constant dense<0.0> : vector<64xf32>
        %p_sum = vector.multi_reduction <add>, %p, %zero_row [1] : vector<64x64xf32> to vector<64xf32>
        %l_new = arith.addf %l_s, %p_sum : vector<64xf32>
        // PV: acc = pl.run_state(compute_pv)(plgpu.ACC.init(acc)):
        // plgpu.wgmma(acc_ref, p16, v_smem)
        %acc_pv = mgpu.wgmma %acc_s, %p16, %v_smem : vector<64x64xf32>, vector<64x64xf16>, !blk
        mgpu.wgmma_wait 0
        // plgpu.barrier_arrive(v_consumed_barrier)
        mgpu.barrier_arrive %v_consumed_barrier[%c0] : !cons
        // return acc, m_i, l_i
        mgpu.yield %acc_pv, %m_ij, %l_new : vector<64x64xf32>, vector<64xf32>, vector<64xf32>
      } compute_context {
        // def _compute_thread(pipeline_callback)
        // qo_smem = qo_smem2.at[wg_idx]; lse_smem = lse_smem2.at[wg_idx]
        %qo_smem = memref.subview %qo_smem2[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !qo2 to !tile
        %lse_smem = memref.subview %lse_smem2[%wg_idx, 0] [1, 64] [1, 1] : !lse2 to !lse_tile
        // m_i = jnp.full((block_q,), -jnp.inf, dtype=jnp.float32)
        %m_i = arith.constant dense<0xFF800000> : vector<64xf32>
        // l_i = jnp.full((block_q,), 0, dtype=jnp.float32)
        %l_i = arith.constant dense<0.0> : vector<64xf32>
        // acc = jnp.full((block_q, head_dim), 0, dtype=jnp.float32)
        %acc = arith.constant dense<0.0> : vector<64x64xf32>
        // Q is not pipelined, so we load in with a manual DMA.
        // plgpu.copy_gmem_to_smem(q_ref.at[batch, pl.ds(q_seq_base, block_q), q_head],
        //                         qo_smem, q_barriers.at[wg_idx])
        %q_src = memref.subview %q_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_gmem_to_smem %q_src, %qo_smem, %q_barriers[%wg_idx] : !q_win, !tile, !q_bars
        // plgpu.barrier_wait(q_barriers.at[wg_idx])
        mgpu.barrier_wait %q_barriers[%wg_idx] : !q_bars
        // pl.when(wg_idx == 1)(perform_schedule_barrier)
        %is_wg1 = arith.cmpi eq, %wg_idx, %c1 : index
        scf.if %is_wg1 {
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched
        }
        // final_carry = pipeline_callback((acc, m_i, l_i))
        %acc_f, %m_f, %l_f = mgpu.eval_pipeline(%acc, %m_i, %l_i
            : vector<64x64xf32>, vector<64xf32>, vector<64xf32>)
        // pl.when(wg_idx == 0)(perform_schedule_barrier)
        %is_wg0 = arith.cmpi eq, %wg_idx, %c0 : index
        scf.if %is_wg0 {
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched
        }
        // acc /= lax.broadcast_in_dim(l_i, (block_q, head_dim), [0])
        %l_col = vector.shape_cast %l_f : vector<64xf32> to vector<64x1xf32>
        %l_b = vector.broadcast %l_col : vector<64x1xf32> to vector<64x64xf32>
        %o = arith.divf %acc_f, %l_b : vector<64x64xf32>
        // qo_smem[...] = acc.astype(dtype)
        %o16 = arith.truncf %o : vector<64x64xf32> to vector<64x64xf16>
        vector.transfer_write %o16, %qo_smem[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf16>, !tile
        // RCP_LN2 = 1.4426950408889634; log2 = lambda x: jnp.log(x) * RCP_LN2
        // lse_smem[...] = m_i + log2(l_i)
        %rcp_ln2 = arith.constant dense<1.4426950408889634> : vector<64xf32>
        %ln_l = math.log %l_f : vector<64xf32>
        %log2_l = arith.mulf %ln_l, %rcp_ln2 : vector<64xf32>
        %lse = arith.addf %m_f, %log2_l : vector<64xf32>
        vector.transfer_write %lse, %lse_smem[%c0] {in_bounds = [true]}
            : vector<64xf32>, !lse_tile
        // plgpu.commit_smem()
        mgpu.commit_smem
        // plgpu.copy_smem_to_gmem(qo_smem, out_ref.at[batch, pl.ds(q_seq_base, block_q), q_head])
        %out_dst = memref.subview %out_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_smem_to_gmem %qo_smem, %out_dst : !tile, !q_win
        // plgpu.copy_smem_to_gmem(lse_smem, lse_ref.at[batch, q_head, pl.ds(q_seq_base, block_q)])
        %lse_dst = memref.subview %lse_ref[%batch, %q_head, %q_seq_base] [1, 1, 64] [1, 1, 1]
            : !lse_t to !lse_win
        mgpu.copy_smem_to_gmem %lse_smem, %lse_dst : !lse_tile, !lse_win
        // plgpu.wait_smem_to_gmem(0)
        mgpu.wait_smem_to_gmem 0
      }
    }
  }
  return
}

// ((x * mul + y * mul2) mod m - off) / div: small f16 values.
func.func @small(%x: index, %y: index, %mul: index, %mul2: index, %m: index,
                 %off: index, %div: f32) -> f16 {
  %t = arith.muli %x, %mul : index
  %t2 = arith.muli %y, %mul2 : index
  %s = arith.addi %t, %t2 : index
  %r = arith.remui %s, %m : index
  %d = arith.subi %r, %off : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  %g = arith.divf %f, %div : f32
  %h = arith.truncf %g : f32 to f16
  return %h : f16
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c17 = arith.constant 17 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %f4 = arith.constant 4.0 : f32
  %f8 = arith.constant 8.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %rtol = arith.constant 1.0e-2 : f32
  %atol = arith.constant 1.0e-3 : f32
  %q = memref.alloc() : !q_t
  %k = memref.alloc() : !kv_t
  %v = memref.alloc() : !kv_t
  %o = memref.alloc() : !q_t
  %lse = memref.alloc() : !lse_t
  // q[0, s, h, d] = ((7 (s + 3 h) + 5 d) mod 17 - 8) / 8.
  scf.for %s = %c0 to %c128 step %c1 {
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %d = %c0 to %c64 step %c1 {
        %h3 = arith.muli %h, %c3 : index
        %sh = arith.addi %s, %h3 : index
        %x = func.call @small(%sh, %d, %c7, %c5, %c17, %c8, %f8) : (index, index, index, index, index, index, f32) -> f16
        memref.store %x, %q[%c0, %s, %h, %d] : !q_t
      }
    }
  }
  // k[0, s, 0, d] = ((s * 3 + d * 5) mod 17 - 8) / 4 (rows of q and k in phase give
  // the large scores: a peaked softmax),
  // v[0, s, 0, d] = ((s * 5 + d * 7) mod 9 - 2) / 4.
  scf.for %s = %c0 to %c256 step %c1 {
    scf.for %d = %c0 to %c64 step %c1 {
      %x = func.call @small(%s, %d, %c3, %c5, %c17, %c8, %f4) : (index, index, index, index, index, index, f32) -> f16
      memref.store %x, %k[%c0, %s, %c0, %d] : !kv_t
      %y = func.call @small(%s, %d, %c5, %c7, %c9, %c2, %f4) : (index, index, index, index, index, index, f32) -> f16
      memref.store %y, %v[%c0, %s, %c0, %d] : !kv_t
    }
  }
  func.call @attention(%q, %k, %v, %o, %lse) : (!q_t, !kv_t, !kv_t, !q_t, !lse_t) -> ()
  %s_row = memref.alloc() : memref<256xf32>
  %bad:2 = scf.for %h = %c0 to %c2 step %c1 iter_args(%n0 = %c0, %e0 = %c0) -> (index, index) {
    %bh:2 = scf.for %i = %c0 to %c128 step %c1 iter_args(%n1 = %n0, %e1 = %e0) -> (index, index) {
      // s_j = q_i . k_j, m = max_j s_j.
      %m = scf.for %j = %c0 to %c256 step %c1 iter_args(%mx = %ninf) -> f32 {
        %dot = scf.for %d = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
          %x = memref.load %q[%c0, %i, %h, %d] : !q_t
          %y = memref.load %k[%c0, %j, %c0, %d] : !kv_t
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %pr = arith.mulf %xf, %yf : f32
          %a2 = arith.addf %acc, %pr : f32
          scf.yield %a2 : f32
        }
        memref.store %dot, %s_row[%j] : memref<256xf32>
        %mx2 = arith.maximumf %mx, %dot : f32
        scf.yield %mx2 : f32
      }
      // l = sum_j exp(s_j - m).
      %l = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %f0) -> f32 {
        %sj = memref.load %s_row[%j] : memref<256xf32>
        %e = arith.subf %sj, %m : f32
        %p = math.exp %e : f32
        memref.store %p, %s_row[%j] : memref<256xf32>
        %a2 = arith.addf %acc, %p : f32
        scf.yield %a2 : f32
      }
      // lse = m log2e + log2(l): the kernel's m_i + log2(l_i), m_i in
      // units of log2.
      %m2 = arith.mulf %m, %log2e : f32
      %l2 = math.log2 %l : f32
      %want_lse = arith.addf %m2, %l2 : f32
      %got_lse = memref.load %lse[%c0, %h, %i] : !lse_t
      %dl = arith.subf %got_lse, %want_lse : f32
      %adl = math.absf %dl : f32
      %awl = math.absf %want_lse : f32
      %tl0 = arith.mulf %awl, %rtol : f32
      %tl = arith.addf %tl0, %atol : f32
      // Not within tolerance (NaN counts as a mismatch).
      %okl = arith.cmpf ole, %adl, %tl : f32
      %incl = arith.select %okl, %c0, %c1 : index
      %e2 = arith.addi %e1, %incl : index
      %row = scf.for %d = %c0 to %c64 step %c1 iter_args(%n2 = %n1) -> index {
        %sum = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %f0) -> f32 {
          %p = memref.load %s_row[%j] : memref<256xf32>
          %y = memref.load %v[%c0, %j, %c0, %d] : !kv_t
          %yf = arith.extf %y : f16 to f32
          %pr = arith.mulf %p, %yf : f32
          %a2 = arith.addf %acc, %pr : f32
          scf.yield %a2 : f32
        }
        %want = arith.divf %sum, %l : f32
        %got16 = memref.load %o[%c0, %i, %h, %d] : !q_t
        %got = arith.extf %got16 : f16 to f32
        %diff = arith.subf %got, %want : f32
        %ad = math.absf %diff : f32
        %aw = math.absf %want : f32
        %tol0 = arith.mulf %aw, %rtol : f32
        %tol = arith.addf %tol0, %atol : f32
        // Not within tolerance (NaN counts as a mismatch).
        %ok = arith.cmpf ole, %ad, %tol : f32
        %inc = arith.select %ok, %c0, %c1 : index
        %n3 = arith.addi %n2, %inc : index
        scf.yield %n3 : index
      }
      scf.yield %row, %e2 : index, index
    }
    scf.yield %bh#0, %bh#1 : index, index
  }
  vector.print str "out mismatches: "
  vector.print %bad#0 : index
  vector.print str "lse mismatches: "
  vector.print %bad#1 : index
  return
}
