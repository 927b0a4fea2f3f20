// JAX's float6_e2m3fn and float6_e3m2fn as stored element types, one
// element per byte in its low 6 bits (Mosaic GPU's p2b6). Shaped after the
// sub-byte upcasts of JAX's tests: a 64x128 block read into registers and
// widened to f32 (e2m3 staged by TMA, tiled [8, 128] and swizzled 128;
// e3m2 read in global memory), and f32 narrowed to each format as JAX
// narrows (cvt.rn.satfinite: to nearest, ties to even, saturated to the
// largest finite value; the formats have no infinity or NaN, which
// saturate too). Every element of the 64 codes is checked against tables
// of the 32 magnitudes written out below, not against mgpu's own
// conversions; the narrowing input holds each code's value, the midpoint
// to the next one (a tie), just above and just below it, and infinities
// and NaN past the largest.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

#tiled = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>,
                          transforms = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]>
#block = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#gmem = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

module {
  // float6_e2m3fn -> f32, the block staged tiled and swizzled.
  func.func @e2m3_to_f32(%x: memref<64x128xf6E2M3FN>, %o: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x128xf6E2M3FN>) outs(%o : memref<64x128xf32>)
        in_specs [#tiled] out_specs [#block] {
    ^bb0(%xs: memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>,
         %os: memref<64x128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f6E2M3FN
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>, vector<64x128xf6E2M3FN>
      %f = arith.extf %v : vector<64x128xf6E2M3FN> to vector<64x128xf32>
      vector.transfer_write %f, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  // float6_e3m2fn -> f32, read straight from global memory.
  func.func @e3m2_to_f32(%x: memref<64x128xf6E3M2FN>, %o: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x128xf6E3M2FN>) outs(%o : memref<64x128xf32>)
        in_specs [#gmem] out_specs [#gmem] {
    ^bb0(%xg: memref<64x128xf6E3M2FN>, %og: memref<64x128xf32>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f6E3M2FN
      %v = vector.transfer_read %xg[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xf6E3M2FN>, vector<64x128xf6E3M2FN>
      %f = arith.extf %v : vector<64x128xf6E3M2FN> to vector<64x128xf32>
      vector.transfer_write %f, %og[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32>
    }
    return
  }

  // f32 -> both formats, written through SMEM and TMA.
  func.func @f32_to_f6(%xa: memref<64x128xf32>, %xb: memref<64x128xf32>,
                       %oa: memref<64x128xf6E2M3FN>, %ob: memref<64x128xf6E3M2FN>) {
    mgpu.pallas_call grid [1] ins(%xa, %xb : memref<64x128xf32>, memref<64x128xf32>)
        outs(%oa, %ob : memref<64x128xf6E2M3FN>, memref<64x128xf6E3M2FN>)
        in_specs [#block, #block] out_specs [#tiled, #block] {
    ^bb0(%as: memref<64x128xf32, #gpu.address_space<workgroup>>,
         %bs: memref<64x128xf32, #gpu.address_space<workgroup>>,
         %oas: memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>,
         %obs: memref<64x128xf6E3M2FN, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %a = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
      %b = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<64x128xf32>
      %na = arith.truncf %a : vector<64x128xf32> to vector<64x128xf6E2M3FN>
      %nb = arith.truncf %b : vector<64x128xf32> to vector<64x128xf6E3M2FN>
      vector.transfer_write %na, %oas[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf6E2M3FN>, memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>
      vector.transfer_write %nb, %obs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf6E3M2FN>, memref<64x128xf6E3M2FN, #gpu.address_space<workgroup>>
    }
    return
  }

  // The value of magnitude code `m` (0..31) from `table`, with the sign
  // bit `s` (0 or 1).
  func.func @value(%table: vector<32xf32>, %m: index, %s: index) -> f32 {
    %v = vector.extract %table[%m] : f32 from vector<32xf32>
    %neg = arith.negf %v : f32
    %c1 = arith.constant 1 : index
    %isneg = arith.cmpi eq, %s, %c1 : index
    %r = arith.select %isneg, %neg, %v : f32
    return %r : f32
  }

  // The narrowing input for code `c` of a format, by row kind `k`, and the
  // code it must narrow to. k = 0: the code's own value. k = 1: the
  // midpoint to the next magnitude (a tie: the even code). k = 2: just
  // above it (the next code). k = 3: just below it (the code). Past the
  // largest magnitude: twice it, infinity and NaN, each saturating.
  func.func @case(%table: vector<32xf32>, %c: index, %k: index) -> (f32, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %m = arith.remui %c, %c32 : index
    %s = arith.divui %c, %c32 : index
    %sign = arith.muli %s, %c32 : index
    %v = func.call @value(%table, %m, %s) : (vector<32xf32>, index, index) -> f32
    %last = arith.cmpi eq, %m, %c31 : index
    %m1 = arith.addi %m, %c1 : index
    %next = arith.select %last, %m, %m1 : index
    %w = func.call @value(%table, %next, %s) : (vector<32xf32>, index, index) -> f32
    %half = arith.constant 0.5 : f32
    %eighth = arith.constant 0.125 : f32
    %sum = arith.addf %v, %w : f32
    %mid = arith.mulf %sum, %half : f32
    %gap = arith.subf %w, %v : f32
    %tiny = arith.mulf %gap, %eighth : f32
    %above = arith.addf %mid, %tiny : f32
    %below = arith.subf %mid, %tiny : f32
    // The even one of m and m + 1.
    %modd = arith.remui %m, %c2 : index
    %isodd = arith.cmpi eq, %modd, %c1 : index
    %even = arith.select %isodd, %m1, %m : index
    // Past the largest magnitude.
    %two = arith.constant 2.0 : f32
    %twice = arith.mulf %v, %two : f32
    %inf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %pnan = arith.constant 0x7FC00000 : f32
    %nnan = arith.constant 0xFFC00000 : f32
    %isneg = arith.cmpi eq, %s, %c1 : index
    %infs = arith.select %isneg, %ninf, %inf : f32
    %nans = arith.select %isneg, %nnan, %pnan : f32
    %is0 = arith.cmpi eq, %k, %c0 : index
    %is1 = arith.cmpi eq, %k, %c1 : index
    %is2 = arith.cmpi eq, %k, %c2 : index
    %x1 = arith.select %last, %twice, %mid : f32
    %x2 = arith.select %last, %infs, %above : f32
    %x3 = arith.select %last, %nans, %below : f32
    %e1 = arith.select %last, %c31, %even : index
    %e2 = arith.select %last, %c31, %m1 : index
    %x12 = arith.select %is1, %x1, %x2 : f32
    %x123 = arith.select %is2, %x2, %x12 : f32
    %k3 = arith.cmpi eq, %k, %c3 : index
    %xk = arith.select %k3, %x3, %x123 : f32
    %x = arith.select %is0, %v, %xk : f32
    %e12 = arith.select %is1, %e1, %e2 : index
    %ek = arith.select %is2, %e2, %e12 : index
    %ek3 = arith.select %k3, %m, %ek : index
    %em = arith.select %is0, %m, %ek3 : index
    %e = arith.addi %em, %sign : index
    return %x, %e : f32, index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // The 32 magnitudes of each format, by code. e2m3 (bias 1): 0 to 7/8
    // by eighths (subnormal), then 1 to 1.875, 2 to 3.75, 4 to 7.5.
    %e2m3 = arith.constant dense<[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875,
                                  1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,
                                  2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75,
                                  4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5]> : vector<32xf32>
    // e3m2 (bias 3): 0 to 3/16 by sixteenths (subnormal), then four steps
    // per power of two from 0.25 up to 28.
    %e3m2 = arith.constant dense<[0.0, 0.0625, 0.125, 0.1875, 0.25, 0.3125, 0.375, 0.4375,
                                  0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 1.75,
                                  2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0,
                                  8.0, 10.0, 12.0, 14.0, 16.0, 20.0, 24.0, 28.0]> : vector<32xf32>
    %a = memref.alloc() : memref<64x128xf6E2M3FN>
    %b = memref.alloc() : memref<64x128xf6E3M2FN>
    %xa = memref.alloc() : memref<64x128xf32>
    %xb = memref.alloc() : memref<64x128xf32>
    %ea = memref.alloc() : memref<64x128xindex>
    %eb = memref.alloc() : memref<64x128xindex>
    // Code (i * 128 + j) * 7 + 3 mod 64: every code in every row.
    scf.for %i = %c0 to %c64 step %c1 {
      %k = arith.remui %i, %c4 : index
      scf.for %j = %c0 to %c128 step %c1 {
        %flat = affine.apply affine_map<(i, j) -> ((i * 128 + j) * 7 + 3)>(%i, %j)
        %c = arith.remui %flat, %c64 : index
        %c32 = arith.index_cast %c : index to i32
        %n = arith.trunci %c32 : i32 to i6
        %na = arith.bitcast %n : i6 to f6E2M3FN
        memref.store %na, %a[%i, %j] : memref<64x128xf6E2M3FN>
        %nb = arith.bitcast %n : i6 to f6E3M2FN
        memref.store %nb, %b[%i, %j] : memref<64x128xf6E3M2FN>
        %ca:2 = func.call @case(%e2m3, %c, %k) : (vector<32xf32>, index, index) -> (f32, index)
        memref.store %ca#0, %xa[%i, %j] : memref<64x128xf32>
        memref.store %ca#1, %ea[%i, %j] : memref<64x128xindex>
        %cb:2 = func.call @case(%e3m2, %c, %k) : (vector<32xf32>, index, index) -> (f32, index)
        memref.store %cb#0, %xb[%i, %j] : memref<64x128xf32>
        memref.store %cb#1, %eb[%i, %j] : memref<64x128xindex>
      }
    }
    %wa = memref.alloc() : memref<64x128xf32>
    %wb = memref.alloc() : memref<64x128xf32>
    // The e2m3 output is a view of a byte buffer, read back byte by byte:
    // each element in the low 6 bits of its own byte, the top 2 bits 0.
    %oabytes = memref.alloc() : memref<8192xi8>
    %oa = memref.view %oabytes[%c0][] : memref<8192xi8> to memref<64x128xf6E2M3FN>
    %ob = memref.alloc() : memref<64x128xf6E3M2FN>
    func.call @e2m3_to_f32(%a, %wa) : (memref<64x128xf6E2M3FN>, memref<64x128xf32>) -> ()
    func.call @e3m2_to_f32(%b, %wb) : (memref<64x128xf6E3M2FN>, memref<64x128xf32>) -> ()
    func.call @f32_to_f6(%xa, %xb, %oa, %ob)
        : (memref<64x128xf32>, memref<64x128xf32>, memref<64x128xf6E2M3FN>, memref<64x128xf6E3M2FN>) -> ()
    // Mismatches: widened e2m3, e3m2 (bit for bit, -0 included), narrowed
    // e2m3, e3m2.
    %zero = arith.constant 0 : index
    %c32i = arith.constant 32 : index
    %bad:4 = scf.for %i = %c0 to %c64 step %c1
        iter_args(%b0 = %zero, %b1 = %zero, %b2 = %zero, %b3 = %zero)
        -> (index, index, index, index) {
      %row:4 = scf.for %j = %c0 to %c128 step %c1
          iter_args(%k0 = %b0, %k1 = %b1, %k2 = %b2, %k3 = %b3)
          -> (index, index, index, index) {
        %flat = affine.apply affine_map<(i, j) -> ((i * 128 + j) * 7 + 3)>(%i, %j)
        %c = arith.remui %flat, %c64 : index
        %m = arith.remui %c, %c32i : index
        %s = arith.divui %c, %c32i : index
        %va = func.call @value(%e2m3, %m, %s) : (vector<32xf32>, index, index) -> f32
        %vb = func.call @value(%e3m2, %m, %s) : (vector<32xf32>, index, index) -> f32
        %ga = memref.load %wa[%i, %j] : memref<64x128xf32>
        %gb = memref.load %wb[%i, %j] : memref<64x128xf32>
        %vai = arith.bitcast %va : f32 to i32
        %gai = arith.bitcast %ga : f32 to i32
        %oka = arith.cmpi eq, %vai, %gai : i32
        %vbi = arith.bitcast %vb : f32 to i32
        %gbi = arith.bitcast %gb : f32 to i32
        %okb = arith.cmpi eq, %vbi, %gbi : i32
        %byte = affine.apply affine_map<(i, j) -> (i * 128 + j)>(%i, %j)
        %nai = memref.load %oabytes[%byte] : memref<8192xi8>
        %nax = arith.index_castui %nai : i8 to index
        %wantna = memref.load %ea[%i, %j] : memref<64x128xindex>
        %okna = arith.cmpi eq, %nax, %wantna : index
        %nb = memref.load %ob[%i, %j] : memref<64x128xf6E3M2FN>
        %nbi = arith.bitcast %nb : f6E3M2FN to i6
        %nbx = arith.index_castui %nbi : i6 to index
        %wantnb = memref.load %eb[%i, %j] : memref<64x128xindex>
        %oknb = arith.cmpi eq, %nbx, %wantnb : index
        %n0 = arith.addi %k0, %c1 : index
        %r0 = arith.select %oka, %k0, %n0 : index
        %n1 = arith.addi %k1, %c1 : index
        %r1 = arith.select %okb, %k1, %n1 : index
        %n2 = arith.addi %k2, %c1 : index
        %r2 = arith.select %okna, %k2, %n2 : index
        %n3 = arith.addi %k3, %c1 : index
        %r3 = arith.select %oknb, %k3, %n3 : index
        scf.yield %r0, %r1, %r2, %r3 : index, index, index, index
      }
      scf.yield %row#0, %row#1, %row#2, %row#3 : index, index, index, index
    }
    // CHECK: mismatches: 0 0 0 0
    vector.print str "mismatches: "
    vector.print %bad#0 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#1 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#2 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#3 : index
    // Row 0 starts with codes 3, 10, 17, 24: e2m3 0.375, 1.25, 2.25, 4;
    // e3m2 0.1875, 0.75, 2.5, 8.
    // CHECK-NEXT: ( 0.375, 1.25, 2.25, 4 )
    // CHECK-NEXT: ( 0.1875, 0.75, 2.5, 8 )
    %zf = arith.constant 0.0 : f32
    %fa = vector.transfer_read %wa[%c0, %c0], %zf {in_bounds = [true]} : memref<64x128xf32>, vector<4xf32>
    vector.print %fa : vector<4xf32>
    %fb = vector.transfer_read %wb[%c0, %c0], %zf {in_bounds = [true]} : memref<64x128xf32>, vector<4xf32>
    vector.print %fb : vector<4xf32>
    memref.dealloc %a : memref<64x128xf6E2M3FN>
    memref.dealloc %b : memref<64x128xf6E3M2FN>
    memref.dealloc %xa : memref<64x128xf32>
    memref.dealloc %xb : memref<64x128xf32>
    memref.dealloc %ea : memref<64x128xindex>
    memref.dealloc %eb : memref<64x128xindex>
    memref.dealloc %wa : memref<64x128xf32>
    memref.dealloc %wb : memref<64x128xf32>
    memref.dealloc %oabytes : memref<8192xi8>
    memref.dealloc %ob : memref<64x128xf6E3M2FN>
    return
  }
}
