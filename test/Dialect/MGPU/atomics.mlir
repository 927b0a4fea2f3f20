// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// mgpu.atomic_store (plgpu.atomic_add/max/min/and/or/xor) round trips with
// every kind, on global and shared refs, with a vector covering the ref's
// innermost dimensions or a single scalar element. Beside each type rule of
// atomics_invalid.mlir is the case it still accepts.

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!smem = memref<128x64xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @kinds
func.func @kinds(%g: memref<16x64xi32>, %h: memref<64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%g, %h : memref<16x64xi32>, memref<64xbf16>)
      scratch [!smem, memref<64xf16, #gpu.address_space<workgroup>>] {
  ^bb0(%g0: memref<16x64xi32>, %h0: memref<64xbf16>, %s: !smem,
       %s16: memref<64xf16, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %i = mgpu.program_id 0
    %v = arith.constant dense<1> : vector<64xi32>
    %x = arith.constant 7 : i32
    // CHECK: mgpu.atomic_store add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<64xi32>, memref<16x64xi32>
    mgpu.atomic_store add %v, %g0[%i, %c0] : vector<64xi32>, memref<16x64xi32>
    // CHECK: mgpu.atomic_store max %{{.*}} : vector<64xi32>, memref<16x64xi32>
    mgpu.atomic_store max %v, %g0[%i, %c0] : vector<64xi32>, memref<16x64xi32>
    // CHECK: mgpu.atomic_store min %{{.*}} : i32, memref<16x64xi32>
    mgpu.atomic_store min %x, %g0[%i, %c0] : i32, memref<16x64xi32>
    // CHECK: mgpu.atomic_store and %{{.*}} : i32, memref<16x64xi32>
    mgpu.atomic_store and %x, %g0[%c0, %i] : i32, memref<16x64xi32>
    // CHECK: mgpu.atomic_store or %{{.*}} : i32, memref<16x64xi32>
    mgpu.atomic_store or %x, %g0[%c0, %c0] : i32, memref<16x64xi32>
    // CHECK: mgpu.atomic_store xor %{{.*}} : vector<64xi32>, memref<16x64xi32>
    mgpu.atomic_store xor %v, %g0[%c0, %c0] : vector<64xi32>, memref<16x64xi32>
    // CHECK: mgpu.atomic_store umax %{{.*}} : vector<64xi32>, memref<16x64xi32>
    mgpu.atomic_store umax %v, %g0[%c0, %c0] : vector<64xi32>, memref<16x64xi32>
    // CHECK: mgpu.atomic_store umin %{{.*}} : i32, memref<16x64xi32>
    mgpu.atomic_store umin %x, %g0[%c0, %c0] : i32, memref<16x64xi32>
    // The whole shared buffer, as JAX's test_atomic_add stores it.
    %f = arith.constant dense<2.0> : vector<128x64xf32>
    // CHECK: mgpu.atomic_store add %{{.*}} : vector<128x64xf32>, memref<128x64xf32, #gpu.address_space<workgroup>>
    mgpu.atomic_store add %f, %s[%c0, %c0] : vector<128x64xf32>, !smem
    // f16/bf16: max and min in global memory, add in shared memory.
    %b = arith.constant dense<1.0> : vector<64xbf16>
    // CHECK: mgpu.atomic_store max %{{.*}} : vector<64xbf16>, memref<64xbf16>
    mgpu.atomic_store max %b, %h0[%c0] : vector<64xbf16>, memref<64xbf16>
    %e = arith.constant dense<1.0> : vector<64xf16>
    // CHECK: mgpu.atomic_store add %{{.*}} : vector<64xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    mgpu.atomic_store add %e, %s16[%c0] : vector<64xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    // A view of a ref (ref.at[...] in JAX).
    %row = memref.subview %g0[%i, 0] [1, 64] [1, 1] : memref<16x64xi32> to memref<64xi32, strided<[1], offset: ?>>
    // CHECK: mgpu.atomic_store add %{{.*}} : vector<64xi32>, memref<64xi32, strided<[1], offset: ?>>
    mgpu.atomic_store add %v, %row[%c0] : vector<64xi32>, memref<64xi32, strided<[1], offset: ?>>
  }
  return
}
