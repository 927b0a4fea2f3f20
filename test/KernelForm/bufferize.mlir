// RUN: mgpu-opt %s --mgpu-bufferize -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-bufferize -split-input-file | mgpu-opt -split-input-file > /dev/null
// RUN: mgpu-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file | FileCheck %s --check-prefix=DYN
// RUN: mgpu-opt %s --mgpu-bufferize="identity-layout=false" -split-input-file | FileCheck %s --check-prefix=DYN

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>

// Tensor form to memref form: the result is the outs buffer, no copy.
// CHECK-LABEL: func.func @vector_add
// CHECK-SAME: (%[[A:.+]]: memref<1024xf32>, %[[B:.+]]: memref<1024xf32>, %[[I:.+]]: memref<1024xf32>) -> memref<1024xf32>
// CHECK-NOT: memref.copy
// CHECK: mgpu.pallas_call grid [4] ins(%[[A]], %[[B]] : memref<1024xf32>, memref<1024xf32>) outs(%[[I]] : memref<1024xf32>)
// CHECK-NOT: ->
// CHECK: return %[[I]] : memref<1024xf32>

// With upstream one-shot-bufferize and its default fully dynamic layouts,
// the op takes the strided buffers directly (staged blocks do not change).
// DYN-LABEL: func.func @vector_add
// DYN: mgpu.pallas_call grid [4] ins(%{{.+}}, %{{.+}} : memref<1024xf32, strided<[?], offset: ?>>, memref<1024xf32, strided<[?], offset: ?>>)
func.func @vector_add(%a: tensor<1024xf32>, %b: tensor<1024xf32>,
                      %init: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = mgpu.pallas_call grid [4]
      ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>)
      outs(%init : tensor<1024xf32>)
      in_specs [#b, #b] out_specs [#b] {
  ^bb0(%x: memref<256xf32, #gpu.address_space<workgroup>>,
       %y: memref<256xf32, #gpu.address_space<workgroup>>,
       %o: memref<256xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>

// Scale in place: the input is also the outs init with the same staged block
// spec, so each block is read before it is written back: no copy.
// CHECK-LABEL: func.func @scale_in_place
// CHECK-SAME: (%[[X:.+]]: memref<1024xf32>)
// CHECK-NOT: memref.alloc
// CHECK: mgpu.pallas_call grid [4] ins(%[[X]] : memref<1024xf32>) outs(%[[X]] : memref<1024xf32>)
// CHECK: return %[[X]]
func.func @scale_in_place(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = mgpu.pallas_call grid [4]
      ins(%x : tensor<1024xf32>) outs(%x : tensor<1024xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%i: memref<256xf32, #gpu.address_space<workgroup>>,
       %o: memref<256xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

#row = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#rev = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (3 - i)>>

// Aliased with different block specs (program i reads block i, writes block
// 3 - i): in place would read blocks already overwritten, so it copies.
// CHECK-LABEL: func.func @reverse_blocks
// CHECK-SAME: (%[[X:.+]]: memref<1024xf32>)
// CHECK: %[[COPY:.+]] = memref.alloc() {{.*}}: memref<1024xf32>
// CHECK: memref.copy %[[X]], %[[COPY]]
// CHECK: mgpu.pallas_call grid [4] ins(%[[X]] : memref<1024xf32>) outs(%[[COPY]] : memref<1024xf32>)
// CHECK: return %[[COPY]]
func.func @reverse_blocks(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = mgpu.pallas_call grid [4]
      ins(%x : tensor<1024xf32>) outs(%x : tensor<1024xf32>)
      in_specs [#row] out_specs [#rev] {
  ^bb0(%i: memref<256xf32, #gpu.address_space<workgroup>>,
       %o: memref<256xf32, #gpu.address_space<workgroup>>):
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["g0"]>

// mpmd_map regions see whole arrays: an aliased input is copied, and the
// tensor results chain through the outs buffers.
// CHECK-LABEL: func.func @mpmd
// CHECK-SAME: (%[[X:.+]]: memref<64xf32>)
// CHECK: %[[COPY:.+]] = memref.alloc() {{.*}}: memref<64xf32>
// CHECK: memref.copy %[[X]], %[[COPY]]
// CHECK: mgpu.mpmd_map meshes [#{{.+}}] ins(%[[X]] : memref<64xf32>) outs(%[[COPY]] : memref<64xf32>) {
// CHECK-NEXT: ^bb0(%{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>):
// CHECK: return %[[COPY]]

// DYN-LABEL: func.func @mpmd
// DYN: mgpu.mpmd_map meshes [#{{.+}}] ins(%{{.+}} : memref<64xf32, strided<[?], offset: ?>>) outs(%{{.+}} : memref<64xf32>) {
// DYN-NEXT: ^bb0(%[[ARG:.+]]: memref<64xf32, strided<[?], offset: ?>>, %{{.+}}: memref<64xf32>):
// DYN-NEXT: %[[VIEW:.+]] = memref.cast %[[ARG]] : memref<64xf32, strided<[?], offset: ?>> to memref<64xf32>
// DYN-NEXT: %[[C:.+]] = arith.constant 0 : index
// DYN-NEXT: memref.load %[[VIEW]][%[[C]]]
func.func @mpmd(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = mgpu.mpmd_map meshes [#m] ins(%x : tensor<64xf32>) outs(%x : tensor<64xf32>) {
  ^bb0(%i: memref<64xf32>, %o: memref<64xf32>):
    %c0 = arith.constant 0 : index
    %v = memref.load %i[%c0] : memref<64xf32>
    memref.store %v, %o[%c0] : memref<64xf32>
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
