// JAX's Layout.WGMMA.reduce(0) (#mgpu.layout<wgmma_col>) as the attention
// backward kernel of attention_mgpu.py uses it (its q_pipeline): sT = k q^T
// on the tensor cores, scaled by log2(e); lse loaded one element per
// column (plgpu.load(lse_smem, layout=plgpu.Layout.WGMMA.reduce(0)), here
// a read and a layout cast), pT = exp2(sT - broadcast_in_dim(lse, (64,
// 64), [1])); and, from the same lse, dsT-like d = sT - lse exact and
// lse * 2 written back from the column layout. On the GPU no value moves
// between lanes: each lane reads its two columns per 8-column group,
// broadcasts them over its fragment registers, and lanes 0-3 write the
// columns back. k and q hold -1, 0 and 1, lse small integers, so d is
// exact; pT is compared with the host's exp2 to 4e-6 relative (as
// transcendentals.mlir: the kernel's vector exp2 and the host's scalar one
// differ by a few ulp).
// Changed from JAX: one 64 x 64 block, no pipeline; lse is an input.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-select-tensor-cores --mgpu-assign-layouts | FileCheck %s --check-prefix=LAYOUTS
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// LAYOUTS: mgpu.layout_cast {{.*}} to #mgpu.layout<wgmma_col>
// LAYOUTS: vector.broadcast {{.*}}mgpu.out_layouts = [#mgpu.layout<wgmma>]
// CHECK: d mismatches: 0
// CHECK-NEXT: pT mismatches: 0
// CHECK-NEXT: lse2 mismatches: 0

#smem = #gpu.address_space<workgroup>
#tile = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#row = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (0)>>

func.func @backward_piece(%k: memref<64x64xbf16>, %q: memref<64x64xbf16>,
                          %l: memref<64xf32>, %d: memref<64x64xf32>,
                          %p: memref<64x64xf32>, %l2: memref<64xf32>) {
  mgpu.pallas_call grid [1]
      ins(%k, %q, %l : memref<64x64xbf16>, memref<64x64xbf16>, memref<64xf32>)
      outs(%d, %p, %l2 : memref<64x64xf32>, memref<64x64xf32>, memref<64xf32>)
      in_specs [#tile, #tile, #row] out_specs [#tile, #tile, #row] {
  ^bb0(%ks: memref<64x64xbf16, #smem>, %qs: memref<64x64xbf16, #smem>,
       %ls: memref<64xf32, #smem>, %ds: memref<64x64xf32, #smem>,
       %ps: memref<64x64xf32, #smem>, %l2s: memref<64xf32, #smem>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %zero = arith.constant dense<0.0> : vector<64x64xf32>
    %qt = memref.transpose %qs (r, c) -> (c, r)
        : memref<64x64xbf16, #smem> to memref<64x64xbf16, strided<[1, 64]>, #smem>
    %st = mgpu.wgmma %zero, %ks, %qt : vector<64x64xf32>, memref<64x64xbf16, #smem>,
        memref<64x64xbf16, strided<[1, 64]>, #smem>
    mgpu.wgmma_wait 0
    %lse_read = vector.transfer_read %ls[%c0], %pad {in_bounds = [true]}
        : memref<64xf32, #smem>, vector<64xf32>
    %lse = mgpu.layout_cast %lse_read : vector<64xf32> to #mgpu.layout<wgmma_col>
    %lse_b = vector.broadcast %lse : vector<64xf32> to vector<64x64xf32>
    %dv = arith.subf %st, %lse_b : vector<64x64xf32>
    vector.transfer_write %dv, %ds[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #smem>
    %log2e = arith.constant dense<1.44269504> : vector<64x64xf32>
    %sts = arith.mulf %st, %log2e : vector<64x64xf32>
    %e = arith.subf %sts, %lse_b : vector<64x64xf32>
    %pt = math.exp2 %e : vector<64x64xf32>
    vector.transfer_write %pt, %ps[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x64xf32>, memref<64x64xf32, #smem>
    %two = arith.constant dense<2.0> : vector<64xf32>
    %lse2 = arith.mulf %lse, %two : vector<64xf32>
    vector.transfer_write %lse2, %l2s[%c0] {in_bounds = [true]}
        : vector<64xf32>, memref<64xf32, #smem>
  }
  return
}

// (x * mul + y) mod 3 - 1.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c3 : index
  %r = arith.subi %m, %c1 : index
  %i = arith.index_cast %r : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @count(%n: index, %bad: i1) -> index {
  %c1 = arith.constant 1 : index
  %n1 = arith.addi %n, %c1 : index
  %r = arith.select %bad, %n1, %n : index
  return %r : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %f2 = arith.constant 2.0 : f32
  %log2e = arith.constant 1.44269504 : f32
  %tol = arith.constant 4.0e-6 : f32
  %k = memref.alloc() : memref<64x64xbf16>
  %q = memref.alloc() : memref<64x64xbf16>
  %l = memref.alloc() : memref<64xf32>
  %d = memref.alloc() : memref<64x64xf32>
  %p = memref.alloc() : memref<64x64xf32>
  %l2 = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = func.call @small(%i, %j, %c2) : (index, index, index) -> f32
      %xh = arith.truncf %x : f32 to bf16
      memref.store %xh, %k[%i, %j] : memref<64x64xbf16>
      %y = func.call @small(%i, %j, %c5) : (index, index, index) -> f32
      %yh = arith.truncf %y : f32 to bf16
      memref.store %yh, %q[%i, %j] : memref<64x64xbf16>
    }
    // lse[j] = (j mod 7) - 3.
    %m = arith.remui %i, %c7 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %three = arith.constant 3.0 : f32
    %lv = arith.subf %mf, %three : f32
    memref.store %lv, %l[%i] : memref<64xf32>
  }
  func.call @backward_piece(%k, %q, %l, %d, %p, %l2)
      : (memref<64x64xbf16>, memref<64x64xbf16>, memref<64xf32>,
         memref<64x64xf32>, memref<64x64xf32>, memref<64xf32>) -> ()
  %bad:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%bd = %c0, %bp = %c0) -> (index, index) {
    %row:2 = scf.for %j = %c0 to %c64 step %c1 iter_args(%cd = %bd, %cp = %bp) -> (index, index) {
      %s = scf.for %t = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
        %kv = memref.load %k[%i, %t] : memref<64x64xbf16>
        %qv = memref.load %q[%j, %t] : memref<64x64xbf16>
        %kf = arith.extf %kv : bf16 to f32
        %qf = arith.extf %qv : bf16 to f32
        %pr = arith.mulf %kf, %qf : f32
        %a = arith.addf %acc, %pr : f32
        scf.yield %a : f32
      }
      %lj = memref.load %l[%j] : memref<64xf32>
      %want_d = arith.subf %s, %lj : f32
      %got_d = memref.load %d[%i, %j] : memref<64x64xf32>
      %ne_d = arith.cmpf une, %got_d, %want_d : f32
      %nd = func.call @count(%cd, %ne_d) : (index, i1) -> index
      %ss = arith.mulf %s, %log2e : f32
      %ex = arith.subf %ss, %lj : f32
      %want_p = math.exp2 %ex : f32
      %got_p = memref.load %p[%i, %j] : memref<64x64xf32>
      %diff = arith.subf %got_p, %want_p : f32
      %adiff = math.absf %diff : f32
      %scale = math.absf %want_p : f32
      %lim = arith.mulf %scale, %tol : f32
      %ne_p = arith.cmpf ugt, %adiff, %lim : f32
      %np = func.call @count(%cp, %ne_p) : (index, i1) -> index
      scf.yield %nd, %np : index, index
    }
    scf.yield %row#0, %row#1 : index, index
  }
  %bad_l = scf.for %j = %c0 to %c64 step %c1 iter_args(%cl = %c0) -> index {
    %lj = memref.load %l[%j] : memref<64xf32>
    %want = arith.mulf %lj, %f2 : f32
    %got = memref.load %l2[%j] : memref<64xf32>
    %ne = arith.cmpf une, %got, %want : f32
    %n = func.call @count(%cl, %ne) : (index, i1) -> index
    scf.yield %n : index
  }
  vector.print str "d mismatches: "
  vector.print %bad#0 : index
  vector.print str "pT mismatches: "
  vector.print %bad#1 : index
  vector.print str "lse2 mismatches: "
  vector.print %bad_l : index
  return
}
