// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// mgpu.async_prefetch (plgpu.async_prefetch) round trips on a whole global
// ref and on a view of one.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>

// CHECK-LABEL: func.func @prefetch
func.func @prefetch(%x: memref<64x256xf16>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<64x256xf16>) {
  ^bb0(%xg: memref<64x256xf16>):
    // CHECK: mgpu.async_prefetch %{{.*}} : memref<64x256xf16>
    mgpu.async_prefetch %xg : memref<64x256xf16>
    %w = memref.subview %xg[0, 64] [64, 64] [1, 1] : memref<64x256xf16> to memref<64x64xf16, strided<[256, 1], offset: 64>>
    // CHECK: mgpu.async_prefetch %{{.*}} : memref<64x64xf16, strided<[256, 1], offset: 64>>
    mgpu.async_prefetch %w : memref<64x64xf16, strided<[256, 1], offset: 64>>
  }
  return
}
