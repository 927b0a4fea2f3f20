// Flash attention forward written the way a JAX Pallas user writes it for
// pallas_call: q @ k.T and p @ v as plain contractions (`jnp.dot`), the
// online-softmax state m, l and the f32 accumulator in scratch, zeroed
// under `@pl.when(j == 0)` and normalized into the output under
// `@pl.when(j == last)`. The q, k and v blocks use JAX's (8, 64) tiles
// with the 128-byte swizzle.
//
// Nothing names a tensor core, a register or a transposed view: on sm_90a
// --mgpu-contract-to-wgmma makes q @ k.T a wgmma reading k's block
// transposed (K-major) and p @ v one with a in registers;
// --mgpu-promote-accumulators carries m, l and the accumulator through the
// kv loop in registers. Per step: 8 MMAs, 16 KiB of TMA, and only p staged
// through shared memory by the lanes (12 KiB).
//
// Summary: flash attention as a plain pallas_call (`jnp.dot`, scratch
//   m/l/acc): tensor cores with k transposed and p in registers, nothing
//   tensor-core specific written

#q_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#kv_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (j, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#o_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>

func.func @attention_pallas_call(%q: memref<256x64xbf16>, %k: memref<256x64xbf16>,
                     %v: memref<256x64xbf16>, %o: memref<256x64xf32>) {
  mgpu.pallas_call grid [4, 4]
      ins(%q, %k, %v : memref<256x64xbf16>, memref<256x64xbf16>, memref<256x64xbf16>)
      outs(%o : memref<256x64xf32>)
      in_specs [#q_block, #kv_block, #kv_block] out_specs [#o_block]
      scratch [memref<64xf32, #smem>, memref<64xf32, #smem>, memref<64x64xf32, #smem>]
      params #params {
  ^bb0(%qs: memref<64x64xbf16, #smem>, %ks: memref<64x64xbf16, #smem>,
       %vs: memref<64x64xbf16, #smem>, %os: memref<64x64xf32, #smem>,
       %m_s: memref<64xf32, #smem>, %l_s: memref<64xf32, #smem>,
       %acc: memref<64x64xf32, #smem>):
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
      vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
      vector.transfer_write %ninf, %m_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
      vector.transfer_write %zrow, %l_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    }
    // s = q @ k.T / sqrt(64)
    %hpad = arith.constant 0.0 : bf16
    %qv = vector.transfer_read %qs[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x64xbf16, #smem>, vector<64x64xbf16>
    %kv = vector.transfer_read %ks[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x64xbf16, #smem>, vector<64x64xbf16>
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %s0 = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %qv, %kv, %zero : vector<64x64xbf16>, vector<64x64xbf16> into vector<64x64xf32>
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
    %o_old = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x64xf32, #smem>, vector<64x64xf32>
    %a_cols = vector.broadcast %alpha : vector<64xf32> to vector<64x64xf32>
    %a_rows = vector.transpose %a_cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
    %o_scaled = arith.mulf %o_old, %a_rows : vector<64x64xf32>
    %pb = arith.truncf %p : vector<64x64xf32> to vector<64x64xbf16>
    %vv = vector.transfer_read %vs[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x64xbf16, #smem>, vector<64x64xbf16>
    %o_new = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %pb, %vv, %o_scaled : vector<64x64xbf16>, vector<64x64xbf16> into vector<64x64xf32>
    vector.transfer_write %row_max, %m_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    vector.transfer_write %l_new, %l_s[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #smem>
    %last_j = arith.subi %nj, %c1 : index
    %last = arith.cmpi eq, %j, %last_j : index
    vector.transfer_write %o_new, %acc[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #smem>
    scf.if %last {
      %l_cols = vector.broadcast %l_new : vector<64xf32> to vector<64x64xf32>
      %l_rows = vector.transpose %l_cols, [1, 0] : vector<64x64xf32> to vector<64x64xf32>
      %norm = arith.divf %o_new, %l_rows : vector<64x64xf32>
      vector.transfer_write %norm, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
  }
  return
}
