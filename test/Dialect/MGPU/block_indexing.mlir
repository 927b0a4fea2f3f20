// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s -split-input-file -verify-diagnostics -mgpu-expand-pipelines 2>&1 | FileCheck %s --check-prefix=EXPAND

// Squeezed and element block dimensions (JAX's None / pl.Squeezed() and
// pl.Element(n)) round-trip, and the body sees the block without its
// squeezed dimensions.

// CHECK-DAG: #mgpu.block_spec<shape = [1, 32, 128], index_map = #{{.*}}, indexing = [squeezed, blocked, blocked]>
// CHECK-DAG: #mgpu.block_spec<shape = [64], index_map = #{{.*}}, indexing = [element]>
// CHECK-DAG: #mgpu.block_spec<shape = [1], index_map = #{{.*}}, indexing = [squeezed]>

// CHECK-LABEL: func.func @batched
// CHECK: ^bb0(%{{.*}}: memref<32x128xf32, #gpu.address_space<workgroup>>)
// EXPAND-LABEL: func.func @batched
// The slot keeps the whole window, at the batch's element offset (the
// program id itself); the body gets it without the batch.
// EXPAND: %[[B:.*]] = mgpu.program_id 0
// EXPAND: %[[SLOT:.*]] = memref.view {{.*}} to memref<1x32x128xf32, #gpu.address_space<workgroup>>
// EXPAND: mgpu.copy_gmem_to_smem %{{.*}}[%[[B]], %{{.*}}, %{{.*}}], %[[SLOT]]
// EXPAND: memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<1x32x128xf32, #gpu.address_space<workgroup>> into memref<32x128xf32, #gpu.address_space<workgroup>>
#q = #mgpu.block_spec<shape = [1, 32, 128], index_map = affine_map<(b, i) -> (b, i, 0)>, indexing = [squeezed, blocked, blocked]>
func.func @batched(%x: memref<4x64x128xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<4x64x128xf32>) in_specs [#q] out_specs [] {
  ^bb0(%xs: memref<32x128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// CHECK-LABEL: func.func @sliding
// CHECK: ^bb0(%{{.*}}: memref<64xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<f32, #gpu.address_space<workgroup>>)
// EXPAND-LABEL: func.func @sliding
// An element dimension's index is the window's offset, not scaled.
// EXPAND: %[[I:.*]] = mgpu.program_id 0
// EXPAND: arith.muli %[[I]], %{{.*}} overflow<nsw> : index
// EXPAND-NOT: arith.muli %{{.*}}, %c64
// EXPAND: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}], %{{.*}} : memref<256xf32>, memref<64xf32
// EXPAND: memref.collapse_shape %{{.*}} [] : memref<1xf32, #gpu.address_space<workgroup>> into memref<f32, #gpu.address_space<workgroup>>
// EXPAND: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%[[I]]] : memref<1xf32, #gpu.address_space<workgroup>>, memref<16xf32>
#w = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i * 16)>, indexing = [element]>
#s = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>, indexing = [squeezed]>
func.func @sliding(%x: memref<256xf32>, %o: memref<16xf32>) {
  mgpu.pallas_call grid [16] ins(%x : memref<256xf32>) outs(%o : memref<16xf32>)
      in_specs [#w] out_specs [#s] {
  ^bb0(%window: memref<64xf32, #gpu.address_space<workgroup>>,
       %out: memref<f32, #gpu.address_space<workgroup>>):
  }
  return
}
