// Shared buffers filled by copy_gmem_to_smem with JAX's transforms ((8, C)
// tiles of 128 bytes, the 128-byte swizzle) and then read without naming
// them, shaped after JAX's tests/pallas/mosaic_gpu_test.py:
//  - @copy_out: a buffer filled with transforms, copied out whole by a
//    copy_smem_to_gmem that names none (test_copy_with_transforms with the
//    transforms on the SMEM ref, here on the copy in: mgpu names them per
//    op). x is f32 128 x 128.
//  - @multicast: test_tma_load_multicast with collective_dims = ("x",) of
//    size 2: both CTAs of the cluster multicast a 16 x 64 f16 window into
//    their buffer, then each copies its own 8-row slice out (a slice of
//    whole tiles, also without transforms).
//  - @peer_read: the same multicast buffer read only through
//    mgpu.cluster_ref (each CTA reads its peer's copy with vector loads).
// The copies out used to read the buffer row-major where the copy in had
// swizzled it: 1,792 to 7,168 mismatches on emulate (and on cpu, whose
// buffers are now laid out as the GPU's). --mgpu-propagate-transforms gives
// the copies out the buffer's transforms; where the lanes read the
// elements, the buffer stays row-major instead.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// The copy out of @copy_out: TMA stores from the tiled buffer, one per
// (128-row) box of each of the two tile columns.
// PTX-LABEL: .entry copy_out
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX: cp.async.bulk.commit_group

// CHECK: copy_out mismatches: 0
// CHECK: multicast mismatches: 0
// CHECK: peer_read mismatches: 0

#g128 = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#f32_tiles = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]
#f16_tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#cluster = #mgpu.mesh<grid = [2], grid_names = ["grid_x"], cluster = [2], cluster_names = ["x"]>
#g16 = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(g, x) -> (0, 0)>, memory_space = gmem>
#g32 = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(g, x) -> (0, 0)>, memory_space = gmem>
!f32buf = memref<128x128xf32, #gpu.address_space<workgroup>>
!f16buf = memref<16x64xf16, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @copy_out(%x: memref<128x128xf32>, %o: memref<128x128xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<128x128xf32>) outs(%o : memref<128x128xf32>)
        in_specs [#g128] out_specs [#g128] scratch [!f32buf, !bar] {
    ^bb0(%xg: memref<128x128xf32>, %og: memref<128x128xf32>, %s: !f32buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #f32_tiles
          : memref<128x128xf32>, !f32buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %s, %og : !f32buf, memref<128x128xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // out has the input's shape: each cluster g writes the window to rows
  // 16 g .. 16 g + 15, CTA x its 8-row half.
  func.func @multicast(%x: memref<16x64xf16>, %o: memref<32x64xf16>) {
    mgpu.pallas_call grid [2, 2] ins(%x : memref<16x64xf16>) outs(%o : memref<32x64xf16>)
        in_specs [#g16] out_specs [#g32] scratch [!f16buf, !bar] mesh #cluster {
    ^bb0(%xg: memref<16x64xf16>, %og: memref<32x64xf16>, %s: !f16buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %g = mgpu.axis_index "grid_x"
      %x_idx = mgpu.axis_index "x"
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #f16_tiles
          collective_axes ["x"] : memref<16x64xf16>, !f16buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.commit_smem
      %row = arith.muli %x_idx, %c8 : index
      %slice = memref.subview %s[%row, 0] [8, 64] [1, 1]
          : !f16buf to memref<8x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %g16r = arith.muli %g, %c16 : index
      %orow = arith.addi %g16r, %row : index
      mgpu.copy_smem_to_gmem %slice, %og[%orow, 0]
          : memref<8x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32x64xf16>
      mgpu.wait_smem_to_gmem 0
      // Neither CTA may exit while the other's multicast may still land.
      mgpu.cluster_sync
    }
    return
  }

  // Each CTA reads its peer's copy of the window through DSMEM and writes
  // it out with vector stores (cluster g, CTA x: rows 16 g + 8 x.. of its
  // peer's view).
  func.func @peer_read(%x: memref<16x64xf16>, %o: memref<32x64xf16>) {
    mgpu.pallas_call grid [2, 2] ins(%x : memref<16x64xf16>) outs(%o : memref<32x64xf16>)
        in_specs [#g16] out_specs [#g32] scratch [!f16buf, !bar] mesh #cluster {
    ^bb0(%xg: memref<16x64xf16>, %og: memref<32x64xf16>, %s: !f16buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %pad = arith.constant 0.0 : f16
      %g = mgpu.axis_index "grid_x"
      %x_idx = mgpu.axis_index "x"
      %other = arith.subi %c1, %x_idx : index
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #f16_tiles
          collective_axes ["x"] : memref<16x64xf16>, !f16buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.cluster_sync
      %peer = mgpu.cluster_ref %s[%other] along ["x"] : !f16buf -> memref<16x64xf16>
      %row = arith.muli %x_idx, %c8 : index
      %v = vector.transfer_read %peer[%row, %c0], %pad {in_bounds = [true, true]}
          : memref<16x64xf16>, vector<8x64xf16>
      %g16r = arith.muli %g, %c16 : index
      %orow = arith.addi %g16r, %row : index
      vector.transfer_write %v, %og[%orow, %c0] {in_bounds = [true, true]}
          : vector<8x64xf16>, memref<32x64xf16>
      mgpu.cluster_sync
    }
    return
  }

  // The number of elements of `got` (rows x cols) that differ from `want`
  // at row r mod `period`.
  func.func @count_f32(%want: memref<128x128xf32>, %got: memref<128x128xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = scf.for %r = %c0 to %c128 step %c1 iter_args(%a = %c0) -> index {
      %m = scf.for %c = %c0 to %c128 step %c1 iter_args(%b = %a) -> index {
        %u = memref.load %want[%r, %c] : memref<128x128xf32>
        %w = memref.load %got[%r, %c] : memref<128x128xf32>
        %ne = arith.cmpf une, %u, %w : f32
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    return %n : index
  }

  func.func @count_f16(%want: memref<16x64xf16>, %got: memref<32x64xf16>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %n = scf.for %r = %c0 to %c32 step %c1 iter_args(%a = %c0) -> index {
      %m = scf.for %c = %c0 to %c64 step %c1 iter_args(%b = %a) -> index {
        %rr = arith.remui %r, %c16 : index
        %u = memref.load %want[%rr, %c] : memref<16x64xf16>
        %w = memref.load %got[%r, %c] : memref<32x64xf16>
        %ne = arith.cmpf une, %u, %w : f16
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    return %n : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    // x = arange(128 * 128) (exact in f32), y = arange(16 * 64) mod 2048
    // (exact in f16).
    %x = memref.alloc() : memref<128x128xf32>
    %o = memref.alloc() : memref<128x128xf32>
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %e = arith.muli %r, %c128 : index
        %f = arith.addi %e, %c : index
        %i = arith.index_cast %f : index to i32
        %v = arith.sitofp %i : i32 to f32
        memref.store %v, %x[%r, %c] : memref<128x128xf32>
      }
    }
    func.call @copy_out(%x, %o) : (memref<128x128xf32>, memref<128x128xf32>) -> ()
    %n0 = func.call @count_f32(%x, %o) : (memref<128x128xf32>, memref<128x128xf32>) -> index
    vector.print str "copy_out mismatches: "
    vector.print %n0 : index

    %y = memref.alloc() : memref<16x64xf16>
    scf.for %r = %c0 to %c16 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %e = arith.muli %r, %c64 : index
        %f = arith.addi %e, %c : index
        %m = arith.remui %f, %c2048 : index
        %i = arith.index_cast %m : index to i32
        %v = arith.sitofp %i : i32 to f16
        memref.store %v, %y[%r, %c] : memref<16x64xf16>
      }
    }
    %p = memref.alloc() : memref<32x64xf16>
    func.call @multicast(%y, %p) : (memref<16x64xf16>, memref<32x64xf16>) -> ()
    %n1 = func.call @count_f16(%y, %p) : (memref<16x64xf16>, memref<32x64xf16>) -> index
    vector.print str "multicast mismatches: "
    vector.print %n1 : index

    %q = memref.alloc() : memref<32x64xf16>
    func.call @peer_read(%y, %q) : (memref<16x64xf16>, memref<32x64xf16>) -> ()
    %n2 = func.call @count_f16(%y, %q) : (memref<16x64xf16>, memref<32x64xf16>) -> index
    vector.print str "peer_read mismatches: "
    vector.print %n2 : index
    memref.dealloc %x : memref<128x128xf32>
    memref.dealloc %o : memref<128x128xf32>
    memref.dealloc %y : memref<16x64xf16>
    memref.dealloc %p : memref<32x64xf16>
    memref.dealloc %q : memref<32x64xf16>
    return
  }
}
