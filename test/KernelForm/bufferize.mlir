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

// mpmd_map regions see whole arrays: an aliased input is one array with
// the output (in place here, the argument being writable), and the tensor
// results chain through the outs buffers.
// CHECK-LABEL: func.func @mpmd
// CHECK-SAME: (%[[X:.+]]: memref<64xf32>)
// CHECK-NOT: memref.copy
// CHECK: mgpu.mpmd_map meshes [#{{.+}}] ins(%[[X]] : memref<64xf32>) outs(%[[X]] : memref<64xf32>) {
// CHECK-NEXT: ^bb0(%{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>):
// CHECK: return %[[X]]

// DYN-LABEL: func.func @mpmd
// DYN: mgpu.mpmd_map meshes [#{{.+}}] ins(%[[X:.+]] : memref<64xf32, strided<[?], offset: ?>>) outs(%[[X]] : memref<64xf32, strided<[?], offset: ?>>) {
// DYN-NEXT: ^bb0(%[[ARG:.+]]: memref<64xf32, strided<[?], offset: ?>>, %{{.+}}: memref<64xf32, strided<[?], offset: ?>>):
// DYN-NEXT: %[[VIEW:.+]] = memref.cast %[[ARG]] : memref<64xf32, strided<[?], offset: ?>> to memref<64xf32>
// DYN-NEXT: memref.cast
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

// -----

#g = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<() -> (0, 0)>, memory_space = gmem>

// JAX's test_input_output_aliases: GMEM blocks, the input passed again as
// the output init, ones written through the *input's* ref. The two refs are
// one array: in place when the input's buffer may be written...
// CHECK-LABEL: func.func @gmem_alias
// CHECK-SAME: (%[[A:.+]]: memref<64x64xf32>)
// CHECK-NOT: memref.copy
// CHECK: mgpu.pallas_call grid [] ins(%[[A]] : memref<64x64xf32>) outs(%[[A]] : memref<64x64xf32>)
// CHECK: return %[[A]]
func.func @gmem_alias(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %b = mgpu.pallas_call grid [] ins(%a : tensor<64x64xf32>) outs(%a : tensor<64x64xf32>)
      in_specs [#g] out_specs [#g] {
  ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %ones = arith.constant dense<1.0> : vector<64x64xf32>
    vector.transfer_write %ones, %a_ref[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  } -> tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}

// ...and, when the input is read again afterwards, in a copy that both refs
// name (the input keeps its values, as an undonated input does in JAX).
// CHECK-LABEL: func.func @gmem_alias_kept
// CHECK-SAME: (%[[A:.+]]: memref<64x64xf32>)
// CHECK: %[[COPY:.+]] = memref.alloc() {{.*}}: memref<64x64xf32>
// CHECK: memref.copy %[[A]], %[[COPY]]
// CHECK: mgpu.pallas_call grid [] ins(%[[COPY]] : memref<64x64xf32>) outs(%[[COPY]] : memref<64x64xf32>)
// CHECK: return %[[COPY]], %[[A]]
func.func @gmem_alias_kept(%a: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %b = mgpu.pallas_call grid [] ins(%a : tensor<64x64xf32>) outs(%a : tensor<64x64xf32>)
      in_specs [#g] out_specs [#g] {
  ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %ones = arith.constant dense<1.0> : vector<64x64xf32>
    vector.transfer_write %ones, %a_ref[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
  } -> tensor<64x64xf32>
  return %b, %a : tensor<64x64xf32>, tensor<64x64xf32>
}
