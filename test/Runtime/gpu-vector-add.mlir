// On a machine with an NVIDIA GPU (sm_90a: Hopper), stock mlir-runner runs
// the upstream-style vector addition with the kernel compiled to a cubin
// by ptxas, through libmgpu_cuda_runtime.so and the real driver.

// REQUIRES: cuda-device, ptxas
// RUN: mlir-opt %S/Inputs/vector-add.mlir \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=bin" \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s

// CHECK: [0,  2,  6,  12,  20,  30,  42,  56]
