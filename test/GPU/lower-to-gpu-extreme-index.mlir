// An index of INT64_MIN (out of bounds, but it must compile): the alignment
// proof takes the largest power of two dividing it on the bits, without
// negating it (UBSan found the overflow with the fuzzer; check-sanitize
// runs this test in the ASan+UBSan build).
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | FileCheck %s

// CHECK: gpu.binary @k_kernel
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @k(%x: memref<256xf32>, %o: memref<256xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %min = arith.constant -9223372036854775808 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%min], %pad {in_bounds = [true]} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.transfer_write %v, %os[%c0] {in_bounds = [true]} : vector<4xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}
