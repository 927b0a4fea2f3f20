// A body whose ops carry lane layouts (`mgpu.out_layouts`, as a user or an
// earlier pass may write them): a vector<64x8xf32> in JAX's WGMMA layout,
// the smallest it holds. The host backends hold vectors whole, so the
// layouts mean nothing there; interpret mode used to refuse this kernel
// with "the wgmma layout holds a 2-D ... got 'vector<8xf32>'", the layout
// copied onto the 8-element pieces --mgpu-vectors-to-loops cuts. Every
// element is x + 1.
// RUN: %run_on_backends %s --match-full-lines

// CHECK: mismatches: 0

#b = #mgpu.block_spec<shape = [64, 8], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x8xf32, #gpu.address_space<workgroup>>
module {
  func.func @add_one(%x: memref<128x8xf32>, %o: memref<128x8xf32>) {
    mgpu.pallas_call grid [2] ins(%x : memref<128x8xf32>) outs(%o : memref<128x8xf32>)
        in_specs [#b] out_specs [#b] {
    ^bb0(%xs: !blk, %os: !blk):
      %c0 = arith.constant 0 : index
      %v = vector.load %xs[%c0, %c0] : !blk, vector<64x8xf32>
      %one = arith.constant dense<1.0> : vector<64x8xf32>
      %r = arith.addf %v, %one {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : vector<64x8xf32>
      vector.store %r, %os[%c0, %c0] : !blk, vector<64x8xf32>
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<128x8xf32>
    %o = memref.alloc() : memref<128x8xf32>
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c8 step %c1 {
        %e = arith.muli %r, %c8 : index
        %f = arith.addi %e, %c : index
        %i = arith.index_cast %f : index to i32
        %v = arith.sitofp %i : i32 to f32
        memref.store %v, %x[%r, %c] : memref<128x8xf32>
      }
    }
    func.call @add_one(%x, %o) : (memref<128x8xf32>, memref<128x8xf32>) -> ()
    %one = arith.constant 1.0 : f32
    %n = scf.for %r = %c0 to %c128 step %c1 iter_args(%a = %c0) -> index {
      %m = scf.for %c = %c0 to %c8 step %c1 iter_args(%b = %a) -> index {
        %u = memref.load %x[%r, %c] : memref<128x8xf32>
        %w = memref.load %o[%r, %c] : memref<128x8xf32>
        %want = arith.addf %u, %one : f32
        %ne = arith.cmpf une, %w, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %inc : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    memref.dealloc %x : memref<128x8xf32>
    memref.dealloc %o : memref<128x8xf32>
    return
  }
}
