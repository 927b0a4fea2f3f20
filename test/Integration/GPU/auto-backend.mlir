// Where a CUDA driver and device answer, the auto backend picks the GPU
// (every run test also runs there through %run_on_backends).
// REQUIRES: cuda-device
// RUN: mgpu-run %S/../Kernels/vector_add.mlir -e main --verbose 2>&1 | FileCheck %s
// CHECK: mgpu-run: backend cuda (a CUDA driver and device answer)
