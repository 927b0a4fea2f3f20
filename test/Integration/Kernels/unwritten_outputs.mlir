// Output elements that no block covers are undefined in Pallas. Interpret
// mode leaves them with the values the host array had; the emulator does
// the same (it copies write-only outputs to its device memory too, which
// costs nothing on the host), so that the two backends agree. A grid of one
// program writes rows 0-7 of a 100x30 output; row 50 keeps its -1s. (A fuzz
// finding: the emulator printed another checksum than interpret mode.)
// RUN: %run_on_backends %s --match-full-lines --backends=cpu,emulate

// CHECK: row 3: 6 row 50: -1

#odd = #mgpu.block_spec<shape = [8, 30], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<8x30xf32, #gpu.address_space<workgroup>>
module {
  func.func @first_rows(%x: memref<100x30xf32>, %o: memref<100x30xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<100x30xf32>) outs(%o : memref<100x30xf32>)
        in_specs [#odd] out_specs [#odd] {
    ^bb0(%xs: !blk, %os: !blk):
      %c0 = arith.constant 0 : index
      %v = vector.load %xs[%c0, %c0] : !blk, vector<8x30xf32>
      %d = arith.addf %v, %v : vector<8x30xf32>
      vector.store %d, %os[%c0, %c0] : !blk, vector<8x30xf32>
    }
    return
  }
  func.func @main() {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c50 = arith.constant 50 : index
    %three = arith.constant 3.0 : f32
    %minus = arith.constant -1.0 : f32
    %x = memref.alloc() : memref<100x30xf32>
    %o = memref.alloc() : memref<100x30xf32>
    linalg.fill ins(%three : f32) outs(%x : memref<100x30xf32>)
    linalg.fill ins(%minus : f32) outs(%o : memref<100x30xf32>)
    func.call @first_rows(%x, %o) : (memref<100x30xf32>, memref<100x30xf32>) -> ()
    %a = memref.load %o[%c3, %c5] : memref<100x30xf32>
    %b = memref.load %o[%c50, %c5] : memref<100x30xf32>
    gpu.printf "row 3: %g row 50: %g\n", %a, %b : f32, f32
    return
  }
}
