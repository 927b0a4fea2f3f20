// Flash attention forward on Blackwell (sm_100a) with tcgen05 MMAs: o =
// softmax(q k^T / 8) v for one head (q, k, v: 256x64 bf16, o: 256x64 f32).
// The grid is 2 blocks of 128 query rows by 4 blocks of 64 keys, the key
// axis sequential, so each program carries its rows' running maximum m,
// sum l and output o across the key blocks (online softmax), as
// examples/attention.mlir does with wgmma on Hopper.
//
// Per key block, in tensor memory (three `!mgpu.tmem` scratch buffers,
// 160 columns, one allocation of 256):
// - s = q k^T: one `mgpu.tcgen05_mma` (M = 128, N = 64, K = 64) from q's
//   and k's blocks, read in place in their tiled, 128-byte swizzled
//   layout (k through its transpose), into a 128x64 f32 accumulator;
//   committed to a barrier and waited for;
// - the lanes read s (lane l its row), rescale, update m and l, and write
//   p = exp(s - m) as bf16 back to tensor memory (`mgpu.async_store_tmem`
//   into a 128x64 bf16 buffer, two to a column);
// - p v: a tcgen05 MMA whose a is p in tensor memory (JAX's TMEM lhs, the
//   way Blackwell kernels feed probabilities to the second MMA without
//   going through shared memory), b v's block, into a second accumulator,
//   read by the lanes and added to the rescaled o.
//
// The CPU backend and the emulator keep tensor memory as per-CTA memory
// and compute each MMA when it is issued. Run test:
// test/Integration/TensorCores/blackwell_attention.mlir; compile it for the
// GPU with --mgpu-to-binary="chip=sm_100a".
// Chip: sm_100a
//
// Summary: flash attention forward on Blackwell: q k^T and p v as tcgen05
//   MMAs into tensor memory, p written to tensor memory as the second MMA's
//   a, online softmax in registers

#tiles = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
#q_block = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i, j) -> (i, 0)>,
                            transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#kv_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (j, 0)>,
                             transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#o_block = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>
#smem = #gpu.address_space<workgroup>
!s_t = !mgpu.tmem<128x64xf32>
!p_t = !mgpu.tmem<128x64xbf16>
!bar = !mgpu.barrier<count = 1>
!q = memref<128x64xbf16, #smem>
!kv = memref<64x64xbf16, #smem>
!kt = memref<64x64xbf16, strided<[1, 64]>, #smem>

func.func @blackwell_attention(%q: memref<256x64xbf16>, %k: memref<256x64xbf16>,
                               %v: memref<256x64xbf16>, %o: memref<256x64xf32>) {
  mgpu.pallas_call grid [2, 4]
      ins(%q, %k, %v : memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>)
      outs(%o : memref<256x64xf32>)
      in_specs [#q_block, #kv_block, #kv_block] out_specs [#o_block]
      scratch [!s_t, !p_t, !s_t, !bar, memref<128xf32, #smem>, memref<128xf32, #smem>]
      params #params {
  ^bb0(%qs: !q, %ks: !kv, %vs: !kv, %os: memref<128x64xf32, #smem>,
       %s_t: !s_t, %p_t: !p_t, %pv_t: !s_t, %bar: !bar,
       %m_s: memref<128xf32, #smem>, %l_s: memref<128xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %false = arith.constant false
    %j = mgpu.program_id 1
    %nj = mgpu.num_programs 1
    %first = arith.cmpi eq, %j, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<128x64xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<128xf32>
      %zrow = arith.constant dense<0.0> : vector<128xf32>
      vector.transfer_write %zero, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x64xf32>, memref<128x64xf32, #smem>
      vector.transfer_write %ninf, %m_s[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #smem>
      vector.transfer_write %zrow, %l_s[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #smem>
    }
    // s = q k^T, in tensor memory.
    %kt = memref.transpose %ks (r, c) -> (c, r) : !kv to !kt
    mgpu.tcgen05_mma %s_t, %qs, %kt accumulate(%false)
        a_transforms #tiles b_transforms #tiles : !s_t, !q, !kt
    mgpu.tcgen05_commit_arrive %bar[%c0] : !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    %s0 = mgpu.async_load_tmem %s_t : !s_t -> vector<128x64xf32>
    mgpu.wait_load_tmem
    %scale = arith.constant dense<0.125> : vector<128x64xf32>
    %s = arith.mulf %s0, %scale : vector<128x64xf32>
    // Online softmax.
    %m_old = vector.transfer_read %m_s[%c0], %pad {in_bounds = [true]} : memref<128xf32, #smem>, vector<128xf32>
    %l_old = vector.transfer_read %l_s[%c0], %pad {in_bounds = [true]} : memref<128xf32, #smem>, vector<128xf32>
    %row_max = vector.multi_reduction <maximumf>, %s, %m_old [1] : vector<128x64xf32> to vector<128xf32>
    %m_cols = vector.broadcast %row_max : vector<128xf32> to vector<64x128xf32>
    %m_rows = vector.transpose %m_cols, [1, 0] : vector<64x128xf32> to vector<128x64xf32>
    %shifted = arith.subf %s, %m_rows : vector<128x64xf32>
    %p = math.exp %shifted : vector<128x64xf32>
    %diff = arith.subf %m_old, %row_max : vector<128xf32>
    %alpha = math.exp %diff : vector<128xf32>
    %l_scaled = arith.mulf %l_old, %alpha : vector<128xf32>
    %l_new = vector.multi_reduction <add>, %p, %l_scaled [1] : vector<128x64xf32> to vector<128xf32>
    // p to tensor memory, as the a of p v.
    %pb = arith.truncf %p : vector<128x64xf32> to vector<128x64xbf16>
    mgpu.async_store_tmem %pb, %p_t : vector<128x64xbf16>, !p_t
    mgpu.commit_tmem
    mgpu.tcgen05_mma %pv_t, %p_t, %vs accumulate(%false) b_transforms #tiles
        : !s_t, !p_t, !kv
    mgpu.tcgen05_commit_arrive %bar[%c0] : !bar
    mgpu.barrier_wait %bar[%c0] : !bar
    %pv = mgpu.async_load_tmem %pv_t : !s_t -> vector<128x64xf32>
    mgpu.wait_load_tmem
    // o = o * alpha + p v.
    %o_old = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<128x64xf32, #smem>, vector<128x64xf32>
    %a_cols = vector.broadcast %alpha : vector<128xf32> to vector<64x128xf32>
    %a_rows = vector.transpose %a_cols, [1, 0] : vector<64x128xf32> to vector<128x64xf32>
    %o_scaled = arith.mulf %o_old, %a_rows : vector<128x64xf32>
    %o_new = arith.addf %o_scaled, %pv : vector<128x64xf32>
    vector.transfer_write %row_max, %m_s[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #smem>
    vector.transfer_write %l_new, %l_s[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #smem>
    %last_j = arith.subi %nj, %c1 : index
    %last = arith.cmpi eq, %j, %last_j : index
    %out = scf.if %last -> vector<128x64xf32> {
      %l_cols = vector.broadcast %l_new : vector<128xf32> to vector<64x128xf32>
      %l_rows = vector.transpose %l_cols, [1, 0] : vector<64x128xf32> to vector<128x64xf32>
      %norm = arith.divf %o_new, %l_rows : vector<128x64xf32>
      scf.yield %norm : vector<128x64xf32>
    } else {
      scf.yield %o_new : vector<128x64xf32>
    }
    vector.transfer_write %out, %os[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x64xf32>, memref<128x64xf32, #smem>
  }
  return
}
