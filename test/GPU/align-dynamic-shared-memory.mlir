// RUN: mgpu-opt %s --pass-pipeline="builtin.module(gpu.module(mgpu-align-dynamic-shared-memory))" | FileCheck %s
// RUN: mgpu-opt %s --pass-pipeline="builtin.module(gpu.module(mgpu-align-dynamic-shared-memory))" | mgpu-opt | FileCheck %s

// The zero-sized shared array that upstream's gpu.dynamic_shared_memory
// lowering defines becomes an extern declaration aligned to the 1024 bytes
// of the 128-byte swizzle; other globals keep their definitions.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @table(dense<[1, 2]> : tensor<2xi32>) {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2 x i32>
// CHECK: llvm.mlir.global internal @global_zero() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @table(dense<[1, 2]> : tensor<2xi32>) {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2 x i32>
    llvm.mlir.global internal @global_zero() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  }
}
