// Column slices of a TMEM buffer (mgpu.tmem_slice, JAX's
// `acc_tmem.at[:, pl.ds(slot * n, n)]`) on every backend: one 128x256
// accumulator holds two 128-column slots, at dynamic columns; one MMA
// into each, a x b for each 128-row half of a, then after one commit a
// loop over the slots (a dynamic column) reads each back in two
// 64-column slices (static slices of the dynamic one, as JAX's epilogue
// reads its accumulator a tile at a time) into its rows of c. Inputs are
// small integers, so every sum is exact.
// sm_100a code: not on the cuda backend, whose device may be a Hopper GPU
// (no Blackwell device has checked these numbers yet).
// RUN: %run_on_backends %s --match-full-lines --skip-backends=cuda
// RUN: mgpu-opt %s --mgpu-to-binary="chip=sm_100a format=isa" -o /dev/null

// CHECK: mismatches: 0
// CHECK-NEXT: ( {{.*}} )

#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
#a_all = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#b_all = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#c_all = #mgpu.block_spec<shape = [256, 128], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>
!acc = !mgpu.tmem<128x256xf32>
!slot = !mgpu.tmem<128x128xf32>
!tile = !mgpu.tmem<128x64xf32>
!bar = !mgpu.barrier<count = 1>
!a = memref<256x64xbf16, #smem>
!a_top = memref<128x64xbf16, strided<[64, 1]>, #smem>
!a_bot = memref<128x64xbf16, strided<[64, 1], offset: 8192>, #smem>
!b = memref<64x128xbf16, #smem>
!c = memref<256x128xf32, #smem>

module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @two_slots(%a: memref<256x64xbf16>, %b: memref<64x128xbf16>, %c: memref<256x128xf32>) {
    mgpu.pallas_call grid [1]
        ins(%a, %b : memref<256x64xbf16>, memref<64x128xbf16>) outs(%c : memref<256x128xf32>)
        in_specs [#a_all, #b_all] out_specs [#c_all] scratch [!acc, !bar] {
    ^bb0(%as: !a, %bs: !b, %cs: !c, %tmem: !acc, %done: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %false = arith.constant false
      // The slots' columns, dynamic (the program id is 0).
      %p = mgpu.program_id 0
      %col0 = arith.muli %p, %c128 : index
      %col1 = arith.addi %col0, %c128 : index
      %slot0 = mgpu.tmem_slice %tmem[%col0] : !acc -> !slot
      %slot1 = mgpu.tmem_slice %tmem[%col1] : !acc -> !slot
      %top = memref.subview %as[0, 0] [128, 64] [1, 1] : !a to !a_top
      %bot = memref.subview %as[128, 0] [128, 64] [1, 1] : !a to !a_bot
      mgpu.tcgen05_mma %slot0, %top, %bs accumulate(%false)
          a_transforms #t b_transforms #t : !slot, !a_top, !b
      mgpu.tcgen05_mma %slot1, %bot, %bs accumulate(%false)
          a_transforms #t b_transforms #t : !slot, !a_bot, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      scf.for %s = %c0 to %c2 step %c1 {
        %col = arith.muli %s, %c128 : index
        %slot = mgpu.tmem_slice %tmem[%col] : !acc -> !slot
        %rows = arith.muli %s, %c128 : index
        scf.for %t = %c0 to %c2 step %c1 {
          %tcol = arith.muli %t, %c64 : index
          %tile = mgpu.tmem_slice %slot[%tcol] : !slot -> !tile
          %v = mgpu.async_load_tmem %tile : !tile -> vector<128x64xf32>
          mgpu.wait_load_tmem
          vector.transfer_write %v, %cs[%rows, %tcol] {in_bounds = [true, true]}
              : vector<128x64xf32>, !c
        }
      }
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
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<256x64xbf16>
    %b = memref.alloc() : memref<64x128xbf16>
    %c = memref.alloc() : memref<256x128xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %xb = arith.truncf %x : f32 to bf16
        memref.store %xb, %a[%i, %k] : memref<256x64xbf16>
      }
    }
    scf.for %k = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %yb = arith.truncf %y : f32 to bf16
        memref.store %yb, %b[%k, %j] : memref<64x128xbf16>
      }
    }
    func.call @two_slots(%a, %b, %c) : (memref<256x64xbf16>, memref<64x128xbf16>, memref<256x128xf32>) -> ()
    %bad = scf.for %i = %c0 to %c256 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%m = %n) -> index {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %f0) -> f32 {
          %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
          %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %got = memref.load %c[%i, %j] : memref<256x128xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    %c200 = arith.constant 200 : index
    %v = vector.load %c[%c200, %c64] : memref<256x128xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    return
  }
}
