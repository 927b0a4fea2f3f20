// Interpret mode runs contractions at realistic size as loops, whatever
// their indexing maps and element types (issue #38: a 128x128x64 f32
// contraction with b transposed, attention's q @ k^T, did not compile in a
// minute: LLVM's lowering of vector.contract unrolls every product).
// --mgpu-vectors-to-loops now makes each one loops over its parallel
// dimensions around a scalar loop over K. Four 128 x 128 x 64 contractions
// of the same numbers: f32 with b transposed, f32 with a transposed, bf16
// plain and f16 with both transposed, the 16-bit ones into f32; each is
// checked against one scalar reference (small integers: exact sums).
// Interpret mode only: the f32 ones are not tensor-core contractions and
// their lane exchange does not fit the GPU's shared memory.
// RUN: mgpu-run %s -e main --backend=cpu | FileCheck %s --match-full-lines
// CHECK: mismatches: 0 0 0 0

#whole_mk = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#whole_km = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#whole_mn = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#mk = affine_map<(m, n, k) -> (m, k)>
#km = affine_map<(m, n, k) -> (k, m)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
!out = memref<128x128xf32>

func.func @contract(%x: memref<128x64xf32>, %y: memref<128x64xf32>,
                    %xt: memref<64x128xf32>, %yt: memref<64x128xf32>,
                    %xb: memref<128x64xbf16>, %ytb: memref<64x128xbf16>,
                    %xth: memref<64x128xf16>, %yh: memref<128x64xf16>,
                    %o1: !out, %o2: !out, %o3: !out, %o4: !out) {
  mgpu.pallas_call grid [1]
      ins(%x, %y, %xt, %yt, %xb, %ytb, %xth, %yh : memref<128x64xf32>, memref<128x64xf32>,
          memref<64x128xf32>, memref<64x128xf32>, memref<128x64xbf16>, memref<64x128xbf16>,
          memref<64x128xf16>, memref<128x64xf16>)
      outs(%o1, %o2, %o3, %o4 : !out, !out, !out, !out)
      in_specs [#whole_mk, #whole_mk, #whole_km, #whole_km, #whole_mk, #whole_km, #whole_km, #whole_mk]
      out_specs [#whole_mn, #whole_mn, #whole_mn, #whole_mn] {
  ^bb0(%xg: memref<128x64xf32>, %yg: memref<128x64xf32>, %xtg: memref<64x128xf32>,
       %ytg: memref<64x128xf32>, %xbg: memref<128x64xbf16>, %ytbg: memref<64x128xbf16>,
       %xthg: memref<64x128xf16>, %yhg: memref<128x64xf16>,
       %r1: !out, %r2: !out, %r3: !out, %r4: !out):
    %c0 = arith.constant 0 : index
    %p32 = arith.constant 0.0 : f32
    %pb = arith.constant 0.0 : bf16
    %ph = arith.constant 0.0 : f16
    %z = arith.constant dense<0.0> : vector<128x128xf32>
    %xv = vector.transfer_read %xg[%c0, %c0], %p32 {in_bounds = [true, true]} : memref<128x64xf32>, vector<128x64xf32>
    %yv = vector.transfer_read %yg[%c0, %c0], %p32 {in_bounds = [true, true]} : memref<128x64xf32>, vector<128x64xf32>
    %s1 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %xv, %yv, %z : vector<128x64xf32>, vector<128x64xf32> into vector<128x128xf32>
    vector.transfer_write %s1, %r1[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
    %xtv = vector.transfer_read %xtg[%c0, %c0], %p32 {in_bounds = [true, true]} : memref<64x128xf32>, vector<64x128xf32>
    %ytv = vector.transfer_read %ytg[%c0, %c0], %p32 {in_bounds = [true, true]} : memref<64x128xf32>, vector<64x128xf32>
    %s2 = vector.contract {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %xtv, %ytv, %z : vector<64x128xf32>, vector<64x128xf32> into vector<128x128xf32>
    vector.transfer_write %s2, %r2[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
    %xbv = vector.transfer_read %xbg[%c0, %c0], %pb {in_bounds = [true, true]} : memref<128x64xbf16>, vector<128x64xbf16>
    %ytbv = vector.transfer_read %ytbg[%c0, %c0], %pb {in_bounds = [true, true]} : memref<64x128xbf16>, vector<64x128xbf16>
    %s3 = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %xbv, %ytbv, %z : vector<128x64xbf16>, vector<64x128xbf16> into vector<128x128xf32>
    vector.transfer_write %s3, %r3[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
    %xthv = vector.transfer_read %xthg[%c0, %c0], %ph {in_bounds = [true, true]} : memref<64x128xf16>, vector<64x128xf16>
    %yhv = vector.transfer_read %yhg[%c0, %c0], %ph {in_bounds = [true, true]} : memref<128x64xf16>, vector<128x64xf16>
    %s4 = vector.contract {indexing_maps = [#km, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %xthv, %yhv, %z : vector<64x128xf16>, vector<128x64xf16> into vector<128x128xf32>
    vector.transfer_write %s4, %r4[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, !out
  }
  return
}

// (x * mul + y) mod 7 - 3.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c7 : index
  %d = arith.subi %m, %c3 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @count(%want: !out, %got: !out) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %c0) -> index {
    %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%m = %n) -> index {
      %w = memref.load %want[%i, %j] : !out
      %g = memref.load %got[%i, %j] : !out
      %ne = arith.cmpf une, %w, %g : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %m2 = arith.addi %m, %inc : index
      scf.yield %m2 : index
    }
    scf.yield %row : index
  }
  return %bad : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %f0 = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<128x64xf32>
  %y = memref.alloc() : memref<128x64xf32>
  %xt = memref.alloc() : memref<64x128xf32>
  %yt = memref.alloc() : memref<64x128xf32>
  %xb = memref.alloc() : memref<128x64xbf16>
  %ytb = memref.alloc() : memref<64x128xbf16>
  %xth = memref.alloc() : memref<64x128xf16>
  %yh = memref.alloc() : memref<128x64xf16>
  scf.for %i = %c0 to %c128 step %c1 {
    scf.for %k = %c0 to %c64 step %c1 {
      %a = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %b = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
      memref.store %a, %x[%i, %k] : memref<128x64xf32>
      memref.store %b, %y[%i, %k] : memref<128x64xf32>
      memref.store %a, %xt[%k, %i] : memref<64x128xf32>
      memref.store %b, %yt[%k, %i] : memref<64x128xf32>
      %ab = arith.truncf %a : f32 to bf16
      %bb = arith.truncf %b : f32 to bf16
      memref.store %ab, %xb[%i, %k] : memref<128x64xbf16>
      memref.store %bb, %ytb[%k, %i] : memref<64x128xbf16>
      %ah = arith.truncf %a : f32 to f16
      %bh = arith.truncf %b : f32 to f16
      memref.store %ah, %xth[%k, %i] : memref<64x128xf16>
      memref.store %bh, %yh[%i, %k] : memref<128x64xf16>
    }
  }
  %o1 = memref.alloc() : !out
  %o2 = memref.alloc() : !out
  %o3 = memref.alloc() : !out
  %o4 = memref.alloc() : !out
  func.call @contract(%x, %y, %xt, %yt, %xb, %ytb, %xth, %yh, %o1, %o2, %o3, %o4)
      : (memref<128x64xf32>, memref<128x64xf32>, memref<64x128xf32>, memref<64x128xf32>,
         memref<128x64xbf16>, memref<64x128xbf16>, memref<64x128xf16>, memref<128x64xf16>,
         !out, !out, !out, !out) -> ()
  // The reference: s[m][n] = sum_k x[m][k] y[n][k].
  %want = memref.alloc() : !out
  scf.for %m = %c0 to %c128 step %c1 {
    scf.for %n = %c0 to %c128 step %c1 {
      %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
        %a = memref.load %x[%m, %k] : memref<128x64xf32>
        %b = memref.load %y[%n, %k] : memref<128x64xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %acc, %p : f32
        scf.yield %t : f32
      }
      memref.store %s, %want[%m, %n] : !out
    }
  }
  %b1 = func.call @count(%want, %o1) : (!out, !out) -> index
  %b2 = func.call @count(%want, %o2) : (!out, !out) -> index
  %b3 = func.call @count(%want, %o3) : (!out, !out) -> index
  %b4 = func.call @count(%want, %o4) : (!out, !out) -> index
  vector.print str "mismatches: "
  vector.print %b1 : index punctuation <no_punctuation>
  vector.print str " "
  vector.print %b2 : index punctuation <no_punctuation>
  vector.print str " "
  vector.print %b3 : index punctuation <no_punctuation>
  vector.print str " "
  vector.print %b4 : index
  return
}
