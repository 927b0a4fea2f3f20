// Copies through rank-reducing views of 4-D arrays, as JAX's
// attention_mgpu.py writes them: `q_ref.at[batch, pl.ds(q_seq_base,
// block_q), q_head]` of a (batch, seq, heads, head_dim) array, loaded with
// JAX's transforms ((8, 64) tiles, the 128-byte swizzle) and stored back
// the same way (lines 138 and 249-251); and an f32 window without
// transforms. x is (2, 128, 2, 64): grid (heads, seq blocks of 64, batch)
// as JAX's (num_q_heads, num_q_tiles, batch_size); each program copies its
// 64 x 64 window to the same place of o.
// The GPU lowering folds the views into 4-D TMA windows (boxes of one
// element along the dimensions they drop): --mgpu-to-binary used to refuse
// the tiled copy ("stores its window tiled and swizzled, which needs TMA")
// because only rank-preserving views folded.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: FileCheck %s --check-prefix=PLAIN < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// One 64-row box in and out, with coordinates (0, row, head, batch).
// PTX-LABEL: .entry tiled
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-NOT: cp.async.bulk.tensor.2d
// PTX: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group
// PLAIN-LABEL: .entry plain
// PLAIN: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PLAIN: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group

// CHECK: tiled mismatches: 0
// CHECK: plain mismatches: 0

#whole = #mgpu.block_spec<shape = [2, 128, 2, 64], index_map = affine_map<(h, s, b) -> (0, 0, 0, 0)>, memory_space = gmem>
#tiles = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
!tile = memref<64x64xf16, #gpu.address_space<workgroup>>
!ftile = memref<64x64xf32, #gpu.address_space<workgroup>>
!x = memref<2x128x2x64xf16>
!y = memref<2x128x2x64xf32>
!win = memref<64x64xf16, strided<[128, 1], offset: ?>>
!fwin = memref<64x64xf32, strided<[128, 1], offset: ?>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @tiled(%x: !x, %o: !x) {
    mgpu.pallas_call grid [2, 2, 2] ins(%x : !x) outs(%o : !x)
        in_specs [#whole] out_specs [#whole] scratch [!tile, !bar] {
    ^bb0(%xg: !x, %og: !x, %s: !tile, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %h = mgpu.program_id 0
      %q = mgpu.program_id 1
      %b = mgpu.program_id 2
      %row = arith.muli %q, %c64 : index
      %xw = memref.subview %xg[%b, %row, %h, 0] [1, 64, 1, 64] [1, 1, 1, 1]
          : !x to !win
      mgpu.copy_gmem_to_smem %xw, %s, %bar[%c0] transforms #tiles
          : !win, !tile, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.commit_smem
      %ow = memref.subview %og[%b, %row, %h, 0] [1, 64, 1, 64] [1, 1, 1, 1]
          : !x to !win
      mgpu.copy_smem_to_gmem %s, %ow transforms #tiles : !tile, !win
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @plain(%x: !y, %o: !y) {
    mgpu.pallas_call grid [2, 2, 2] ins(%x : !y) outs(%o : !y)
        in_specs [#whole] out_specs [#whole] scratch [!ftile, !bar] {
    ^bb0(%xg: !y, %og: !y, %s: !ftile, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %h = mgpu.program_id 0
      %q = mgpu.program_id 1
      %b = mgpu.program_id 2
      %row = arith.muli %q, %c64 : index
      %xw = memref.subview %xg[%b, %row, %h, 0] [1, 64, 1, 64] [1, 1, 1, 1]
          : !y to !fwin
      mgpu.copy_gmem_to_smem %xw, %s, %bar[%c0] : !fwin, !ftile, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.commit_smem
      %ow = memref.subview %og[%b, %row, %h, 0] [1, 64, 1, 64] [1, 1, 1, 1]
          : !y to !fwin
      mgpu.copy_smem_to_gmem %s, %ow : !ftile, !fwin
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %x = memref.alloc() : !x
    %o = memref.alloc() : !x
    %y = memref.alloc() : !y
    %p = memref.alloc() : !y
    %zh = arith.constant 0.0 : f16
    %zf = arith.constant 0.0 : f32
    // x = arange mod 2048 (exact in f16), y = arange.
    %n = scf.for %b = %c0 to %c2 step %c1 iter_args(%k = %c0) -> index {
      %n1 = scf.for %s = %c0 to %c128 step %c1 iter_args(%k1 = %k) -> index {
        %n2 = scf.for %h = %c0 to %c2 step %c1 iter_args(%k2 = %k1) -> index {
          %n3 = scf.for %d = %c0 to %c64 step %c1 iter_args(%k3 = %k2) -> index {
            %m = arith.remui %k3, %c2048 : index
            %i = arith.index_cast %m : index to i32
            %v = arith.sitofp %i : i32 to f16
            memref.store %v, %x[%b, %s, %h, %d] : !x
            memref.store %zh, %o[%b, %s, %h, %d] : !x
            %j = arith.index_cast %k3 : index to i32
            %w = arith.sitofp %j : i32 to f32
            memref.store %w, %y[%b, %s, %h, %d] : !y
            memref.store %zf, %p[%b, %s, %h, %d] : !y
            %k4 = arith.addi %k3, %c1 : index
            scf.yield %k4 : index
          }
          scf.yield %n3 : index
        }
        scf.yield %n2 : index
      }
      scf.yield %n1 : index
    }
    func.call @tiled(%x, %o) : (!x, !x) -> ()
    func.call @plain(%y, %p) : (!y, !y) -> ()
    %bad:2 = scf.for %b = %c0 to %c2 step %c1 iter_args(%e0 = %c0, %f0 = %c0) -> (index, index) {
      %r1:2 = scf.for %s = %c0 to %c128 step %c1 iter_args(%e1 = %e0, %f1 = %f0) -> (index, index) {
        %r2:2 = scf.for %h = %c0 to %c2 step %c1 iter_args(%e2 = %e1, %f2 = %f1) -> (index, index) {
          %r3:2 = scf.for %d = %c0 to %c64 step %c1 iter_args(%e3 = %e2, %f3 = %f2) -> (index, index) {
            %u = memref.load %x[%b, %s, %h, %d] : !x
            %w = memref.load %o[%b, %s, %h, %d] : !x
            %ne = arith.cmpf une, %u, %w : f16
            %one = arith.select %ne, %c1, %c0 : index
            %e4 = arith.addi %e3, %one : index
            %uf = memref.load %y[%b, %s, %h, %d] : !y
            %wf = memref.load %p[%b, %s, %h, %d] : !y
            %nef = arith.cmpf une, %uf, %wf : f32
            %onef = arith.select %nef, %c1, %c0 : index
            %f4 = arith.addi %f3, %onef : index
            scf.yield %e4, %f4 : index, index
          }
          scf.yield %r3#0, %r3#1 : index, index
        }
        scf.yield %r2#0, %r2#1 : index, index
      }
      scf.yield %r1#0, %r1#1 : index, index
    }
    vector.print str "tiled mismatches: "
    vector.print %bad#0 : index
    vector.print str "plain mismatches: "
    vector.print %bad#1 : index
    memref.dealloc %x : !x
    memref.dealloc %o : !x
    memref.dealloc %y : !y
    memref.dealloc %p : !y
    return
  }
}
