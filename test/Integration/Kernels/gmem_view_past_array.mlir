// JAX's `x.at[pl.ds(start, k)]` may run past its array (the transposed
// ragged dot's `pl.ds(group_block_start, k)`, transposed_ragged_dot_mgpu.py
// line 99): on the GPU a view is address arithmetic and a copy's window
// clips at the array (TMA's tensor map covers the array, not the view).
// Each of 2 programs views 128 of x's 128 rows from row 32 + 64 p (past
// the end for both) and copies the view's first 64 rows to o's rows
// 64 p ..: o[r] = x[r + 32] where r + 32 < 128, else 0 (TMA's fill).
// The host backends used to refuse the unused view at run time ("subview
// runs out-of-bounds along dimension 0"). An element access through such
// a view past the array is still reported (gmem_view_past_array_access.mlir).
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

// CHECK: mismatches: 0

#whole = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
!x = memref<128x64xf32>
!view = memref<128x64xf32, strided<[64, 1], offset: ?>>
!win = memref<64x64xf32, strided<[64, 1], offset: ?>>
!tile = memref<64x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @shifted(%x: !x, %o: !x) {
    mgpu.pallas_call grid [2] ins(%x : !x) outs(%o : !x)
        in_specs [#whole] out_specs [#whole] scratch [!tile, !bar] {
    ^bb0(%xg: !x, %og: !x, %s: !tile, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %p = mgpu.program_id 0
      %row = arith.muli %p, %c64 : index
      %start = arith.addi %row, %c32 : index
      // x.at[pl.ds(start, 128)]: past x's end for every program.
      %view = memref.subview %xg[%start, 0] [128, 64] [1, 1] : !x to !view
      %xw = memref.subview %view[0, 0] [64, 64] [1, 1] : !view to !win
      mgpu.copy_gmem_to_smem %xw, %s, %bar[%c0] : !win, !tile, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.commit_smem
      %ow = memref.subview %og[%row, 0] [64, 64] [1, 1] : !x to !win
      mgpu.copy_smem_to_gmem %s, %ow : !tile, !win
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %x = memref.alloc() : !x
    %o = memref.alloc() : !x
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %k = arith.muli %r, %c64 : index
        %k1 = arith.addi %k, %c : index
        %i = arith.index_cast %k1 : index to i32
        %v = arith.sitofp %i : i32 to f32
        memref.store %v, %x[%r, %c] : !x
        memref.store %v, %o[%r, %c] : !x
      }
    }
    func.call @shifted(%x, %o) : (!x, !x) -> ()
    %bad = scf.for %r = %c0 to %c128 step %c1 iter_args(%e = %c0) -> index {
      %e2 = scf.for %c = %c0 to %c64 step %c1 iter_args(%e1 = %e) -> index {
        %inside = arith.cmpi ult, %r, %c96 : index
        %src = arith.addi %r, %c32 : index
        %safe = arith.select %inside, %src, %c0 : index
        %u = memref.load %x[%safe, %c] : !x
        %want = arith.select %inside, %u, %zero : f32
        %got = memref.load %o[%r, %c] : !x
        %ne = arith.cmpf une, %want, %got : f32
        %one = arith.select %ne, %c1, %c0 : index
        %e3 = arith.addi %e1, %one : index
        scf.yield %e3 : index
      }
      scf.yield %e2 : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    memref.dealloc %x : !x
    memref.dealloc %o : !x
    return
  }
}
