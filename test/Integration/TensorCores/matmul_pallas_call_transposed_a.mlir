// JAX's test_realistic_matmul with lhs_transpose (a stored K x M) and with
// both transposed (b stored N x K too): contractions (k, m) x (k, n) and
// (k, m) x (n, k). --mgpu-contract-to-wgmma gives wgmma transposed views
// of the blocks; the tensor cores read both in place, a M-major
// (imm-trans-a = 1), b N-major or, transposed, K-major (no lane copies a
// block: no ld.shared). On every backend against a scalar
// reference (the tensor-core path; the lane path of the same wgmma ops is
// covered by matmul_pallas_call.mlir).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX --implicit-check-not=ld.shared
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 0;
// PTX-NOT: wgmma.mma_async

#a_tn = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(m, n, k) -> (k, m)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b_tn = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(m, n, k) -> (k, n)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#o_tn = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(m, n, k) -> (m, n)>>
#params_tn = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>
#smem = #gpu.address_space<workgroup>

func.func @matmul_tn(%a: memref<256x256xf16>, %b: memref<256x256xf16>,
                              %o: memref<256x256xf16>) {
  mgpu.pallas_call grid [2, 2, 4]
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>)
      outs(%o : memref<256x256xf16>) in_specs [#a_tn, #b_tn] out_specs [#o_tn]
      scratch [memref<128x128xf32, #smem>] params #params_tn {
  ^bb0(%a_ref: memref<64x128xf16, #smem>, %b_ref: memref<64x128xf16, #smem>,
       %o_ref: memref<128x128xf16, #smem>, %acc: memref<128x128xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %k = mgpu.program_id 2
    // @pl.when(pl.program_id(2) == 0)
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    // acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    %fpad = arith.constant 0.0 : f32
    %hpad = arith.constant 0.0 : f16
    %accv = vector.transfer_read %acc[%c0, %c0], %fpad {in_bounds = [true, true]}
        : memref<128x128xf32, #smem>, vector<128x128xf32>
    %av = vector.transfer_read %a_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x128xf16, #smem>, vector<64x128xf16>
    %bv = vector.transfer_read %b_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x128xf16, #smem>, vector<64x128xf16>
    %sum = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %av, %bv, %accv : vector<64x128xf16>, vector<64x128xf16> into vector<128x128xf32>
    vector.transfer_write %sum, %acc[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #smem>
    // @pl.when(pl.program_id(2) == grid_k - 1)
    %last = arith.cmpi eq, %k, %c3 : index
    scf.if %last {
      %h = arith.truncf %sum : vector<128x128xf32> to vector<128x128xf16>
      vector.transfer_write %h, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf16>, memref<128x128xf16, #smem>
    }
  }
  return
}

#a_tt = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(m, n, k) -> (k, m)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b_tt = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(m, n, k) -> (n, k)>,
                      transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#o_tt = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(m, n, k) -> (m, n)>>
#params_tt = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>

func.func @matmul_tt(%a: memref<256x256xf16>, %b: memref<256x256xf16>,
                              %o: memref<256x256xf16>) {
  mgpu.pallas_call grid [2, 2, 4]
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>)
      outs(%o : memref<256x256xf16>) in_specs [#a_tt, #b_tt] out_specs [#o_tt]
      scratch [memref<128x128xf32, #smem>] params #params_tt {
  ^bb0(%a_ref: memref<64x128xf16, #smem>, %b_ref: memref<128x64xf16, #smem>,
       %o_ref: memref<128x128xf16, #smem>, %acc: memref<128x128xf32, #smem>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %k = mgpu.program_id 2
    // @pl.when(pl.program_id(2) == 0)
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      %zero = arith.constant dense<0.0> : vector<128x128xf32>
      vector.transfer_write %zero, %acc[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    // acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    %fpad = arith.constant 0.0 : f32
    %hpad = arith.constant 0.0 : f16
    %accv = vector.transfer_read %acc[%c0, %c0], %fpad {in_bounds = [true, true]}
        : memref<128x128xf32, #smem>, vector<128x128xf32>
    %av = vector.transfer_read %a_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<64x128xf16, #smem>, vector<64x128xf16>
    %bv = vector.transfer_read %b_ref[%c0, %c0], %hpad {in_bounds = [true, true]}
        : memref<128x64xf16, #smem>, vector<128x64xf16>
    %sum = vector.contract {
        indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>],
        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %av, %bv, %accv : vector<64x128xf16>, vector<128x64xf16> into vector<128x128xf32>
    vector.transfer_write %sum, %acc[%c0, %c0] {in_bounds = [true, true]}
        : vector<128x128xf32>, memref<128x128xf32, #smem>
    // @pl.when(pl.program_id(2) == grid_k - 1)
    %last = arith.cmpi eq, %k, %c3 : index
    scf.if %last {
      %h = arith.truncf %sum : vector<128x128xf32> to vector<128x128xf16>
      vector.transfer_write %h, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf16>, memref<128x128xf16, #smem>
    }
  }
  return
}

// (x * mul + y) mod 5 - 2.
func.func @small(%x: index, %y: index, %mul: index) -> f32 {
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %t = arith.muli %x, %mul : index
  %s = arith.addi %t, %y : index
  %m = arith.remui %s, %c5 : index
  %d = arith.subi %m, %c2 : index
  %i = arith.index_cast %d : index to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x256xf16>
  %b = memref.alloc() : memref<256x256xf16>
  %o = memref.alloc() : memref<256x256xf16>
  %o2 = memref.alloc() : memref<256x256xf16>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = func.call @small(%i, %j, %c2) : (index, index, index) -> f32
      %y = func.call @small(%i, %j, %c3) : (index, index, index) -> f32
      %xh = arith.truncf %x : f32 to f16
      %yh = arith.truncf %y : f32 to f16
      memref.store %xh, %a[%i, %j] : memref<256x256xf16>
      memref.store %yh, %b[%i, %j] : memref<256x256xf16>
    }
  }
  // a is stored K x M: a[k][m]. tn: b is K x N; tt: b is N x K.
  func.call @matmul_tn(%a, %b, %o) : (memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf16>) -> ()
  func.call @matmul_tt(%a, %b, %o2) : (memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf16>) -> ()
  %bad:2 = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0, %count2 = %c0) -> (index, index) {
    %row:2 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count, %m2 = %count2) -> (index, index) {
      %sum:2 = scf.for %k = %c0 to %n step %c1 iter_args(%s = %f0, %s2 = %f0) -> (f32, f32) {
        %x = func.call @small(%k, %i, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %yt = func.call @small(%j, %k, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        %p2 = arith.mulf %x, %yt : f32
        %t2 = arith.addf %s2, %p2 : f32
        scf.yield %t, %t2 : f32, f32
      }
      %goth = memref.load %o[%i, %j] : memref<256x256xf16>
      %got = arith.extf %goth : f16 to f32
      %ne = arith.cmpf une, %got, %sum#0 : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %mn = arith.addi %m, %inc : index
      %goth2 = memref.load %o2[%i, %j] : memref<256x256xf16>
      %got2 = arith.extf %goth2 : f16 to f32
      %ne2 = arith.cmpf une, %got2, %sum#1 : f32
      %inc2 = arith.select %ne2, %c1, %c0 : index
      %mn2 = arith.addi %m2, %inc2 : index
      scf.yield %mn, %mn2 : index, index
    }
    scf.yield %row#0, %row#1 : index, index
  }
  vector.print str "tn mismatches: "
  vector.print %bad#0 : index
  vector.print str "tt mismatches: "
  vector.print %bad#1 : index
  return
}
// CHECK: tn mismatches: 0
// CHECK-NEXT: tt mismatches: 0
