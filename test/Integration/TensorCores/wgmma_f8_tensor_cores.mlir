// f8 wgmma on the tensor cores (wgmma.mma_async .e4m3 / .e5m2, K 32 per
// MMA): a (64 x 128) times b transposed (plgpu.transpose_ref of an N x 128
// buffer; 8-bit operands are read K-major only), mixed e4m3 x e5m2 and
// e5m2 x e4m3, into f32.
// - @in_place: both operands tiled (8, 128) with the 128-byte swizzle
//   (named on the MMA; the lanes' whole-view stores go through that
//   layout, then plgpu.commit_smem): read in place, b a non-square
//   transposed view (N = 64 of K = 128).
// - @copied: both written by the lanes in halves, so they stay row-major
//   and the lanes copy them into the core-matrix layout first (N = 128).
// Values -8..7, exact in both f8 types: every element is exact on cpu and
// emulate (whose tensor-core path reads 1-byte elements, 32 of K per MMA).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PLACE < %t.0.ptx
// RUN: FileCheck %s --check-prefix=COPY < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// REQUIRES: ptxas
// PLACE-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2
// PLACE-NOT: wgmma.mma_async
// COPY-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e4m3
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// CHECK: in_place mismatches: 0
// CHECK-NEXT: copied mismatches: 0
// CHECK-NEXT: {{-?[0-9]+}}

#smem = #gpu.address_space<workgroup>
#sw = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]
#a_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#b64_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#b128_spec = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>>
#c64_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#c128_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>

module {
  func.func @in_place(%a: memref<64x128xf32>, %b: memref<64x128xf32>,
                   %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x128xf32>, memref<64x128xf32>)
        outs(%c : memref<64x64xf32>)
        in_specs [#a_spec, #b64_spec] out_specs [#c64_spec]
        scratch [memref<64x128xf8E4M3FN, #smem>, memref<64x128xf8E5M2, #smem>] {
    ^bb0(%as: memref<64x128xf32, #smem>, %bs: memref<64x128xf32, #smem>,
         %cs: memref<64x64xf32, #smem>, %a8: memref<64x128xf8E4M3FN, #smem>,
         %b8: memref<64x128xf8E5M2, #smem>):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %f0 = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %av = vector.transfer_read %as[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %bv = vector.transfer_read %bs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %a8v = arith.truncf %av : vector<64x128xf32> to vector<64x128xf8E4M3FN>
      %b8v = arith.truncf %bv : vector<64x128xf32> to vector<64x128xf8E5M2>
      vector.transfer_write %a8v, %a8[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf8E4M3FN>, memref<64x128xf8E4M3FN, #smem>
      vector.transfer_write %b8v, %b8[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf8E5M2>, memref<64x128xf8E5M2, #smem>
      // The tensor cores read what the lanes wrote (plgpu.commit_smem).
      mgpu.commit_smem
      %bt = memref.transpose %b8 (r, c) -> (c, r)
          : memref<64x128xf8E5M2, #smem> to memref<128x64xf8E5M2, strided<[1, 128]>, #smem>
      %acc = mgpu.wgmma %zero, %a8, %bt a_transforms #sw b_transforms #sw : vector<64x64xf32>, memref<64x128xf8E4M3FN, #smem>,
          memref<128x64xf8E5M2, strided<[1, 128]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  func.func @copied(%a: memref<64x128xf32>, %b: memref<128x128xf32>,
                   %c: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x128xf32>, memref<128x128xf32>)
        outs(%c : memref<64x128xf32>)
        in_specs [#a_spec, #b128_spec] out_specs [#c128_spec]
        scratch [memref<64x128xf8E5M2, #smem>, memref<128x128xf8E4M3FN, #smem>] {
    ^bb0(%as: memref<64x128xf32, #smem>, %bs: memref<128x128xf32, #smem>,
         %cs: memref<64x128xf32, #smem>, %a8: memref<64x128xf8E5M2, #smem>,
         %b8: memref<128x128xf8E4M3FN, #smem>):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %f0 = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %av = vector.transfer_read %as[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x128xf32, #smem>, vector<64x128xf32>
      %bv = vector.transfer_read %bs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<128x128xf32, #smem>, vector<128x128xf32>
      %a8v = arith.truncf %av : vector<64x128xf32> to vector<64x128xf8E5M2>
      %b8v = arith.truncf %bv : vector<128x128xf32> to vector<128x128xf8E4M3FN>
      // Written in two column halves: the lanes' layout (row-major).
      %a8l = vector.extract_strided_slice %a8v {offsets = [0, 0], sizes = [64, 64], strides = [1, 1]} : vector<64x128xf8E5M2> to vector<64x64xf8E5M2>
      %a8r = vector.extract_strided_slice %a8v {offsets = [0, 64], sizes = [64, 64], strides = [1, 1]} : vector<64x128xf8E5M2> to vector<64x64xf8E5M2>
      %c64 = arith.constant 64 : index
      vector.transfer_write %a8l, %a8[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf8E5M2>, memref<64x128xf8E5M2, #smem>
      vector.transfer_write %a8r, %a8[%c0, %c64] {in_bounds = [true, true]}
          : vector<64x64xf8E5M2>, memref<64x128xf8E5M2, #smem>
      %b8l = vector.extract_strided_slice %b8v {offsets = [0, 0], sizes = [128, 64], strides = [1, 1]} : vector<128x128xf8E4M3FN> to vector<128x64xf8E4M3FN>
      %b8r = vector.extract_strided_slice %b8v {offsets = [0, 64], sizes = [128, 64], strides = [1, 1]} : vector<128x128xf8E4M3FN> to vector<128x64xf8E4M3FN>
      vector.transfer_write %b8l, %b8[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x64xf8E4M3FN>, memref<128x128xf8E4M3FN, #smem>
      vector.transfer_write %b8r, %b8[%c0, %c64] {in_bounds = [true, true]}
          : vector<128x64xf8E4M3FN>, memref<128x128xf8E4M3FN, #smem>
      %bt = memref.transpose %b8 (r, c) -> (c, r)
          : memref<128x128xf8E4M3FN, #smem> to memref<128x128xf8E4M3FN, strided<[1, 128]>, #smem>
      %acc = mgpu.wgmma %zero, %a8, %bt : vector<64x128xf32>, memref<64x128xf8E5M2, #smem>,
          memref<128x128xf8E4M3FN, strided<[1, 128]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
    }
    return
  }

  func.func @check_64(%a: memref<64x128xf32>, %b: memref<64x128xf32>,
                   %c: memref<64x64xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 64 : index
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%cnt = %c0) -> index {
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %cnt) -> index {
        %f0 = arith.constant 0.0 : f32
        %want = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %a[%i, %k] : memref<64x128xf32>
          %y = memref.load %b[%j, %k] : memref<64x128xf32>
          %p = arith.mulf %x, %y : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%i, %j] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  func.func @check_128(%a: memref<64x128xf32>, %b: memref<128x128xf32>,
                   %c: memref<64x128xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 128 : index
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%cnt = %c0) -> index {
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %cnt) -> index {
        %f0 = arith.constant 0.0 : f32
        %want = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %a[%i, %k] : memref<64x128xf32>
          %y = memref.load %b[%j, %k] : memref<128x128xf32>
          %p = arith.mulf %x, %y : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%i, %j] : memref<64x128xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  // v(i, k) = (i * 37 + k * 11 + seed) mod 16 - 8: -8..7, exact in e4m3
  // and e5m2, so every sum is exact.
  func.func @fill(%x: memref<?x128xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c37 = arith.constant 37 : index
    %c128 = arith.constant 128 : index
    %rows = memref.dim %x, %c0 : memref<?x128xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %u = arith.muli %i, %c37 : index
        %w = arith.muli %k, %c11 : index
        %s = arith.addi %u, %w : index
        %t = arith.addi %s, %seed : index
        %r = arith.remui %t, %c16 : index
        %d = arith.subi %r, %c8 : index
        %di = arith.index_cast %d : index to i32
        %f = arith.sitofp %di : i32 to f32
        memref.store %f, %x[%i, %k] : memref<?x128xf32>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %a = memref.alloc() : memref<64x128xf32>
    %b64 = memref.alloc() : memref<64x128xf32>
    %b128 = memref.alloc() : memref<128x128xf32>
    %ad = memref.cast %a : memref<64x128xf32> to memref<?x128xf32>
    %b64d = memref.cast %b64 : memref<64x128xf32> to memref<?x128xf32>
    %b128d = memref.cast %b128 : memref<128x128xf32> to memref<?x128xf32>
    func.call @fill(%ad, %c0) : (memref<?x128xf32>, index) -> ()
    func.call @fill(%b64d, %c5) : (memref<?x128xf32>, index) -> ()
    func.call @fill(%b128d, %c5) : (memref<?x128xf32>, index) -> ()
    %c64r = memref.alloc() : memref<64x64xf32>
    %c128r = memref.alloc() : memref<64x128xf32>
    func.call @in_place(%a, %b64, %c64r) : (memref<64x128xf32>, memref<64x128xf32>, memref<64x64xf32>) -> ()
    func.call @copied(%a, %b128, %c128r) : (memref<64x128xf32>, memref<128x128xf32>, memref<64x128xf32>) -> ()
    %bad1 = func.call @check_64(%a, %b64, %c64r) : (memref<64x128xf32>, memref<64x128xf32>, memref<64x64xf32>) -> index
    %bad2 = func.call @check_128(%a, %b128, %c128r) : (memref<64x128xf32>, memref<128x128xf32>, memref<64x128xf32>) -> index
    vector.print str "in_place mismatches: "
    vector.print %bad1 : index
    vector.print str "copied mismatches: "
    vector.print %bad2 : index
    %x = memref.load %c64r[%c0, %c0] : memref<64x64xf32>
    vector.print %x : f32
    return
  }
}
