// A manual two-slot pipeline written the way JAX kernels address slots:
// one scratch buffer of 2 x 64 x 64 and copies into and out of
// `buf.at[slot]`, a contiguous view at a dynamic offset. Step i fetches
// rows [64 (i + 1), 64 (i + 2)) of x into the other slot while it doubles
// its own slot and copies it out: y = 2 x.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | %python %mgpu_src_root/utils/extract-ptx.py | FileCheck %s --check-prefix=PTX
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
// PTX: cp.async.bulk.tensor.2d.global.shared::cta

#whole = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#smem = #gpu.address_space<workgroup>
!slot = memref<64x64xf32, strided<[64, 1], offset: ?>, #smem>

module {
  func.func @double(%x: memref<256x64xf32>, %y: memref<256x64xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<256x64xf32>) outs(%y : memref<256x64xf32>)
        in_specs [#whole] out_specs [#whole]
        scratch [memref<2x64x64xf32, #smem>, !mgpu.barrier<count = 2>] {
    ^bb0(%xg: memref<256x64xf32>, %yg: memref<256x64xf32>,
         %buf: memref<2x64x64xf32, #smem>, %bar: !mgpu.barrier<count = 2>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %first = memref.subview %buf[%c0, 0, 0] [1, 64, 64] [1, 1, 1]
          : memref<2x64x64xf32, #smem> to !slot
      mgpu.copy_gmem_to_smem %xg[0, 0], %first, %bar[%c0]
          : memref<256x64xf32>, !slot, !mgpu.barrier<count = 2>
      scf.for %i = %c0 to %c4 step %c1 {
        %slot = arith.remui %i, %c2 : index
        %next = arith.subi %c1, %slot : index
        %more = arith.cmpi ult, %i, %c3 : index
        scf.if %more {
          // The other slot's copy out (step i - 1) has read it.
          mgpu.wait_smem_to_gmem 0 read_only
          %i1 = arith.addi %i, %c1 : index
          %row = arith.muli %i1, %c64 : index
          %other = memref.subview %buf[%next, 0, 0] [1, 64, 64] [1, 1, 1]
              : memref<2x64x64xf32, #smem> to !slot
          mgpu.copy_gmem_to_smem %xg[%row, 0], %other, %bar[%next]
              : memref<256x64xf32>, !slot, !mgpu.barrier<count = 2>
        }
        %mine = memref.subview %buf[%slot, 0, 0] [1, 64, 64] [1, 1, 1]
            : memref<2x64x64xf32, #smem> to !slot
        mgpu.barrier_wait %bar[%slot] : !mgpu.barrier<count = 2>
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %mine[%c0, %c0], %pad {in_bounds = [true, true]}
            : !slot, vector<64x64xf32>
        %d = arith.addf %v, %v : vector<64x64xf32>
        vector.transfer_write %d, %mine[%c0, %c0] {in_bounds = [true, true]}
            : vector<64x64xf32>, !slot
        mgpu.commit_smem
        %row = arith.muli %i, %c64 : index
        mgpu.copy_smem_to_gmem %mine, %yg[%row, 0] : !slot, memref<256x64xf32>
      }
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %rows = arith.constant 256 : index
    %cols = arith.constant 64 : index
    %x = memref.alloc() : memref<256x64xf32>
    %y = memref.alloc() : memref<256x64xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %s = arith.addi %r, %c : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %f = arith.sitofp %mi : i32 to f32
        memref.store %f, %x[%r, %c] : memref<256x64xf32>
      }
    }
    func.call @double(%x, %y) : (memref<256x64xf32>, memref<256x64xf32>) -> ()
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %c = %c0 to %cols step %c1 iter_args(%k = %n) -> index {
        %v = memref.load %x[%r, %c] : memref<256x64xf32>
        %want = arith.addf %v, %v : f32
        %got = memref.load %y[%r, %c] : memref<256x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %k2 = arith.addi %k, %inc : index
        scf.yield %k2 : index
      }
      scf.yield %row : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    return
  }
}
// CHECK: mismatches: 0
