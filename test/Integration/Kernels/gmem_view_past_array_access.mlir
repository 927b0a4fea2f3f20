// An element access through a GMEM view that runs past its array is
// reported on the host backends, at the view (upstream's runtime check of
// memref.subview): only views that copies alone use may run past the array
// (gmem_view_past_array.mlir). Here each of 2 programs reads row 0 of
// x.at[pl.ds(32 + 64 p, 128)] with memref.load.
// RUN: not mgpu-run --backend=cpu %s 2>&1 | FileCheck %s
// RUN: not mgpu-run --backend=emulate %s 2>&1 | FileCheck %s
// CHECK: gmem_view_past_array_access.mlir:[[# @LINE + 17]]:15: error: subview runs out-of-bounds along dimension 0 (a runtime check of the host backends)

#whole = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
!x = memref<128x64xf32>
!view = memref<128x64xf32, strided<[64, 1], offset: ?>>

module {
  func.func @shifted(%x: !x, %o: !x) {
    mgpu.pallas_call grid [2] ins(%x : !x) outs(%o : !x)
        in_specs [#whole] out_specs [#whole] {
    ^bb0(%xg: !x, %og: !x):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %p = mgpu.program_id 0
      %row = arith.muli %p, %c64 : index
      %start = arith.addi %row, %c32 : index
      %view = memref.subview %xg[%start, 0] [128, 64] [1, 1] : !x to !view
      %v = memref.load %view[%c0, %c0] : !view
      memref.store %v, %og[%row, %c0] : !x
    }
    return
  }

  func.func @main() {
    %x = memref.alloc() : !x
    %o = memref.alloc() : !x
    func.call @shifted(%x, %o) : (!x, !x) -> ()
    memref.dealloc %x : !x
    memref.dealloc %o : !x
    return
  }
}
