// A tcgen05 MMA of 8-bit floats (tcgen05.mma.kind::f8f6f4) on every
// backend: c = a x b with a in f8E4M3FN and b in f8E5M2 (JAX lets the two
// mix), 128x128x128: K goes in 4 MMA instructions of 32, the operands in
// JAX's tiled layout with the 128-byte swizzle (128 one-byte elements to a
// swizzled row), b N-major. The inputs are integers from -3 to 3, which
// both formats hold exactly, so every sum is exact and the result is
// checked element by element against scalar loops.
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %s --match-full-lines --skip-backends=cuda
// REQUIRES: ptxas
// RUN: mgpu-opt %s --mgpu-to-binary="chip=sm_100a format=isa" -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// The instruction descriptor: f32 accumulator, a e4m3 (0), b e5m2 (1 at
// bit 10), b N-major (bit 16), N = 128 (16 << 17), M = 128 (8 << 24).
// PTX: mov.b32 [[IDESC:%r[0-9]+]], 136381456;
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4{{.*}}, [[IDESC]],
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// CHECK: mismatches: 0
// CHECK-NEXT: ( 123, -252, 3, 6 )

#t = [#mgpu.tile<[64, 128]>, #mgpu.swizzle<128>]
#a_all = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, transforms = [#mgpu.tile<[64, 128]>, #mgpu.swizzle<128>]>
#b_all = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, transforms = [#mgpu.tile<[64, 128]>, #mgpu.swizzle<128>]>
#c_all = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>
!acc = !mgpu.tmem<128x128xf32>
!bar = !mgpu.barrier<count = 1>
!a = memref<128x128xf8E4M3FN, #smem>
!b = memref<128x128xf8E5M2, #smem>

module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @matmul(%a: memref<128x128xf8E4M3FN>, %b: memref<128x128xf8E5M2>, %c: memref<128x128xf32>) {
    mgpu.pallas_call grid [1]
        ins(%a, %b : memref<128x128xf8E4M3FN>, memref<128x128xf8E5M2>) outs(%c : memref<128x128xf32>)
        in_specs [#a_all, #b_all] out_specs [#c_all] scratch [!acc, !bar] {
    ^bb0(%as: !a, %bs: !b, %cs: memref<128x128xf32, #smem>, %tmem: !acc, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      mgpu.tcgen05_mma %tmem, %as, %bs accumulate(%false)
          a_transforms #t b_transforms #t : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %tmem : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    return
  }

  // (x * mul + y) mod 7 - 3 as f32.
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

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %f0 = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<128x128xf8E4M3FN>
    %b = memref.alloc() : memref<128x128xf8E5M2>
    %c = memref.alloc() : memref<128x128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
        %x8 = arith.truncf %x : f32 to f8E4M3FN
        %y8 = arith.truncf %y : f32 to f8E5M2
        memref.store %x8, %a[%i, %k] : memref<128x128xf8E4M3FN>
        memref.store %y8, %b[%k, %i] : memref<128x128xf8E5M2>
      }
    }
    func.call @matmul(%a, %b, %c) : (memref<128x128xf8E4M3FN>, memref<128x128xf8E5M2>, memref<128x128xf32>) -> ()
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%m = %n) -> index {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
          %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
          %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %got = memref.load %c[%i, %j] : memref<128x128xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    %c100 = arith.constant 100 : index
    %v = vector.load %c[%c100, %c0] : memref<128x128xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
