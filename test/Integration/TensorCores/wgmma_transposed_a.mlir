// An M-major a read in place by the tensor cores: JAX's
// `plgpu.wgmma(acc, plgpu.transpose_ref(lhs_smem, (1, 0)), rhs_smem)` of
// transposed_ragged_dot_mgpu.py (line 137), where lhs_smem holds K rows of
// M, tiled (8, 64) with the 128-byte swizzle. mgpu used to refuse the
// transforms on a transposed a ("expects a with transforms to be a
// row-major view ...") and, without them, copied a into place by the
// lanes before each MMA. Now the descriptor reads a M-major (imm-trans-a =
// 1, PTX's tnspA). Two shapes: @square (a's buffer 64 x 64, b 64 x 64) and
// @tall (a's buffer 128 x 64: K = 128 in 8 steps, b 128 x 128, N = 128),
// bf16 and f16. o = lhs^T @ rhs, small integers (exact sums).
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run --backend=emulate --emulate-schedules 2 %s | FileCheck %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: FileCheck %s --check-prefix=TALL < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// Both operands in place (no lane copy of a: no ld.shared.b16), a
// transposed (the trans-a immediate, before trans-b, is 1).
// PTX-LABEL: .entry square
// PTX-NOT: ld.shared.b16
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 1;
// TALL-LABEL: .entry tall
// TALL-NOT: ld.shared.b16
// TALL-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 1;
// CHECK: square mismatches: 0
// CHECK: tall mismatches: 0

#g64 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#g128x64 = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#g128 = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#g64x128 = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#smem = #gpu.address_space<workgroup>
!bar = !mgpu.barrier<count = 2>

module {
  func.func @square(%l: memref<64x64xbf16>, %r: memref<64x64xbf16>, %o: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%l, %r : memref<64x64xbf16>, memref<64x64xbf16>)
        outs(%o : memref<64x64xf32>) in_specs [#g64, #g64] out_specs [#g64]
        scratch [memref<64x64xbf16, #smem>, memref<64x64xbf16, #smem>, !bar] {
    ^bb0(%lg: memref<64x64xbf16>, %rg: memref<64x64xbf16>, %og: memref<64x64xf32>,
         %ls: memref<64x64xbf16, #smem>, %rs: memref<64x64xbf16, #smem>, %bars: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      mgpu.copy_gmem_to_smem %lg, %ls, %bars[%c0] transforms #sw : memref<64x64xbf16>, memref<64x64xbf16, #smem>, !bar
      mgpu.copy_gmem_to_smem %rg, %rs, %bars[%c1] transforms #sw : memref<64x64xbf16>, memref<64x64xbf16, #smem>, !bar
      mgpu.barrier_wait %bars[%c0] : !bar
      mgpu.barrier_wait %bars[%c1] : !bar
      %lt = memref.transpose %ls (r, c) -> (c, r)
          : memref<64x64xbf16, #smem> to memref<64x64xbf16, strided<[1, 64]>, #smem>
      %z = arith.constant dense<0.0> : vector<64x64xf32>
      %acc = mgpu.wgmma %z, %lt, %rs a_transforms #sw b_transforms #sw
          : vector<64x64xf32>, memref<64x64xbf16, strided<[1, 64]>, #smem>, memref<64x64xbf16, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %og[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
    }
    return
  }

  func.func @tall(%l: memref<128x64xf16>, %r: memref<128x128xf16>, %o: memref<64x128xf32>) {
    mgpu.pallas_call grid [1] ins(%l, %r : memref<128x64xf16>, memref<128x128xf16>)
        outs(%o : memref<64x128xf32>) in_specs [#g128x64, #g128] out_specs [#g64x128]
        scratch [memref<128x64xf16, #smem>, memref<128x128xf16, #smem>, !bar] {
    ^bb0(%lg: memref<128x64xf16>, %rg: memref<128x128xf16>, %og: memref<64x128xf32>,
         %ls: memref<128x64xf16, #smem>, %rs: memref<128x128xf16, #smem>, %bars: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      mgpu.copy_gmem_to_smem %lg, %ls, %bars[%c0] transforms #sw : memref<128x64xf16>, memref<128x64xf16, #smem>, !bar
      mgpu.copy_gmem_to_smem %rg, %rs, %bars[%c1] transforms #sw : memref<128x128xf16>, memref<128x128xf16, #smem>, !bar
      mgpu.barrier_wait %bars[%c0] : !bar
      mgpu.barrier_wait %bars[%c1] : !bar
      %lt = memref.transpose %ls (r, c) -> (c, r)
          : memref<128x64xf16, #smem> to memref<64x128xf16, strided<[1, 64]>, #smem>
      %z = arith.constant dense<0.0> : vector<64x128xf32>
      %acc = mgpu.wgmma %z, %lt, %rs a_transforms #sw b_transforms #sw
          : vector<64x128xf32>, memref<64x128xf16, strided<[1, 64]>, #smem>, memref<128x128xf16, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %og[%c0, %c0] {in_bounds = [true, true]} : vector<64x128xf32>, memref<64x128xf32>
    }
    return
  }

  // value(i, j) = (3 i + 5 j) mod 7 - 3
  func.func @value(%i: index, %j: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %i, %c3 : index
    %b = arith.muli %j, %c5 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c7 : index
    %n = arith.index_cast %m : index to i32
    %f = arith.sitofp %n : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %f0 = arith.constant 0.0 : f32
    // @square: l 64 x 64 (K x M), r 64 x 64 (K x N), bf16.
    %l = memref.alloc() : memref<64x64xbf16>
    %r = memref.alloc() : memref<64x64xbf16>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @value(%i, %j) : (index, index) -> f32
        %i2 = arith.addi %i, %c2 : index
        %w = func.call @value(%j, %i2) : (index, index) -> f32
        %vb = arith.truncf %v : f32 to bf16
        %wb = arith.truncf %w : f32 to bf16
        memref.store %vb, %l[%i, %j] : memref<64x64xbf16>
        memref.store %wb, %r[%i, %j] : memref<64x64xbf16>
      }
    }
    %o = memref.alloc() : memref<64x64xf32>
    func.call @square(%l, %r, %o) : (memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>) -> ()
    %n0 = scf.for %m = %c0 to %c64 step %c1 iter_args(%e = %c0) -> index {
      %n1 = scf.for %n = %c0 to %c64 step %c1 iter_args(%e1 = %e) -> index {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %f0) -> f32 {
          %a = memref.load %l[%k, %m] : memref<64x64xbf16>
          %b = memref.load %r[%k, %n] : memref<64x64xbf16>
          %af = arith.extf %a : bf16 to f32
          %bf = arith.extf %b : bf16 to f32
          %p = arith.mulf %af, %bf : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %got = memref.load %o[%m, %n] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %one = arith.select %ne, %c1, %c0 : index
        %e2 = arith.addi %e1, %one : index
        scf.yield %e2 : index
      }
      scf.yield %n1 : index
    }
    vector.print str "square mismatches: "
    vector.print %n0 : index
    // @tall: l 128 x 64 (K x M), r 128 x 128 (K x N), f16.
    %l2 = memref.alloc() : memref<128x64xf16>
    %r2 = memref.alloc() : memref<128x128xf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %w = func.call @value(%j, %i) : (index, index) -> f32
        %wh = arith.truncf %w : f32 to f16
        memref.store %wh, %r2[%i, %j] : memref<128x128xf16>
      }
      scf.for %j = %c0 to %c64 step %c1 {
        %i1 = arith.addi %i, %c1 : index
        %v = func.call @value(%i1, %j) : (index, index) -> f32
        %vh = arith.truncf %v : f32 to f16
        memref.store %vh, %l2[%i, %j] : memref<128x64xf16>
      }
    }
    %o2 = memref.alloc() : memref<64x128xf32>
    func.call @tall(%l2, %r2, %o2) : (memref<128x64xf16>, memref<128x128xf16>, memref<64x128xf32>) -> ()
    %n2 = scf.for %m = %c0 to %c64 step %c1 iter_args(%e = %c0) -> index {
      %n3 = scf.for %n = %c0 to %c128 step %c1 iter_args(%e1 = %e) -> index {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %f0) -> f32 {
          %a = memref.load %l2[%k, %m] : memref<128x64xf16>
          %b = memref.load %r2[%k, %n] : memref<128x128xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %got = memref.load %o2[%m, %n] : memref<64x128xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %one = arith.select %ne, %c1, %c0 : index
        %e2 = arith.addi %e1, %one : index
        scf.yield %e2 : index
      }
      scf.yield %n3 : index
    }
    vector.print str "tall mismatches: "
    vector.print %n2 : index
    memref.dealloc %l : memref<64x64xbf16>
    memref.dealloc %r : memref<64x64xbf16>
    memref.dealloc %o : memref<64x64xf32>
    memref.dealloc %l2 : memref<128x64xf16>
    memref.dealloc %r2 : memref<128x128xf16>
    memref.dealloc %o2 : memref<64x128xf32>
    return
  }
}
