// RUN: mgpu-opt %s --mgpu-pack-sub-byte -split-input-file | FileCheck %s

// A memref of 6-bit elements becomes an i8 memref of the same shape and
// layout, host code and kernel alike; block specs are unchanged. A read
// is a byte read truncated to 6 bits and bitcast back; a write is the
// value bitcast and zero-extended. Transfers keep their shape, mask and
// permutation.
// CHECK: #[[SPEC:.*]] = #mgpu.block_spec<shape = [64, 128], index_map = {{.*}}, transforms = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]>
// CHECK-LABEL: func.func @staged(
// CHECK-SAME: %{{.*}}: memref<64x128xi8>, %{{.*}}: memref<64x128xi8>)
// CHECK: mgpu.pallas_call grid [1] ins(%{{.*}} : memref<64x128xi8>) outs(%{{.*}} : memref<64x128xi8>)
// CHECK-SAME: in_specs [#[[SPEC]]]
// CHECK: ^bb0(%[[XS:.*]]: memref<64x128xi8, #gpu.address_space<workgroup>>, %[[OS:.*]]: memref<64x128xi8, #gpu.address_space<workgroup>>):
// CHECK: %[[PADBITS:.*]] = arith.bitcast %{{.*}} : f6E2M3FN to i6
// CHECK: %[[PAD:.*]] = arith.extui %[[PADBITS]] : i6 to i8
// CHECK: %[[READ:.*]] = vector.transfer_read %[[XS]][%{{.*}}, %{{.*}}], %[[PAD]] {in_bounds = [true, true]} : memref<64x128xi8, #gpu.address_space<workgroup>>, vector<64x128xi8>
// CHECK: %[[BITS:.*]] = arith.trunci %[[READ]] : vector<64x128xi8> to vector<64x128xi6>
// CHECK: %[[V:.*]] = arith.bitcast %[[BITS]] : vector<64x128xi6> to vector<64x128xf6E2M3FN>
// CHECK: %[[N:.*]] = arith.negf %[[V]]
// CHECK: %[[NBITS:.*]] = arith.bitcast %[[N]] : vector<64x128xf6E2M3FN> to vector<64x128xi6>
// CHECK: %[[NBYTES:.*]] = arith.extui %[[NBITS]] : vector<64x128xi6> to vector<64x128xi8>
// CHECK: vector.transfer_write %[[NBYTES]], %[[OS]]
#tiled = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>,
                          transforms = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]>
#block = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>>
func.func @staged(%x: memref<64x128xf6E2M3FN>, %o: memref<64x128xf6E2M3FN>) {
  mgpu.pallas_call grid [1] ins(%x : memref<64x128xf6E2M3FN>) outs(%o : memref<64x128xf6E2M3FN>)
      in_specs [#tiled] out_specs [#block] {
  ^bb0(%xs: memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>,
       %os: memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f6E2M3FN
    %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>, vector<64x128xf6E2M3FN>
    %n = arith.negf %v : vector<64x128xf6E2M3FN>
    vector.transfer_write %n, %os[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x128xf6E2M3FN>, memref<64x128xf6E2M3FN, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Scalar loads and stores (a lane may store one element: no other shares
// its byte), vector loads and stores, views and copies, and 6-bit views of
// byte buffers.
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[M:.*]]: memref<8x16xi8>
// CHECK: %[[B:.*]] = memref.load %[[M]][%{{.*}}, %{{.*}}] : memref<8x16xi8>
// CHECK: %[[T:.*]] = arith.trunci %[[B]] : i8 to i6
// CHECK: %[[F:.*]] = arith.bitcast %[[T]] : i6 to f6E3M2FN
// CHECK: %[[FB:.*]] = arith.bitcast %[[F]] : f6E3M2FN to i6
// CHECK: %[[W:.*]] = arith.extui %[[FB]] : i6 to i8
// CHECK: memref.store %[[W]], %[[M]][%{{.*}}, %{{.*}}] : memref<8x16xi8>
// CHECK: %[[S:.*]] = memref.subview %[[M]][2, 0] [4, 16] [1, 1] : memref<8x16xi8> to memref<4x16xi8, strided<[16, 1], offset: 32>>
// CHECK: %[[L:.*]] = vector.load %[[S]][%{{.*}}, %{{.*}}] : memref<4x16xi8, strided<[16, 1], offset: 32>>, vector<16xi8>
// CHECK: arith.trunci %[[L]] : vector<16xi8> to vector<16xi6>
// CHECK: vector.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<4x16xi8, strided<[16, 1], offset: 32>>, vector<16xi8>
// CHECK: %[[V:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<128xi8> to memref<8x16xi8>
// CHECK: memref.copy %[[M]], %[[V]] : memref<8x16xi8> to memref<8x16xi8>
func.func @host(%m: memref<8x16xf6E3M2FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %m[%c0, %c1] : memref<8x16xf6E3M2FN>
  memref.store %x, %m[%c1, %c0] : memref<8x16xf6E3M2FN>
  %s = memref.subview %m[2, 0] [4, 16] [1, 1] : memref<8x16xf6E3M2FN> to memref<4x16xf6E3M2FN, strided<[16, 1], offset: 32>>
  %v = vector.load %s[%c0, %c0] : memref<4x16xf6E3M2FN, strided<[16, 1], offset: 32>>, vector<16xf6E3M2FN>
  vector.store %v, %s[%c1, %c0] : memref<4x16xf6E3M2FN, strided<[16, 1], offset: 32>>, vector<16xf6E3M2FN>
  %bytes = memref.alloc() : memref<128xi8>
  %view = memref.view %bytes[%c0][] : memref<128xi8> to memref<8x16xf6E3M2FN>
  memref.copy %m, %view : memref<8x16xf6E3M2FN> to memref<8x16xf6E3M2FN>
  memref.dealloc %bytes : memref<128xi8>
  return
}
