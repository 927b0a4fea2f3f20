// The Blackwell ops on every backend: a 128x128x128 bf16 product on
// mgpu.tcgen05_mma, two K steps of 64 over a sequential grid axis, into an
// f32 accumulator in tensor memory (`accumulate` false at the first step),
// each step committed on a barrier and waited for, the accumulator read
// back with async_load_tmem; and a TMEM round trip (async_store_tmem then
// commit_tmem, as JAX's kernels write it, then async_load_tmem). Inputs
// are small integers, so every sum is exact.
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %s --match-full-lines --skip-backends=cuda
// The emulator reads a and b from their tiled, swizzled buffers as TMA
// wrote them (test/GPU/tcgen05-ptx.mlir assembles the same kernel).

#a_k = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#c_all = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(k) -> (0, 0)>>
#seq = #mgpu.compiler_params<dimension_semantics = [sequential]>
#one = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>
!acc = !mgpu.tmem<128x128xf32>
!bar = !mgpu.barrier<count = 1>

module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @matmul(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %c: memref<128x128xf32>) {
    mgpu.pallas_call grid [2]
        ins(%a, %b : memref<128x128xbf16>, memref<128x128xbf16>) outs(%c : memref<128x128xf32>)
        in_specs [#a_k, #b_k] out_specs [#c_all] scratch [!acc, !bar] params #seq {
    ^bb0(%as: memref<128x64xbf16, #smem>, %bs: memref<64x128xbf16, #smem>,
         %cs: memref<128x128xf32, #smem>, %tmem: !acc, %done: !bar):
      %c0 = arith.constant 0 : index
      %k = mgpu.program_id 0
      %later = arith.cmpi ne, %k, %c0 : index
      mgpu.tcgen05_mma %tmem, %as, %bs accumulate(%later)
          a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
          b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
          : !acc, memref<128x64xbf16, #smem>, memref<64x128xbf16, #smem>
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %tmem : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, memref<128x128xf32, #smem>
    }
    return
  }

  // c = 2 x (x + 1) through tensor memory.
  func.func @round_trip(%x: memref<128x128xf32>, %c: memref<128x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<128x128xf32>) outs(%c : memref<128x128xf32>)
        in_specs [#one] out_specs [#one] scratch [!acc] {
    ^bb0(%xs: memref<128x128xf32, #smem>, %cs: memref<128x128xf32, #smem>, %tmem: !acc):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128x128xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x128xf32, #smem>, vector<128x128xf32>
      %y = arith.addf %v, %one : vector<128x128xf32>
      mgpu.async_store_tmem %y, %tmem : vector<128x128xf32>, !acc
      mgpu.commit_tmem
      %z = mgpu.async_load_tmem %tmem : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      %w = arith.addf %z, %z : vector<128x128xf32>
      vector.transfer_write %w, %cs[%c0, %c0] {in_bounds = [true, true]}
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

  // Mismatches of c against a x b computed with scalar loops.
  func.func @check(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %f0 = arith.constant 0.0 : f32
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%m = %n) -> index {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %a[%i, %k] : memref<128x128xf32>
          %y = memref.load %b[%k, %j] : memref<128x128xf32>
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
    return %bad : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %af = memref.alloc() : memref<128x128xf32>
    %bf = memref.alloc() : memref<128x128xf32>
    %a16 = memref.alloc() : memref<128x128xbf16>
    %b16 = memref.alloc() : memref<128x128xbf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c128 step %c1 {
        %v = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        memref.store %v, %af[%i, %k] : memref<128x128xf32>
        %v16 = arith.truncf %v : f32 to bf16
        memref.store %v16, %a16[%i, %k] : memref<128x128xbf16>
        %w = func.call @small(%i, %k, %c3) : (index, index, index) -> f32
        memref.store %w, %bf[%i, %k] : memref<128x128xf32>
        %w16 = arith.truncf %w : f32 to bf16
        memref.store %w16, %b16[%i, %k] : memref<128x128xbf16>
      }
    }
    %c = memref.alloc() : memref<128x128xf32>
    func.call @matmul(%a16, %b16, %c) : (memref<128x128xbf16>, memref<128x128xbf16>, memref<128x128xf32>) -> ()
    %bad = func.call @check(%af, %bf, %c) : (memref<128x128xf32>, memref<128x128xf32>, memref<128x128xf32>) -> index
    vector.print str "tcgen05 bf16 128x128x128, mismatches: "
    vector.print %bad : index
    %v = vector.load %c[%c64, %c0] : memref<128x128xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>

    %rt = memref.alloc() : memref<128x128xf32>
    func.call @round_trip(%af, %rt) : (memref<128x128xf32>, memref<128x128xf32>) -> ()
    %r = vector.load %rt[%c1, %c0] : memref<128x128xf32>, vector<4xf32>
    vector.print str "TMEM round trip: "
    vector.print %r : vector<4xf32>
    return
  }
}
// CHECK: tcgen05 bf16 128x128x128, mismatches: 0
// CHECK-NEXT: ( 255, 128, -251, 0 )
// CHECK-NEXT: TMEM round trip: ( 0, 2, 4, 6 )
