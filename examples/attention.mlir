// Flash attention, forward: o = softmax(q k^T / sqrt(d)) v for one head
// (q, k, v: 256 x 64 bf16; o: 256 x 64 f32), with two mgpu.wgmma per step.
//
// The grid is [q blocks, kv blocks] = [4, 4], the kv axis sequential: a
// program keeps its 64 rows of q and walks the 64-row blocks of k and v.
// Per step, s = q k^T (a wgmma with b = k viewed transposed), then the
// online softmax: the running row maximum m and row sum l live in shared
// scratch across the steps, the output block (revisited) holds the
// unnormalized accumulator, rescaled by exp(m_old - m_new) before
// o += p v (a wgmma with a = p, bf16, in registers). The last step divides
// by l. Every backend computes wgmma with the same arithmetic (f32 sums).
//
// Summary: flash attention forward: two `mgpu.wgmma` per step (b = k viewed
//   transposed, a = p in registers) and the online softmax in scratch

#q_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#kv_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (j, 0)>>
#o_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>

func.func @attention(%q: memref<256x64xbf16>, %k: memref<256x64xbf16>,
                     %v: memref<256x64xbf16>, %o: memref<256x64xf32>) {
  mgpu.pallas_call grid [4, 4]
      ins(%q, %k, %v : memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>)
      outs(%o : memref<256x64xf32>)
      in_specs [#q_block, #kv_block, #kv_block] out_specs [#o_block]
      scratch [memref<64xf32, #smem>, memref<64xf32, #smem>]
      params #params {
  ^bb0(%qs: memref<64x64xbf16, #smem>, %ks: memref<64x64xbf16, #smem>,
       %vs: memref<64x64xbf16, #smem>, %os: memref<64x64xf32, #smem>,
       %m_s: memref<64xf32, #smem>, %l_s: memref<64xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %j = mgpu.program_id 1
    %nj = mgpu.num_programs 1
    %first = arith.cmpi eq, %j, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
      %zrow = arith.constant dense<0.0> : vector<64xf32>
      vector.transfer_write %zero, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
      vector.transfer_write %ninf, %m_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
      vector.transfer_write %zrow, %l_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    }
    // s = q k^T / sqrt(64).
    %kt = memref.transpose %ks (r, c) -> (c, r)
        : memref<64x64xbf16, #smem> to memref<64x64xbf16, strided<[1, 64]>, #smem>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %s0 = mgpu.wgmma %zero, %qs, %kt : vector<64x64xf32>, memref<64x64xbf16, #smem>,
        memref<64x64xbf16, strided<[1, 64]>, #smem>
    mgpu.wgmma_wait 0
    %scale = arith.constant dense<0.125> : vector<64x64xf32>
    %s = arith.mulf %s0, %scale : vector<64x64xf32>
    // Online softmax.
    %m_old = vector.transfer_read %m_s[%c0], %pad {in_bounds = [true]} : memref<64xf32, #smem>, vector<64xf32>
    %l_old = vector.transfer_read %l_s[%c0], %pad {in_bounds = [true]} : memref<64xf32, #smem>, vector<64xf32>
    %row_max = vector.multi_reduction <maximumf>, %s, %m_old [1] : vector<64x64xf32> to vector<64xf32>
    %m_cols = vector.broadcast %row_max : vector<64xf32> to vector<64x64xf32>
    %m_rows = vector.transpose %m_cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %shifted = arith.subf %s, %m_rows : vector<64x64xf32>
    %p = math.exp %shifted : vector<64x64xf32>
    %diff = arith.subf %m_old, %row_max : vector<64xf32>
    %alpha = math.exp %diff : vector<64xf32>
    %l_scaled = arith.mulf %l_old, %alpha : vector<64xf32>
    %l_new = vector.multi_reduction <add>, %p, %l_scaled [1] : vector<64x64xf32> to vector<64xf32>
    // o = o * alpha + p v.
    %o_old = vector.transfer_read %os[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #smem>, vector<64x64xf32>
    %a_cols = vector.broadcast %alpha : vector<64xf32> to vector<64x64xf32>
    %a_rows = vector.transpose %a_cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %o_scaled = arith.mulf %o_old, %a_rows : vector<64x64xf32>
    %pb = arith.truncf %p : vector<64x64xf32> to vector<64x64xbf16>
    %o_new = mgpu.wgmma %o_scaled, %pb, %vs : vector<64x64xf32>, vector<64x64xbf16>,
        memref<64x64xbf16, #smem>
    mgpu.wgmma_wait 0
    vector.transfer_write %row_max, %m_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    vector.transfer_write %l_new, %l_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    %last_j = arith.subi %nj, %c1 : index
    %last = arith.cmpi eq, %j, %last_j : index
    %out = scf.if %last -> vector<64x64xf32> {
      %l_cols = vector.broadcast %l_new : vector<64xf32> to vector<64x64xf32>
      %l_rows = vector.transpose %l_cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      %norm = arith.divf %o_new, %l_rows : vector<64x64xf32>
      scf.yield %norm : vector<64x64xf32>
    } else {
      scf.yield %o_new : vector<64x64xf32>
    }
    vector.transfer_write %out, %os[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #smem>
  }
  return
}
