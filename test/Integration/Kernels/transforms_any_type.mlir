// Block transforms (plgpu.TilingTransform, SwizzleTransform(32/64/128),
// TransposeTransform) on blocks of several element types that the body
// reads and writes with ordinary vector loads and stores: a transform is
// the block's shared-memory layout, so the body's numbers do not depend on
// it. (mgpu stores a block in the transformed layout only where the tensor
// cores read it, and row-major otherwise; these blocks stay row-major.)
// f16 with a 64-byte swizzle, i8 with a 32-byte swizzle, f32 with a tiled
// 128-byte swizzle, and an f16 output tiled, transposed and swizzled.
// o = 2 x, p = 2 y, q = 2 z over two programs of 64 rows.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// CHECK: mismatches: 0 0 0

#b16 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>,
                        transforms = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<64>]>
#b8 = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (i, 0)>,
                       transforms = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<32>]>
#b32 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>,
                        transforms = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]>
#bt = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>,
                       transforms = [#mgpu.tile<[8, 64]>, #mgpu.transpose<[1, 0, 2, 3]>,
                                     #mgpu.swizzle<128>]>
!s16 = memref<64x64xf16, #gpu.address_space<workgroup>>
!s8 = memref<64x128xi8, #gpu.address_space<workgroup>>
!s32 = memref<64x64xf32, #gpu.address_space<workgroup>>

module {
  func.func @double(%x: memref<128x64xf16>, %y: memref<128x128xi8>,
                    %z: memref<128x64xf32>, %o: memref<128x64xf16>,
                    %p: memref<128x128xi8>, %q: memref<128x64xf32>) {
    mgpu.pallas_call grid [2]
        ins(%x, %y, %z : memref<128x64xf16>, memref<128x128xi8>, memref<128x64xf32>)
        outs(%o, %p, %q : memref<128x64xf16>, memref<128x128xi8>, memref<128x64xf32>)
        in_specs [#b16, #b8, #b32] out_specs [#bt, #b8, #b32] {
    ^bb0(%xs: !s16, %ys: !s8, %zs: !s32, %os: !s16, %ps: !s8, %qs: !s32):
      %c0 = arith.constant 0 : index
      %v = vector.load %xs[%c0, %c0] : !s16, vector<64x64xf16>
      %w = arith.addf %v, %v : vector<64x64xf16>
      vector.store %w, %os[%c0, %c0] : !s16, vector<64x64xf16>
      %a = vector.load %ys[%c0, %c0] : !s8, vector<64x128xi8>
      %b = arith.addi %a, %a : vector<64x128xi8>
      vector.store %b, %ps[%c0, %c0] : !s8, vector<64x128xi8>
      %e = vector.load %zs[%c0, %c0] : !s32, vector<64x64xf32>
      %f = arith.addf %e, %e : vector<64x64xf32>
      vector.store %f, %qs[%c0, %c0] : !s32, vector<64x64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<128x64xf16>
    %y = memref.alloc() : memref<128x128xi8>
    %z = memref.alloc() : memref<128x64xf32>
    // x[r][c] = (r * 64 + c) mod 1024, y[r][c] = (r + c) mod 64,
    // z[r][c] = r * 64 + c: distinct enough to see a layout mix-up.
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %rc = arith.addi %r, %c : index
        %rc64 = arith.remui %rc, %c64 : index
        %yi = arith.index_cast %rc64 : index to i8
        memref.store %yi, %y[%r, %c] : memref<128x128xi8>
      }
      scf.for %c = %c0 to %c64 step %c1 {
        %r64 = arith.muli %r, %c64 : index
        %e = arith.addi %r64, %c : index
        %ei = arith.index_cast %e : index to i32
        %ef = arith.sitofp %ei : i32 to f32
        memref.store %ef, %z[%r, %c] : memref<128x64xf32>
        %c1024 = arith.constant 1024 : index
        %em = arith.remui %e, %c1024 : index
        %emi = arith.index_cast %em : index to i32
        %emf = arith.sitofp %emi : i32 to f16
        memref.store %emf, %x[%r, %c] : memref<128x64xf16>
      }
    }
    %o = memref.alloc() : memref<128x64xf16>
    %p = memref.alloc() : memref<128x128xi8>
    %q = memref.alloc() : memref<128x64xf32>
    call @double(%x, %y, %z, %o, %p, %q)
        : (memref<128x64xf16>, memref<128x128xi8>, memref<128x64xf32>,
           memref<128x64xf16>, memref<128x128xi8>, memref<128x64xf32>) -> ()
    %izero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad:3 = scf.for %r = %c0 to %c128 step %c1
        iter_args(%n16 = %izero, %n8 = %izero, %n32 = %izero) -> (i32, i32, i32) {
      %m8 = scf.for %c = %c0 to %c128 step %c1 iter_args(%n = %n8) -> i32 {
        %a = memref.load %y[%r, %c] : memref<128x128xi8>
        %want = arith.addi %a, %a : i8
        %got = memref.load %p[%r, %c] : memref<128x128xi8>
        %ne = arith.cmpi ne, %got, %want : i8
        %inc = arith.select %ne, %one, %izero : i32
        %n2 = arith.addi %n, %inc : i32
        scf.yield %n2 : i32
      }
      %m:2 = scf.for %c = %c0 to %c64 step %c1
          iter_args(%na = %n16, %nb = %n32) -> (i32, i32) {
        %a = memref.load %x[%r, %c] : memref<128x64xf16>
        %wa = arith.addf %a, %a : f16
        %ga = memref.load %o[%r, %c] : memref<128x64xf16>
        %nea = arith.cmpf une, %ga, %wa : f16
        %ia = arith.select %nea, %one, %izero : i32
        %na2 = arith.addi %na, %ia : i32
        %b = memref.load %z[%r, %c] : memref<128x64xf32>
        %wb = arith.addf %b, %b : f32
        %gb = memref.load %q[%r, %c] : memref<128x64xf32>
        %neb = arith.cmpf une, %gb, %wb : f32
        %ib = arith.select %neb, %one, %izero : i32
        %nb2 = arith.addi %nb, %ib : i32
        scf.yield %na2, %nb2 : i32, i32
      }
      scf.yield %m#0, %m8, %m#1 : i32, i32, i32
    }
    gpu.printf "mismatches: %d %d %d\n", %bad#0, %bad#1, %bad#2 : i32, i32, i32
    return
  }
}
