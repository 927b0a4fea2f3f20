// f32 wgmma on the tensor cores as tf32 (wgmma.mma_async .tf32, K 8 per
// MMA), shaped after JAX's wgmma tests with float32 inputs: JAX reads
// 32-bit inputs K-major only, so b is a transposed view (plgpu.transpose_ref
// of an N x K buffer), and the tensor cores keep 10 mantissa bits of each
// input (the 13 low bits ignored), as mgpu's wgmma does on every backend.
// - @in_place: both operands tiled (8, 32) with the 128-byte swizzle (32
//   f32 are 128 bytes), read in place, b a non-square transposed view
//   (N = 128 of K = 64).
// - @copied: both written by the lanes in halves, so they stay row-major
//   and the lanes copy them into the core-matrix layout first (N = 64).
// Inputs d (1 + 2^-12) with d in -8..7: tf32 reads d, so every sum is exact
// (with the low bits kept, every element would differ).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PLACE < %t.0.ptx
// RUN: FileCheck %s --check-prefix=COPY < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// REQUIRES: ptxas
// PLACE-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// PLACE-NOT: wgmma.mma_async
// COPY-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// CHECK: in_place mismatches: 0
// CHECK-NEXT: copied mismatches: 0
// CHECK-NEXT: {{-?[0-9]+}}

#smem = #gpu.address_space<workgroup>
#sw = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]
#a_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#b64_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#b128_spec = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>>
#c64_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#c128_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>

module {
  func.func @in_place(%a: memref<64x64xf32>, %b: memref<128x64xf32>,
                      %c: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x64xf32>, memref<128x64xf32>)
        outs(%c : memref<64x128xf32>)
        in_specs [#a_spec, #b128_spec] out_specs [#c128_spec]
        scratch [memref<64x64xf32, #smem>, memref<128x64xf32, #smem>] {
    ^bb0(%as: memref<64x64xf32, #smem>, %bs: memref<128x64xf32, #smem>,
         %cs: memref<64x128xf32, #smem>, %at: memref<64x64xf32, #smem>,
         %bt: memref<128x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %f0 = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x128xf32>
      %av = vector.transfer_read %as[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x64xf32, #smem>, vector<64x64xf32>
      %bv = vector.transfer_read %bs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<128x64xf32, #smem>, vector<128x64xf32>
      vector.transfer_write %av, %at[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
      vector.transfer_write %bv, %bt[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x64xf32>, memref<128x64xf32, #smem>
      // The tensor cores read what the lanes wrote (plgpu.commit_smem).
      mgpu.commit_smem
      %btt = memref.transpose %bt (r, c) -> (c, r)
          : memref<128x64xf32, #smem> to memref<64x128xf32, strided<[1, 64]>, #smem>
      %acc = mgpu.wgmma %zero, %at, %btt a_transforms #sw b_transforms #sw
          : vector<64x128xf32>, memref<64x64xf32, #smem>,
            memref<64x128xf32, strided<[1, 64]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf32>, memref<64x128xf32, #smem>
    }
    return
  }

  func.func @copied(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                    %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
        outs(%c : memref<64x64xf32>)
        in_specs [#a_spec, #b64_spec] out_specs [#c64_spec]
        scratch [memref<64x64xf32, #smem>, memref<64x64xf32, #smem>] {
    ^bb0(%as: memref<64x64xf32, #smem>, %bs: memref<64x64xf32, #smem>,
         %cs: memref<64x64xf32, #smem>, %at: memref<64x64xf32, #smem>,
         %bt: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %f0 = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %av = vector.transfer_read %as[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x64xf32, #smem>, vector<64x64xf32>
      %bv = vector.transfer_read %bs[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x64xf32, #smem>, vector<64x64xf32>
      // Written in two column halves: the lanes' layout (row-major).
      %al = vector.extract_strided_slice %av {offsets = [0, 0], sizes = [64, 32], strides = [1, 1]} : vector<64x64xf32> to vector<64x32xf32>
      %ar = vector.extract_strided_slice %av {offsets = [0, 32], sizes = [64, 32], strides = [1, 1]} : vector<64x64xf32> to vector<64x32xf32>
      vector.transfer_write %al, %at[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x32xf32>, memref<64x64xf32, #smem>
      vector.transfer_write %ar, %at[%c0, %c32] {in_bounds = [true, true]}
          : vector<64x32xf32>, memref<64x64xf32, #smem>
      %bl = vector.extract_strided_slice %bv {offsets = [0, 0], sizes = [64, 32], strides = [1, 1]} : vector<64x64xf32> to vector<64x32xf32>
      %br = vector.extract_strided_slice %bv {offsets = [0, 32], sizes = [64, 32], strides = [1, 1]} : vector<64x64xf32> to vector<64x32xf32>
      vector.transfer_write %bl, %bt[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x32xf32>, memref<64x64xf32, #smem>
      vector.transfer_write %br, %bt[%c0, %c32] {in_bounds = [true, true]}
          : vector<64x32xf32>, memref<64x64xf32, #smem>
      %btt = memref.transpose %bt (r, c) -> (c, r)
          : memref<64x64xf32, #smem> to memref<64x64xf32, strided<[1, 64]>, #smem>
      %acc = mgpu.wgmma %zero, %at, %btt : vector<64x64xf32>, memref<64x64xf32, #smem>,
          memref<64x64xf32, strided<[1, 64]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // x with its 13 low mantissa bits cleared: what tf32 reads.
  func.func @tf32(%x: f32) -> f32 {
    %bits = arith.bitcast %x : f32 to i32
    %mask = arith.constant -8192 : i32
    %kept = arith.andi %bits, %mask : i32
    %y = arith.bitcast %kept : i32 to f32
    return %y : f32
  }

  // The mismatches of c = a b^T (a: 64 x 64, b: N x 64) against the sums
  // of the tf32 inputs' products.
  func.func @check(%a: memref<64x64xf32>, %b: memref<?x64xf32>,
                   %c: memref<64x?xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %b, %c0 : memref<?x64xf32>
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%cnt = %c0) -> index {
      %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %cnt) -> index {
        %f0 = arith.constant 0.0 : f32
        %want = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %a[%i, %k] : memref<64x64xf32>
          %y = memref.load %b[%j, %k] : memref<?x64xf32>
          %xt = func.call @tf32(%x) : (f32) -> f32
          %yt = func.call @tf32(%y) : (f32) -> f32
          %p = arith.mulf %xt, %yt : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%i, %j] : memref<64x?xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  // v(i, k) = d (1 + 2^-12), d = (i * 37 + k * 11 + seed) mod 16 - 8.
  func.func @fill(%x: memref<?x64xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c37 = arith.constant 37 : index
    %c64 = arith.constant 64 : index
    %above = arith.constant 1.000244140625 : f32
    %rows = memref.dim %x, %c0 : memref<?x64xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %u = arith.muli %i, %c37 : index
        %w = arith.muli %k, %c11 : index
        %s = arith.addi %u, %w : index
        %t = arith.addi %s, %seed : index
        %r = arith.remui %t, %c16 : index
        %d = arith.subi %r, %c8 : index
        %di = arith.index_cast %d : index to i32
        %f = arith.sitofp %di : i32 to f32
        %v = arith.mulf %f, %above : f32
        memref.store %v, %x[%i, %k] : memref<?x64xf32>
      }
    }
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a = memref.alloc() : memref<64x64xf32>
    %b128 = memref.alloc() : memref<128x64xf32>
    %b64 = memref.alloc() : memref<64x64xf32>
    %c128 = memref.alloc() : memref<64x128xf32>
    %c64 = memref.alloc() : memref<64x64xf32>
    %ad = memref.cast %a : memref<64x64xf32> to memref<?x64xf32>
    %b128d = memref.cast %b128 : memref<128x64xf32> to memref<?x64xf32>
    %b64d = memref.cast %b64 : memref<64x64xf32> to memref<?x64xf32>
    func.call @fill(%ad, %c1) : (memref<?x64xf32>, index) -> ()
    func.call @fill(%b128d, %c2) : (memref<?x64xf32>, index) -> ()
    func.call @fill(%b64d, %c3) : (memref<?x64xf32>, index) -> ()
    func.call @in_place(%a, %b128, %c128) : (memref<64x64xf32>, memref<128x64xf32>, memref<64x128xf32>) -> ()
    func.call @copied(%a, %b64, %c64) : (memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
    %c128d = memref.cast %c128 : memref<64x128xf32> to memref<64x?xf32>
    %c64d = memref.cast %c64 : memref<64x64xf32> to memref<64x?xf32>
    %bad1 = func.call @check(%a, %b128d, %c128d) : (memref<64x64xf32>, memref<?x64xf32>, memref<64x?xf32>) -> index
    %bad2 = func.call @check(%a, %b64d, %c64d) : (memref<64x64xf32>, memref<?x64xf32>, memref<64x?xf32>) -> index
    vector.print str "in_place mismatches: "
    vector.print %bad1 : index
    vector.print str "copied mismatches: "
    vector.print %bad2 : index
    %c0 = arith.constant 0 : index
    %x = memref.load %c128[%c0, %c1] : memref<64x128xf32>
    %xi = arith.fptosi %x : f32 to i32
    vector.print %xi : i32
    memref.dealloc %a : memref<64x64xf32>
    memref.dealloc %b128 : memref<128x64xf32>
    memref.dealloc %b64 : memref<64x64xf32>
    memref.dealloc %c128 : memref<64x128xf32>
    memref.dealloc %c64 : memref<64x64xf32>
    return
  }
}
