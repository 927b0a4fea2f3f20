// JAX's test_wgmma_registers_8bit (int8) and test_wgmma_mixed_fp8
// (tests/pallas/mosaic_gpu_test.py at cec06d1) on every backend:
// @int8: c = a @ b^T with a (64 x 128 s8) loaded into registers in
// Layout.WGMMA_8BIT, b stored 128 x 128 and viewed transposed
// (plgpu.transpose_ref), into an s32 accumulator, every element exact;
// @mixed: a (64 x 128 f8E4M3FN) in shared memory times b (64 x 128
// f8E5M2) transposed into f32, both holding small integers that both f8
// types represent exactly, so the sums are exact too.
// Changed from JAX: the inputs are index formulas (full s8 range, and -8..7
// for f8) instead of random keys, and the f8 values are made from f32 in
// the kernel; @int8's N is 128, not 192: s8 wgmma runs on ordinary
// instructions, and at N = 192 its 64 x 192 s32 accumulator takes all 255
// registers and spills 140 bytes (at N = 128: 92 registers, no spills);
// @mixed runs on the tensor cores (m64n64k32 e4m3 x e5m2), reading a8 and
// b8 in place with the layout JAX's warpgroup semantics infers, so the
// lanes' stores into them are followed by plgpu.commit_smem.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-assign-layouts | FileCheck %s --check-prefix=LAYOUTS
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// REQUIRES: ptxas

// The s8 operand keeps JAX's 8-bit layout; the s32 accumulator is in the
// wgmma layout.
// LAYOUTS-LABEL: func.func @int8
// LAYOUTS: mgpu.layout_cast {{.*}} to #mgpu.layout<wgmma_8bit>
// LAYOUTS: mgpu.wgmma {{.*}} : vector<64x128xi32>, vector<64x128xi8>
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#smem = #gpu.address_space<workgroup>
#a_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#b8_spec = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>>
#c8_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#bf_spec = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
#cf_spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>

module {
  func.func @int8(%a: memref<64x128xi8>, %b: memref<128x128xi8>,
                  %c: memref<64x128xi32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x128xi8>, memref<128x128xi8>)
        outs(%c : memref<64x128xi32>)
        in_specs [#a_spec, #b8_spec] out_specs [#c8_spec] {
    ^bb0(%as: memref<64x128xi8, #smem>, %bs: memref<128x128xi8, #smem>,
         %cs: memref<64x128xi32, #smem>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i8
      %zero = arith.constant dense<0> : vector<64x128xi32>
      %av = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xi8, #smem>, vector<64x128xi8>
      %regs = mgpu.layout_cast %av : vector<64x128xi8> to #mgpu.layout<wgmma_8bit>
      %bt = memref.transpose %bs (r, c) -> (c, r)
          : memref<128x128xi8, #smem> to memref<128x128xi8, strided<[1, 128]>, #smem>
      %acc = mgpu.wgmma %zero, %regs, %bt : vector<64x128xi32>, vector<64x128xi8>,
          memref<128x128xi8, strided<[1, 128]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xi32>, memref<64x128xi32, #smem>
    }
    return
  }

  func.func @mixed(%a: memref<64x128xf32>, %b: memref<64x128xf32>,
                   %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x128xf32>, memref<64x128xf32>)
        outs(%c : memref<64x64xf32>)
        in_specs [#a_spec, #bf_spec] out_specs [#cf_spec]
        scratch [memref<64x128xf8E4M3FN, #smem>, memref<64x128xf8E5M2, #smem>] {
    ^bb0(%as: memref<64x128xf32, #smem>, %bs: memref<64x128xf32, #smem>,
         %cs: memref<64x64xf32, #smem>, %a8: memref<64x128xf8E4M3FN, #smem>,
         %b8: memref<64x128xf8E5M2, #smem>):
      %c0 = arith.constant 0 : index
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
      // The tensor cores read a8 and b8 in place (their layout inferred):
      // the lanes' stores are fenced first (plgpu.commit_smem).
      mgpu.commit_smem
      %bt = memref.transpose %b8 (r, c) -> (c, r)
          : memref<64x128xf8E5M2, #smem> to memref<128x64xf8E5M2, strided<[1, 128]>, #smem>
      %acc = mgpu.wgmma %zero, %a8, %bt : vector<64x64xf32>, memref<64x128xf8E4M3FN, #smem>,
          memref<128x64xf8E5M2, strided<[1, 128]>, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // (i * 37 + j * 11 + seed) mod m - m / 2.
  func.func @value(%i: index, %j: index, %seed: index, %m: index) -> i32 {
    %c2 = arith.constant 2 : index
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %x = arith.muli %i, %c37 : index
    %y = arith.muli %j, %c11 : index
    %s = arith.addi %x, %y : index
    %t = arith.addi %s, %seed : index
    %r = arith.remui %t, %m : index
    %h = arith.divui %m, %c2 : index
    %d = arith.subi %r, %h : index
    %v = arith.index_cast %d : index to i32
    return %v : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c128n = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0 : index
    %zero_i32 = arith.constant 0 : i32

    // s8: the whole range -128..127.
    %a = memref.alloc() : memref<64x128xi8>
    %b = memref.alloc() : memref<128x128xi8>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %v = func.call @value(%i, %k, %c0, %c256) : (index, index, index, index) -> i32
        %v8 = arith.trunci %v : i32 to i8
        memref.store %v8, %a[%i, %k] : memref<64x128xi8>
      }
    }
    scf.for %j = %c0 to %c128n step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %v = func.call @value(%k, %j, %c5, %c256) : (index, index, index, index) -> i32
        %v8 = arith.trunci %v : i32 to i8
        memref.store %v8, %b[%j, %k] : memref<128x128xi8>
      }
    }
    %c = memref.alloc() : memref<64x128xi32>
    func.call @int8(%a, %b, %c) : (memref<64x128xi8>, memref<128x128xi8>, memref<64x128xi32>) -> ()
    %bad8 = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> index {
      %row = scf.for %j = %c0 to %c128n step %c1 iter_args(%m = %n) -> index {
        %want = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %c0) -> index {
          %x = memref.load %a[%i, %k] : memref<64x128xi8>
          %y = memref.load %b[%j, %k] : memref<128x128xi8>
          %xi = arith.extsi %x : i8 to i32
          %yi = arith.extsi %y : i8 to i32
          %p = arith.muli %xi, %yi : i32
          %pi = arith.index_cast %p : i32 to index
          %s2 = arith.addi %s, %pi : index
          scf.yield %s2 : index
        }
        %w = arith.index_cast %want : index to i32
        %got = memref.load %c[%i, %j] : memref<64x128xi32>
        %ne = arith.cmpi ne, %got, %w : i32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    // CHECK: int8 mismatches: 0
    vector.print str "int8 mismatches: "
    vector.print %bad8 : index
    // An all-zero result would need an all-zero reference: c[0][0] is not.
    %c00 = memref.load %c[%c0, %c0] : memref<64x128xi32>
    %c00_nonzero = arith.cmpi ne, %c00, %zero_i32 : i32
    // CHECK-NEXT: nonzero: 1
    vector.print str "nonzero: "
    vector.print %c00_nonzero : i1

    // f8: -8..7, exact in e4m3 and e5m2.
    %af = memref.alloc() : memref<64x128xf32>
    %bf = memref.alloc() : memref<64x128xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %v = func.call @value(%i, %k, %c0, %c16) : (index, index, index, index) -> i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %af[%i, %k] : memref<64x128xf32>
        %w = func.call @value(%k, %i, %c5, %c16) : (index, index, index, index) -> i32
        %g = arith.sitofp %w : i32 to f32
        memref.store %g, %bf[%i, %k] : memref<64x128xf32>
      }
    }
    %cf = memref.alloc() : memref<64x64xf32>
    func.call @mixed(%af, %bf, %cf) : (memref<64x128xf32>, memref<64x128xf32>, memref<64x64xf32>) -> ()
    %badf = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> index {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> index {
        %f0 = arith.constant 0.0 : f32
        %want = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %af[%i, %k] : memref<64x128xf32>
          %y = memref.load %bf[%j, %k] : memref<64x128xf32>
          %p = arith.mulf %x, %y : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %cf[%i, %j] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    // CHECK-NEXT: mixed f8 mismatches: 0
    vector.print str "mixed f8 mismatches: "
    vector.print %badf : index
    memref.dealloc %cf : memref<64x64xf32>
    memref.dealloc %bf : memref<64x128xf32>
    memref.dealloc %af : memref<64x128xf32>
    memref.dealloc %c : memref<64x128xi32>
    memref.dealloc %b : memref<128x128xi8>
    memref.dealloc %a : memref<64x128xi8>
    return
  }
}
