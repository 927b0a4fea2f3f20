// The CPU run tests again on a GPU: every kernel compiled by --mgpu-to-binary
// and run by mgpu-run --backend=cuda must print what the CPU printed, checked
// against the same independently computed values (the CHECK lines of each
// test). Only where a CUDA driver and device answer (bench/device-check.sh
// runs these on a GPU machine).
//
// REQUIRES: cuda-device

// RUN: mgpu-run %S/../CPU/vector_add.mlir -e main --backend=cuda | FileCheck %S/../CPU/vector_add.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/scale_in_place.mlir -e main --backend=cuda | FileCheck %S/../CPU/scale_in_place.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/elementwise_2d.mlir -e main --backend=cuda | FileCheck %S/../CPU/elementwise_2d.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/row_reduction.mlir -e main --backend=cuda | FileCheck %S/../CPU/row_reduction.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/softmax.mlir -e main --backend=cuda | FileCheck %S/../CPU/softmax.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/matmul.mlir -e main --backend=cuda | FileCheck %S/../CPU/matmul.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/matmul_linalg.mlir -e main --backend=cuda | FileCheck %S/../CPU/matmul_linalg.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pipelined_edges.mlir -e main --backend=cuda | FileCheck %S/../CPU/pipelined_edges.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pipelined_revisits.mlir -e main --backend=cuda | FileCheck %S/../CPU/pipelined_revisits.mlir --match-full-lines
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 3/' %S/../CPU/pipelined_revisits.mlir > %t.revisits3.mlir
// RUN: mgpu-run %t.revisits3.mlir -e main --backend=cuda | FileCheck %S/../CPU/pipelined_revisits.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/threads.mlir -e main --backend=cuda | FileCheck %S/../CPU/threads.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/cluster.mlir -e main --backend=cuda | FileCheck %S/../CPU/cluster.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/dynamic_grid.mlir -e main --backend=cuda | FileCheck %S/../CPU/dynamic_grid.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/gmem_block.mlir -e main --backend=cuda | FileCheck %S/../CPU/gmem_block.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/grid_order.mlir -e main --backend=cuda | FileCheck %S/../CPU/grid_order.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pallas_scratch.mlir -e main --backend=cuda | FileCheck %S/../CPU/pallas_scratch.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/mpmd_tensor_f16.mlir -e main --backend=cuda | FileCheck %S/../CPU/mpmd_tensor_f16.mlir --match-full-lines
// RUN: mgpu-run %S/../MPMD/producer-consumer.mlir -e main --backend=cuda | FileCheck %S/../MPMD/producer-consumer.mlir
// RUN: mgpu-run %S/../MPMD/many-producers.mlir -e main --backend=cuda | FileCheck %S/../MPMD/many-producers.mlir

// And the backend auto picks the GPU when one answers.
// RUN: mgpu-run %S/../CPU/vector_add.mlir -e main --verbose 2>&1 | FileCheck %s
// CHECK: mgpu-run: backend cuda (a CUDA driver and device answer)
