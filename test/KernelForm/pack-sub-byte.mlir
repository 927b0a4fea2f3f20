// RUN: mgpu-opt %s --mgpu-pack-sub-byte -split-input-file | FileCheck %s

// A 4-bit memref becomes an i8 memref of half as many innermost elements,
// host code and kernel alike; block specs and tilings follow (the swizzle
// is in bytes already); vector reads move 2-byte pairs and bitcast them to
// 4-nibble groups.
// CHECK: #[[SPEC:.*]] = #mgpu.block_spec<shape = [64, 128], index_map = {{.*}}, transforms = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]>
// CHECK-LABEL: func.func @staged(
// CHECK-SAME: %{{.*}}: memref<64x128xi8>, %{{.*}}: memref<64x256xf32>)
// CHECK: mgpu.pallas_call grid [1] ins(%{{.*}} : memref<64x128xi8>)
// CHECK-SAME: in_specs [#[[SPEC]]]
// CHECK: ^bb0(%[[XS:.*]]: memref<64x128xi8, #gpu.address_space<workgroup>>,
// CHECK: %[[PAIRS:.*]] = memref.expand_shape %[[XS]] {{\[\[}}0], [1, 2]] output_shape [64, 64, 2]
// CHECK: %[[READ:.*]] = vector.transfer_read %[[PAIRS]][%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true, true]} : memref<64x64x2xi8, #gpu.address_space<workgroup>>, vector<64x64x2xi8>
// CHECK: %[[NIBBLES:.*]] = vector.bitcast %[[READ]] : vector<64x64x2xi8> to vector<64x64x4xi4>
// CHECK: vector.shape_cast %[[NIBBLES]] : vector<64x64x4xi4> to vector<64x256xi4>
#tiled = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>,
                          transforms = [#mgpu.tile<[8, 256]>, #mgpu.swizzle<128>]>
#block = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>>
func.func @staged(%x: memref<64x256xi4>, %o: memref<64x256xf32>) {
  mgpu.pallas_call grid [1] ins(%x : memref<64x256xi4>) outs(%o : memref<64x256xf32>)
      in_specs [#tiled] out_specs [#block] {
  ^bb0(%xs: memref<64x256xi4, #gpu.address_space<workgroup>>,
       %os: memref<64x256xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0 : i4
    %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x256xi4, #gpu.address_space<workgroup>>, vector<64x256xi4>
    %f = arith.sitofp %v : vector<64x256xi4> to vector<64x256xf32>
    vector.transfer_write %f, %os[%c0, %c0] {in_bounds = [true, true]}
        : vector<64x256xf32>, memref<64x256xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A write is the mirror image: whole bytes.
// CHECK-LABEL: func.func @write(
// CHECK: %[[GROUPS:.*]] = vector.shape_cast %{{.*}} : vector<8x16xf4E2M1FN> to vector<8x4x4xf4E2M1FN>
// CHECK: %[[BYTES:.*]] = vector.bitcast %[[GROUPS]] : vector<8x4x4xf4E2M1FN> to vector<8x4x2xi8>
// CHECK: vector.transfer_write %[[BYTES]], %{{.*}} {in_bounds = [true, true, true]} : vector<8x4x2xi8>, memref<8x16x2xi8>
func.func @write(%o: memref<8x64xf4E2M1FN>, %v: vector<8x16xf4E2M1FN>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  vector.transfer_write %v, %o[%c0, %c32] {in_bounds = [true, true]}
      : vector<8x16xf4E2M1FN>, memref<8x64xf4E2M1FN>
  return
}

// -----

// Host scalars: a load shifts the element's byte down; a store reads,
// modifies and writes it.
// CHECK-LABEL: func.func @scalars(
// CHECK: memref.alloc() : memref<4x8xi8>
// CHECK: %[[BYTE:.*]] = memref.load %{{.*}} : memref<4x8xi8>
// CHECK: %[[DOWN:.*]] = arith.shrui %[[BYTE]], %{{.*}} : i8
// CHECK: arith.trunci %[[DOWN]] : i8 to i4
// CHECK: %[[OLD:.*]] = memref.load %{{.*}} : memref<4x8xi8>
// CHECK: %[[KEPT:.*]] = arith.andi %[[OLD]], %{{.*}} : i8
// CHECK: %[[NEW:.*]] = arith.ori %[[KEPT]], %{{.*}} : i8
// CHECK: memref.store %[[NEW]], %{{.*}} : memref<4x8xi8>
func.func @scalars(%i: index, %j: index, %v: i4) -> i4 {
  %m = memref.alloc() : memref<4x16xi4>
  %x = memref.load %m[%i, %j] : memref<4x16xi4>
  memref.store %v, %m[%i, %j] : memref<4x16xi4>
  memref.dealloc %m : memref<4x16xi4>
  return %x : i4
}

// -----

// A 4-bit view of a byte buffer (a RefUnion's ref) becomes a byte view of
// half as many elements at the same byte shift.
// CHECK-LABEL: func.func @union_view(
// CHECK: %[[V:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<64x8xi8, #gpu.address_space<workgroup>>
// CHECK: vector.transfer_read %{{.*}}
func.func @union_view(%u: memref<2048xi8, #gpu.address_space<workgroup>>) -> vector<64x16xi4> {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0 : i4
  %v = memref.view %u[%c1024][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<64x16xi4, #gpu.address_space<workgroup>>
  %r = vector.transfer_read %v[%c0, %c0], %pad {in_bounds = [true, true]}
      : memref<64x16xi4, #gpu.address_space<workgroup>>, vector<64x16xi4>
  return %r : vector<64x16xi4>
}
