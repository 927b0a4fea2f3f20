// jax/experimental/pallas/ops/gpu/attention_mgpu.py, _attention_forward
// (lines 72-335), written line for line: causal = False,
// save_residuals = False (lse_ref and lse_smem are None). A plgpu.kernel
// (an mpmd_map with one mesh) over grid (heads, q_seq, batch) with 3 Pallas
// threads "wg": compute warpgroups 0 and 1 (232 registers) each take block_q
// rows of q, the memory warpgroup 2 (40 registers) fills rings of
// max_concurrent_steps k and v slots with TMA and refills a slot once both
// compute warpgroups have arrived on its consumed barrier. Each kv step:
// qk = q k^T (wgmma, b the transposed slot of k, read in place), an online
// softmax in base 2 with m and l in Layout.WGMMA.reduce(1), then
// acc = acc * alpha + p16 v (wgmma with p16 in registers); a schedule
// barrier of 2 arrivals interleaves the two compute warpgroups' tensor-core
// and softmax phases. Epilogue: acc / l through shared memory, one TMA store
// per warpgroup. All scratch and barriers come from one
// run_scoped(collective_axes="wg"), as JAX's entry() allocates them.
// Sizes: batch 1, 2 q heads sharing 1 kv head (q_heads_per_kv_head = 2),
// q_seq 128 = 2 * block_q (block_q = 64), kv_seq 256 (block_kv = 64, 4 kv
// steps), head_dim 64, max_concurrent_steps 2. Inputs are small f16 values;
// the reference is softmax(q k^T) v in f32 (JAX's forward has no 1/sqrt(d)
// scale), within 1e-2 relative (+ 1e-3 absolute): p is rounded to f16.
// Changed:
// 1. (Was: qo_smem as two views of one byte buffer, since the lanes
//    could not write o into the tiled, swizzled buffer the tensor cores
//    read q from. Now `qo_smem[...] = acc.astype(dtype)` (line 243) goes
//    through qo_smem's layout (--mgpu-propagate-transforms marks it), and
//    the copy out (line 249) takes qo_smem's transforms, as in JAX.)
// 2. (Was: q, k, v and out collapsed to 2-D outside the kernel, since
//    --mgpu-to-binary refused a tiled TMA copy through the rank-reducing
//    view `.at[batch, pl.ds(..), head]`. It now folds such views into 4-D
//    tensor maps; the kernel takes the 4-D arrays as JAX does.)
// 3. lax.optimization_barrier (line 199) has no mgpu spelling: omitted (a
//    scheduling hint only).
// 4. The Python ints of `k_smem.at[i]` and `ds(i * block_kv, ..)` of the
//    unrolled prologue (lines 262-265) are SSA constants (a static subview
//    offset would give a different memref type).
// QK's MMA stays in flight across the schedule barrier (line 169) until
// acc_ref[...] (line 170), as in JAX (mgpu used to complete it before the
// arrival). With it in flight, the warpgroup barrier before the k slot's
// release must follow the wait: without it the emulator reports the
// memory thread's refill of the slot (`copy_gmem_to_smem overwrites shared
// memory that a wgmma of warpgroup 1 ... may still read`).
// Regression (found by this kernel): the GPU lowering arrived on
// v_consumed_barriers (line 215) from lane 0 right after its own warp's
// wgmma.wait_group, with no warpgroup barrier, so the memory warpgroup could
// refill the v slot while other warps' parts of the MMA still read it (each
// warp's part completes at that warp's wait). Seeded emulator schedules
// showed it as wrong numbers (1408 to 1888 mismatches, 7 of 8 seeds); the
// distribution now counts in-place tensor-core reads as reads, so a
// warpgroup barrier precedes the arrival.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 4 %s | FileCheck %s --match-full-lines
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
// head_dim) arrays, o goes out through one.
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// Both wgmmas on the tensor cores in place, 4 K steps each (PV's a, p16,
// from registers).
// MMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// MMA-NOT: wgmma.mma_async
// CHECK: mismatches: 0

// grid=(num_q_heads, num_q_tiles, batch_size), grid_names=("heads", "q_seq",
// "batch"), num_threads=3, thread_name="wg".
#mesh = #mgpu.mesh<grid = [2, 1, 1], grid_names = ["heads", "q_seq", "batch"],
                   num_threads = 3, thread_name = "wg">
// TilingTransform((8, 64)), SwizzleTransform(128).
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#smem = #gpu.address_space<workgroup>
// q, out: (batch_size, q_seq_len, num_q_heads, head_dim);
// k, v: (batch_size, kv_seq_len, num_kv_heads, head_dim).
!q_t = memref<1x128x2x64xf16>
!kv_t = memref<1x256x1x64xf16>
// q_ref.at[batch, pl.ds(q_seq_base, block_q), q_head] and k_ref.at[s]:
// rank-reducing views.
!q_win = memref<64x64xf16, strided<[128, 1], offset: ?>>
!kv_win = memref<64x64xf16, strided<[64, 1], offset: ?>>
// qo_scratch (compute_wgs, block_q, head_dim), k_scratch and v_scratch
// (max_concurrent_steps, block_kv, head_dim), all f16.
!qo2 = memref<2x64x64xf16, #smem>
!ring = memref<2x64x64xf16, #smem>
// .at[i] of one of them, and plgpu.transpose_ref(k_smem.at[slot], (1, 0)).
!tile = memref<64x64xf16, strided<[64, 1], offset: ?>, #smem>
!tile_t = memref<64x64xf16, strided<[1, 64], offset: ?>, #smem>
// Barrier(num_barriers=max_concurrent_steps) x 2, Barrier(num_barriers=
// compute_wgs), Barrier(num_arrivals=compute_wgs, num_barriers=
// max_concurrent_steps) x 2, Barrier(num_arrivals=compute_wgs).
!kv_bars = !mgpu.barrier<count = 2>
!q_bars = !mgpu.barrier<count = 2>
!consumed = !mgpu.barrier<count = 2, arrivals = 2>
!sched = !mgpu.barrier<count = 1, arrivals = 2>

func.func @attention(%q: !q_t, %k: !kv_t, %v: !kv_t, %out: !q_t) {
  mgpu.mpmd_map meshes [#mesh] ins(%q, %k, %v : !q_t, !kv_t, !kv_t) outs(%out : !q_t) {
  ^bb0(%q_ref: !q_t, %k_ref: !kv_t, %v_ref: !kv_t, %out_ref: !q_t):
    // entry(): pl.run_scoped(kernel, scratch, barriers, collective_axes="wg").
    mgpu.run_scoped collective_axes ["wg"] {
    ^bb0(%qo_scratch: !qo2, %k_smem: !ring, %v_smem: !ring,
         %k_barriers: !kv_bars, %v_barriers: !kv_bars, %q_barriers: !q_bars,
         %k_consumed_barriers: !consumed, %v_consumed_barriers: !consumed,
         %schedule_barrier: !sched):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      // max_concurrent_steps = 2, q_heads_per_kv_head = 2.
      %max_concurrent_steps = arith.constant 2 : index
      %q_heads_per_kv_head = arith.constant 2 : index
      %batch = mgpu.axis_index "batch"
      %q_head = mgpu.axis_index "heads"
      %wg_idx = mgpu.axis_index "wg"
      // block_max_kv_steps = kv_seq_len // block_kv
      %block_max_kv_steps = arith.constant 4 : index

      // @pl.when(wg_idx < 2)
      %is_compute = arith.cmpi slt, %wg_idx, %c2 : index
      scf.if %is_compute {
        mgpu.set_max_registers 232 increase
        %qo_smem = memref.subview %qo_scratch[%wg_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !qo2 to !tile
        // q_seq_base = lax.axis_index("q_seq") * (2 * block_q) + wg_idx * block_q
        %q_seq = mgpu.axis_index "q_seq"
        %q_tile_base = arith.muli %q_seq, %c128 : index
        %wg_rows = arith.muli %wg_idx, %c64 : index
        %q_seq_base = arith.addi %q_tile_base, %wg_rows : index
        %kv_steps = arith.addi %block_max_kv_steps, %c0 : index

        // q_ref.at[batch, pl.ds(q_seq_base, block_q), q_head]
        %q_src = memref.subview %q_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_gmem_to_smem %q_src, %qo_smem, %q_barriers[%wg_idx] transforms #sw
            : !q_win, !tile, !q_bars
        mgpu.barrier_wait %q_barriers[%wg_idx] : !q_bars

        %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
        %m_i0 = mgpu.layout_cast %ninf : vector<64xf32> to #mgpu.layout<wgmma_row>
        %zrow = arith.constant dense<0.0> : vector<64xf32>
        %l_i0 = mgpu.layout_cast %zrow : vector<64xf32> to #mgpu.layout<wgmma_row>
        %zacc = arith.constant dense<0.0> : vector<64x64xf32>
        %acc0 = mgpu.layout_cast %zacc : vector<64x64xf32> to #mgpu.layout<wgmma>

        // @pl.when(kv_steps > 0)
        %has_steps = arith.cmpi sgt, %kv_steps, %c0 : index
        scf.if %has_steps {
          mgpu.barrier_wait %k_barriers[%c0] : !kv_bars
        }

        // pl.when(wg_idx == 1)(perform_schedule_barrier)
        %is_wg1 = arith.cmpi eq, %wg_idx, %c1 : index
        scf.if %is_wg1 {
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched
        }

        // acc, m_i, l_i = lax.fori_loop(0, block_max_kv_steps, kv_loop, ...)
        %res:3 = scf.for %kv_step = %c0 to %block_max_kv_steps step %c1
            iter_args(%acc = %acc0, %m_i = %m_i0, %l_i = %l_i0)
            -> (vector<64x64xf32>, vector<64xf32>, vector<64xf32>) {
          %slot = arith.remsi %kv_step, %max_concurrent_steps : index

          // QK: pl.run_scoped(compute_qk, plgpu.ACC((block_q, block_kv), f32))
          %k_slot = memref.subview %k_smem[%slot, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
          %k_t = memref.transpose %k_slot (r, c) -> (c, r) : !tile to !tile_t
          %qk = mgpu.run_scoped -> vector<64x64xf32> {
          ^bb0(%acc_ref: vector<64x64xf32>):
            %s = mgpu.wgmma %acc_ref, %qo_smem, %k_t a_transforms #sw b_transforms #sw
                : vector<64x64xf32>, !tile, !tile_t
            // perform_schedule_barrier()
            mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
            mgpu.barrier_wait %schedule_barrier[%c0] : !sched
            // return acc_ref[...]
            mgpu.wgmma_wait 0
            mgpu.yield %s : vector<64x64xf32>
          }
          mgpu.barrier_arrive %k_consumed_barriers[%slot] : !consumed

          // Softmax. m is kept scaled by log2e.
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

          // head_dim <= 128: l_i += p.sum(axis=1)
          %zero_row = arith.constant dense<0.0> : vector<64xf32>
          %p_sum = vector.multi_reduction <add>, %p, %zero_row [1] : vector<64x64xf32> to vector<64xf32>
          %l_new = arith.addf %l_s, %p_sum : vector<64xf32>
          // lax.optimization_barrier((acc, l_i, m_i, p16))
          // end_softmax_barriers()
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %v_barriers[%slot] : !kv_bars
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched

          // wait_step = kv_step + 1; @pl.when(wait_step < kv_steps)
          %wait_step = arith.addi %kv_step, %c1 : index
          %wait_slot = arith.remsi %wait_step, %max_concurrent_steps : index
          %do_wait = arith.cmpi slt, %wait_step, %kv_steps : index
          scf.if %do_wait {
            mgpu.barrier_wait %k_barriers[%wait_slot] : !kv_bars
          }
          // PV: acc = pl.run_state(compute_pv)(plgpu.ACC.init(acc))
          %v_slot = memref.subview %v_smem[%slot, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
          %acc_pv = mgpu.wgmma %acc_s, %p16, %v_slot b_transforms #sw
              : vector<64x64xf32>, vector<64x64xf16>, !tile
          mgpu.wgmma_wait 0
          mgpu.barrier_arrive %v_consumed_barriers[%slot] : !consumed
          scf.yield %acc_pv, %m_ij, %l_new : vector<64x64xf32>, vector<64xf32>, vector<64xf32>
        }
        // pl.when(wg_idx == 0)(perform_schedule_barrier)
        %is_wg0 = arith.cmpi eq, %wg_idx, %c0 : index
        scf.if %is_wg0 {
          mgpu.barrier_arrive %schedule_barrier[%c0] : !sched
          mgpu.barrier_wait %schedule_barrier[%c0] : !sched
        }

        // acc /= lax.broadcast_in_dim(l_i, (block_q, head_dim), [0])
        %l_col = vector.shape_cast %res#2 : vector<64xf32> to vector<64x1xf32>
        %l_b = vector.broadcast %l_col : vector<64x1xf32> to vector<64x64xf32>
        %o = arith.divf %res#0, %l_b : vector<64x64xf32>
        // qo_smem[...] = acc.astype(dtype)
        %o16 = arith.truncf %o : vector<64x64xf32> to vector<64x64xf16>
        vector.transfer_write %o16, %qo_smem[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf16>, !tile
        mgpu.commit_smem
        // out_ref.at[batch, pl.ds(q_seq_base, block_q), q_head]
        %out_dst = memref.subview %out_ref[%batch, %q_seq_base, %q_head, 0] [1, 64, 1, 64] [1, 1, 1, 1]
            : !q_t to !q_win
        mgpu.copy_smem_to_gmem %qo_smem, %out_dst : !tile, !q_win
        mgpu.wait_smem_to_gmem 0
      }

      // @pl.when(wg_idx == 2)
      %is_memory = arith.cmpi eq, %wg_idx, %c2 : index
      scf.if %is_memory {
        mgpu.set_max_registers 40 decrease
        %kv_head = arith.divsi %q_head, %q_heads_per_kv_head : index
        // for i in range(max_concurrent_steps), unrolled.
        // s = (batch, pl.ds(i * block_kv, block_kv), kv_head)
        %k_s0 = memref.subview %k_ref[%batch, %c0, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
        %k_d0 = memref.subview %k_smem[%c0, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
        mgpu.copy_gmem_to_smem %k_s0, %k_d0, %k_barriers[%c0] transforms #sw : !kv_win, !tile, !kv_bars
        %v_s0 = memref.subview %v_ref[%batch, %c0, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
        %v_d0 = memref.subview %v_smem[%c0, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
        mgpu.copy_gmem_to_smem %v_s0, %v_d0, %v_barriers[%c0] transforms #sw : !kv_win, !tile, !kv_bars
        %k_s1 = memref.subview %k_ref[%batch, %c64, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
        %k_d1 = memref.subview %k_smem[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
        mgpu.copy_gmem_to_smem %k_s1, %k_d1, %k_barriers[%c1] transforms #sw : !kv_win, !tile, !kv_bars
        %v_s1 = memref.subview %v_ref[%batch, %c64, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
        %v_d1 = memref.subview %v_smem[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
        mgpu.copy_gmem_to_smem %v_s1, %v_d1, %v_barriers[%c1] transforms #sw : !kv_win, !tile, !kv_bars

        // @pl.loop(0, block_max_kv_steps - max_concurrent_steps)
        %n_refill = arith.subi %block_max_kv_steps, %max_concurrent_steps : index
        scf.for %kv_step = %c0 to %n_refill step %c1 {
          %tma_step = arith.addi %kv_step, %max_concurrent_steps : index
          %tma_slot = arith.remsi %kv_step, %max_concurrent_steps : index
          %row = arith.muli %tma_step, %c64 : index
          %k_s = memref.subview %k_ref[%batch, %row, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
          %v_s = memref.subview %v_ref[%batch, %row, %kv_head, 0] [1, 64, 1, 64] [1, 1, 1, 1] : !kv_t to !kv_win
          mgpu.barrier_wait %k_consumed_barriers[%tma_slot] : !consumed
          %k_d = memref.subview %k_smem[%tma_slot, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
          mgpu.copy_gmem_to_smem %k_s, %k_d, %k_barriers[%tma_slot] transforms #sw : !kv_win, !tile, !kv_bars
          mgpu.barrier_wait %v_consumed_barriers[%tma_slot] : !consumed
          %v_d = memref.subview %v_smem[%tma_slot, 0, 0] [1, 64, 64] [1, 1, 1] : !ring to !tile
          mgpu.copy_gmem_to_smem %v_s, %v_d, %v_barriers[%tma_slot] transforms #sw : !kv_win, !tile, !kv_bars
        }
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
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %f4 = arith.constant 4.0 : f32
  %f8 = arith.constant 8.0 : f32
  %rtol = arith.constant 1.0e-2 : f32
  %atol = arith.constant 1.0e-3 : f32
  %q = memref.alloc() : !q_t
  %k = memref.alloc() : !kv_t
  %v = memref.alloc() : !kv_t
  %o = memref.alloc() : !q_t
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
  func.call @attention(%q, %k, %v, %o) : (!q_t, !kv_t, !kv_t, !q_t) -> ()
  %s_row = memref.alloc() : memref<256xf32>
  %bad = scf.for %h = %c0 to %c2 step %c1 iter_args(%n0 = %c0) -> index {
    %bh = scf.for %i = %c0 to %c128 step %c1 iter_args(%n1 = %n0) -> index {
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
      scf.yield %row : index
    }
    scf.yield %bh : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}
