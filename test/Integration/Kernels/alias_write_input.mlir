// input_output_aliases in tensor form, as in Pallas: the input is passed
// again as the output init, and the body writes through the *input's* ref.
// The two refs are one buffer (as the array is one in global memory), so
// the write is the output: every element doubles, on every backend.
// RUN: %run_on_backends %s --match-full-lines

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
module {
  func.func @k(%x: tensor<256xf32>) -> tensor<256xf32> {
    %out = mgpu.pallas_call grid [2] ins(%x : tensor<256xf32>) outs(%x : tensor<256xf32>)
        in_specs [#b] out_specs [#b] {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %r = arith.addf %v, %v : vector<128xf32>
      vector.transfer_write %r, %xs[%c0] {in_bounds = [true]} : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<256xf32>
    return %out : tensor<256xf32>
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 256 : index
    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    %xt = bufferization.to_tensor %x restrict : memref<256xf32> to tensor<256xf32>
    %ot = func.call @k(%xt) : (tensor<256xf32>) -> tensor<256xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<256xf32> to memref<256xf32>
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
      %got = memref.load %o[%i] : memref<256xf32>
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %want = arith.addf %f, %f : f32
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %count, %inc : index
      scf.yield %next : index
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : index
    // CHECK-NEXT: 400
    %c200 = arith.constant 200 : index
    %e = memref.load %o[%c200] : memref<256xf32>
    vector.print %e : f32
    return
  }
}
