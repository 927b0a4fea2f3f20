// jax/experimental/pallas/ops/gpu/blackwell_matmul_mgpu.py's rings as JAX
// writes them: the stages are the leading axis of a 3-D buffer and each is
// taken as `a_smem.at[slot]` (memref.subview at the run-time slot), both
// by the TMA copies in and by tcgen05_mma, which reads its operands in place
// at that offset (the descriptors start at the slot's place in the swizzled
// buffer, found at run time). Otherwise examples/blackwell_matmul.mlir
// (a TMA producer warpgroup, an MMA issuer with the accumulator in tensor
// memory, a 4-stage ring whose stages the MMA commits release), with
// 128 x 128 tiles so that the output tile has its own shared buffer.
// RUN: %run_on_backends %s --match-full-lines --skip-backends=cuda
// REQUIRES: ptxas
// RUN: mgpu-opt %s --mgpu-to-binary="chip=sm_100a format=isa" -o %t.bin.mlir
// RUN: %extract_ptx %t.bin.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f16

#mesh = #mgpu.mesh<grid = [2, 2], grid_names = ["i", "j"], num_threads = 2, thread_name = "wg">
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!full = !mgpu.barrier<count = 4, arrivals = 2>
!empty = !mgpu.barrier<count = 4, arrivals = 1>
!done = !mgpu.barrier<count = 1, arrivals = 1>
!acc = !mgpu.tmem<128x128xf32>
// The 4 stages of a and of b (16 KiB each), a stage taken with .at[slot].
!a_ring = memref<4x128x64xbf16, #gpu.address_space<workgroup>>
!b_ring = memref<4x64x128xbf16, #gpu.address_space<workgroup>>
!a_stage = memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!b_stage = memref<64x128xbf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// The 128x128 f32 tile of c (64 KiB) on its way out.
!out = memref<128x128xf32, #gpu.address_space<workgroup>>

func.func @blackwell_matmul(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>,
                            %c: memref<256x256xf32>) {
  mgpu.mpmd_map meshes [#mesh]
      ins(%a, %b : memref<256x512xbf16>, memref<512x256xbf16>)
      outs(%c : memref<256x256xf32>)
      scratch [!a_ring, !b_ring, !out, !acc, !full, !empty, !done] {
  ^bb0(%ag: memref<256x512xbf16>, %bg: memref<512x256xbf16>,
       %cg: memref<256x256xf32>, %as: !a_ring, %bs: !b_ring, %o: !out,
       %acc: !acc, %full: !full, %empty: !empty, %done: !done):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %steps = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %i = mgpu.program_id 0
    %j = mgpu.program_id 1
    %row = arith.muli %i, %c128 : index
    %col = arith.muli %j, %c128 : index
    %wg = mgpu.axis_index "wg"
    %producer = arith.cmpi eq, %wg, %c1 : index
    scf.if %producer {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        %reuse = arith.cmpi uge, %k, %c4 : index
        scf.if %reuse {
          mgpu.barrier_wait %empty[%slot] : !empty
        }
        %kk = arith.muli %k, %c64 : index
        %a_dst = memref.subview %as[%slot, 0, 0] [1, 128, 64] [1, 1, 1] : !a_ring to !a_stage
        %b_dst = memref.subview %bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1] : !b_ring to !b_stage
        mgpu.copy_gmem_to_smem %ag[%row, %kk], %a_dst, %full[%slot]
            transforms #sw : memref<256x512xbf16>, !a_stage, !full
        mgpu.copy_gmem_to_smem %bg[%kk, %col], %b_dst, %full[%slot]
            transforms #sw : memref<512x256xbf16>, !b_stage, !full
      }
    } else {
      scf.for %k = %c0 to %steps step %c1 {
        %slot = arith.remui %k, %c4 : index
        mgpu.barrier_wait %full[%slot] : !full
        %a_src = memref.subview %as[%slot, 0, 0] [1, 128, 64] [1, 1, 1] : !a_ring to !a_stage
        %b_src = memref.subview %bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1] : !b_ring to !b_stage
        %later = arith.cmpi ne, %k, %c0 : index
        mgpu.tcgen05_mma %acc, %a_src, %b_src accumulate(%later)
            a_transforms #sw b_transforms #sw : !acc, !a_stage, !b_stage
        // The stage is free once this MMA has read it.
        mgpu.tcgen05_commit_arrive %empty[%slot] : !empty
      }
      // The epilogue: the accumulator once every MMA is done.
      mgpu.tcgen05_commit_arrive %done[%c0] : !done
      mgpu.barrier_wait %done[%c0] : !done
      %v = mgpu.async_load_tmem %acc : !acc -> vector<128x128xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<128x128xf32>, !out
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %o, %cg[%row, %col] : !out, memref<256x256xf32>
      mgpu.wait_smem_to_gmem 0
    }
  }
  return
}

// (x * mul + y) mod 7 - 3.
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
  %n = arith.constant 256 : index
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x512xbf16>
  %b = memref.alloc() : memref<512x256xbf16>
  %c = memref.alloc() : memref<256x256xf32>
  %kn = arith.constant 512 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %kn step %c1 {
      %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
      %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
      %xb = arith.truncf %x : f32 to bf16
      %yb = arith.truncf %y : f32 to bf16
      memref.store %xb, %a[%i, %k] : memref<256x512xbf16>
      memref.store %yb, %b[%k, %i] : memref<512x256xbf16>
    }
  }
  func.call @blackwell_matmul(%a, %b, %c) : (memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>) -> ()
  %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%m = %count) -> index {
      %sum = scf.for %k = %c0 to %kn step %c1 iter_args(%s = %f0) -> f32 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %got = memref.load %c[%i, %j] : memref<256x256xf32>
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
  %v = vector.load %c[%c200, %c0] : memref<256x256xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  return
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( 6, 4, -1020, 511 )
