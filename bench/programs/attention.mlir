// Benchmark: flash attention forward, the kernel of examples/attention.mlir
// (two mgpu.wgmma per step, the online softmax state in shared scratch) on
// 16 heads of 4096 positions, head dimension 64: q, k, v bf16 [16 x 4096,
// 64], o f32. The grid is [q blocks of every head, kv blocks of a head] =
// [1024, 64], the kv axis sequential; a program's kv blocks are those of
// its head (index map (i, j) -> ((i floordiv 64) * 64 + j, 0)). 4 * 16 *
// 4096^2 * 64 flops (no mask). Timed with CUDA events; 16 rows are checked
// against a scalar softmax(q k^T / 8) v in f32 (the kernel rounds p to
// bf16: a relative 1e-2).
// bundle-variant: --tensor-cores=0

#q_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#kv_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> ((i floordiv 64) * 64 + j, 0)>>
#o_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, j) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>
!rows = memref<65536x64xbf16>
!out = memref<65536x64xf32>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  llvm.mlir.global internal constant @label("attention 16x4096x64\00")
  func.func private @mgpuTimingStart()
  func.func private @mgpuTimingReport(!llvm.ptr, f64, f64, i64)

  func.func @attention(%q: !rows, %k: !rows, %v: !rows, %o: !out) {
    mgpu.pallas_call grid [1024, 64]
        ins(%q, %k, %v : !rows, !rows, !rows) outs(%o : !out)
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

  // ((x * a + y * b) mod m - m / 2) * scale.
  func.func @pattern(%x: index, %y: index, %a: index, %b: index, %m: index, %scale: f32) -> f32 {
    %xa = arith.muli %x, %a : index
    %yb = arith.muli %y, %b : index
    %s = arith.addi %xa, %yb : index
    %r = arith.remui %s, %m : index
    %c2 = arith.constant 2 : index
    %h = arith.divui %m, %c2 : index
    %d = arith.subi %r, %h : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %scale : f32
    return %v : f32
  }
  func.func @q_at(%i: index, %d: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %s = arith.constant 0.25 : f32
    %v = func.call @pattern(%i, %d, %c3, %c5, %c7, %s) : (index, index, index, index, index, f32) -> f32
    %w = arith.addf %v, %s : f32
    return %w : f32
  }
  // A ramp over every 8 kv blocks, so that row maxima move between blocks.
  func.func @k_at(%j: index, %d: index) -> f32 {
    %c5 = arith.constant 5 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c11 = arith.constant 11 : index
    %c64 = arith.constant 64 : index
    %s = arith.constant 0.125 : f32
    %v = func.call @pattern(%j, %d, %c5, %c3, %c11, %s) : (index, index, index, index, index, f32) -> f32
    %blk = arith.divui %j, %c64 : index
    %step = arith.remui %blk, %c8 : index
    %bi = arith.index_cast %step : index to i32
    %bf = arith.sitofp %bi : i32 to f32
    %quarter = arith.constant 0.25 : f32
    %ramp = arith.mulf %bf, %quarter : f32
    %w = arith.addf %v, %ramp : f32
    return %w : f32
  }
  func.func @v_at(%j: index, %c: index) -> f32 {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %s = arith.constant 1.0 : f32
    %v = func.call @pattern(%j, %c, %c1, %c2, %c7, %s) : (index, index, index, index, index, f32) -> f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %total = arith.constant 65536 : index
    %seq = arith.constant 4096 : index
    %q = memref.alloc() : !rows
    %k = memref.alloc() : !rows
    %v = memref.alloc() : !rows
    %o = memref.alloc() : !out
    scf.for %i = %c0 to %total step %c1 {
      scf.for %d = %c0 to %c64 step %c1 {
        %x = func.call @q_at(%i, %d) : (index, index) -> f32
        %y = func.call @k_at(%i, %d) : (index, index) -> f32
        %z = func.call @v_at(%i, %d) : (index, index) -> f32
        %xb = arith.truncf %x : f32 to bf16
        %yb = arith.truncf %y : f32 to bf16
        %zb = arith.truncf %z : f32 to bf16
        memref.store %xb, %q[%i, %d] : !rows
        memref.store %yb, %k[%i, %d] : !rows
        memref.store %zb, %v[%i, %d] : !rows
      }
    }

    func.call @mgpuTimingStart() : () -> ()
    %runs = arith.constant 5 : index
    scf.for %r = %c0 to %runs step %c1 {
      func.call @attention(%q, %k, %v, %o) : (!rows, !rows, !rows, !out) -> ()
    }
    %label = llvm.mlir.addressof @label : !llvm.ptr
    %flops = arith.constant 68719476736.0 : f64
    %bytes = arith.constant 41943040.0 : f64
    %warmup = arith.constant 1 : i64
    func.call @mgpuTimingReport(%label, %flops, %bytes, %warmup)
        : (!llvm.ptr, f64, f64, i64) -> ()

    // Rows 4099 s mod 65536 for s < 16 (every head once), each against the
    // keys and values of its head.
    %scores = memref.alloc() : memref<4096xf32>
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %eighth = arith.constant 0.125 : f32
    %tol = arith.constant 0.01 : f32
    %c16 = arith.constant 16 : index
    %c4099 = arith.constant 4099 : index
    %bad = scf.for %s = %c0 to %c16 step %c1 iter_args(%count = %c0) -> index {
      %i0 = arith.muli %s, %c4099 : index
      %i = arith.remui %i0, %total : index
      %head = arith.divui %i, %seq : index
      %base = arith.muli %head, %seq : index
      %mx = scf.for %jj = %c0 to %seq step %c1 iter_args(%m = %ninf) -> f32 {
        %j = arith.addi %base, %jj : index
        %dot = scf.for %d = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
          %x = func.call @q_at(%i, %d) : (index, index) -> f32
          %y = func.call @k_at(%j, %d) : (index, index) -> f32
          %xb = arith.truncf %x : f32 to bf16
          %yb = arith.truncf %y : f32 to bf16
          %xr = arith.extf %xb : bf16 to f32
          %yr = arith.extf %yb : bf16 to f32
          %p = arith.mulf %xr, %yr : f32
          %a = arith.addf %acc, %p : f32
          scf.yield %a : f32
        }
        %sc = arith.mulf %dot, %eighth : f32
        memref.store %sc, %scores[%jj] : memref<4096xf32>
        %m2 = arith.maximumf %m, %sc : f32
        scf.yield %m2 : f32
      }
      %l = scf.for %jj = %c0 to %seq step %c1 iter_args(%acc = %f0) -> f32 {
        %sc = memref.load %scores[%jj] : memref<4096xf32>
        %sh = arith.subf %sc, %mx : f32
        %e = math.exp %sh : f32
        memref.store %e, %scores[%jj] : memref<4096xf32>
        %a = arith.addf %acc, %e : f32
        scf.yield %a : f32
      }
      %row_bad = scf.for %c = %c0 to %c64 step %c1 iter_args(%rc = %count) -> index {
        %num = scf.for %jj = %c0 to %seq step %c1 iter_args(%acc = %f0) -> f32 {
          %j = arith.addi %base, %jj : index
          %e = memref.load %scores[%jj] : memref<4096xf32>
          %z = func.call @v_at(%j, %c) : (index, index) -> f32
          %p = arith.mulf %e, %z : f32
          %a = arith.addf %acc, %p : f32
          scf.yield %a : f32
        }
        %want = arith.divf %num, %l : f32
        %got = memref.load %o[%i, %c] : !out
        %err = arith.subf %got, %want : f32
        %abs = math.absf %err : f32
        %mag = math.absf %want : f32
        %room = arith.addf %mag, %f1 : f32
        %limit = arith.mulf %room, %tol : f32
        %off = arith.cmpf ugt, %abs, %limit : f32
        %inc = arith.select %off, %c1, %c0 : index
        %next = arith.addi %rc, %inc : index
        scf.yield %next : index
      }
      scf.yield %row_bad : index
    }
    vector.print str "attention mismatches: "
    vector.print %bad : index
    memref.dealloc %q : !rows
    memref.dealloc %k : !rows
    memref.dealloc %v : !rows
    memref.dealloc %o : !out
    memref.dealloc %scores : memref<4096xf32>
    return
  }
}
