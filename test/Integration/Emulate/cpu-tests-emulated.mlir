// The GPU lowering checked with numbers on any machine: the CPU run tests
// again, each compiled by --mgpu-lower-to-gpu (block staging, lane
// distribution, named barriers, shuffles, semaphores) and run by
// --mgpu-emulate-gpu with one host thread per CUDA thread. Each must print
// what the CPU printed: the CHECK lines of each test, computed there
// independently. Left out: grid_order (interpret mode copies output blocks
// in; on the GPU, as in Pallas, an output block starts undefined) and
// mpmd_fusion (meshes with different clusters cannot share one launch).

// RUN: mgpu-run %S/../CPU/vector_add.mlir -e main --backend=emulate | FileCheck %S/../CPU/vector_add.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/scale_in_place.mlir -e main --backend=emulate | FileCheck %S/../CPU/scale_in_place.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/elementwise_2d.mlir -e main --backend=emulate | FileCheck %S/../CPU/elementwise_2d.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/row_reduction.mlir -e main --backend=emulate | FileCheck %S/../CPU/row_reduction.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/softmax.mlir -e main --backend=emulate | FileCheck %S/../CPU/softmax.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/matmul.mlir -e main --backend=emulate | FileCheck %S/../CPU/matmul.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/matmul_linalg.mlir -e main --backend=emulate | FileCheck %S/../CPU/matmul_linalg.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pipelined_edges.mlir -e main --backend=emulate | FileCheck %S/../CPU/pipelined_edges.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pipelined_revisits.mlir -e main --backend=emulate | FileCheck %S/../CPU/pipelined_revisits.mlir --match-full-lines
// Deeper pipelines: 3 and 4 buffers, fetching 2 and 3 steps ahead.
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 3/' %S/../CPU/pipelined_revisits.mlir > %t.revisits3.mlir
// RUN: mgpu-run %t.revisits3.mlir -e main --backend=emulate | FileCheck %S/../CPU/pipelined_revisits.mlir --match-full-lines
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 4/' %S/../CPU/pipelined_revisits.mlir > %t.revisits4.mlir
// RUN: mgpu-run %t.revisits4.mlir -e main --backend=emulate | FileCheck %S/../CPU/pipelined_revisits.mlir --match-full-lines
// More buffers (6) than the 4 steps, which are only known at run time.
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 6/' %S/../CPU/pipelined_edges.mlir > %t.edges6.mlir
// RUN: mgpu-run %t.edges6.mlir -e main --backend=emulate | FileCheck %S/../CPU/pipelined_edges.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/threads.mlir -e main --backend=emulate | FileCheck %S/../CPU/threads.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/cluster.mlir -e main --backend=emulate | FileCheck %S/../CPU/cluster.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/dynamic_grid.mlir -e main --backend=emulate | FileCheck %S/../CPU/dynamic_grid.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/gmem_block.mlir -e main --backend=emulate | FileCheck %S/../CPU/gmem_block.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/pallas_scratch.mlir -e main --backend=emulate | FileCheck %S/../CPU/pallas_scratch.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/mpmd_tensor_f16.mlir -e main --backend=emulate | FileCheck %S/../CPU/mpmd_tensor_f16.mlir --match-full-lines
// RUN: mgpu-run %S/../CPU/out_of_bounds.mlir -e main --backend=emulate | FileCheck %S/../CPU/out_of_bounds.mlir --match-full-lines
// RUN: mgpu-run %S/../MPMD/producer-consumer.mlir -e main --backend=emulate | FileCheck %S/../MPMD/producer-consumer.mlir
// RUN: mgpu-run %S/../MPMD/many-producers.mlir -e main --backend=emulate | FileCheck %S/../MPMD/many-producers.mlir

// RUN: mgpu-run %S/../CPU/vector_add.mlir -e main --backend=emulate --verbose 2>&1 | FileCheck %s
// CHECK: mgpu-run: backend emulate (requested)
