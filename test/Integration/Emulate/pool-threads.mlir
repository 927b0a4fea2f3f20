// The emulator's pool gives the same numbers however many host threads it
// has (MGPU_EMULATE_THREADS; by default one per core): one runs every group
// of CTAs in turn, three run clusters of two CTAs side by side, CTAs whose
// warpgroups meet at barriers and mbarriers, and programs that wait on each
// other's semaphores (all in one group, so on one host thread whatever the
// pool). The kernels and their CHECK lines are those of Kernels/.
// RUN: env MGPU_EMULATE_THREADS=1 mgpu-run %S/../Kernels/cluster.mlir -e main --backend=emulate | FileCheck %S/../Kernels/cluster.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=3 mgpu-run %S/../Kernels/cluster.mlir -e main --backend=emulate | FileCheck %S/../Kernels/cluster.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=1 mgpu-run %S/../Kernels/warp_specialized_pipeline.mlir -e main --backend=emulate | FileCheck %S/../Kernels/warp_specialized_pipeline.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=3 mgpu-run %S/../Kernels/warp_specialized_pipeline.mlir -e main --backend=emulate | FileCheck %S/../Kernels/warp_specialized_pipeline.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=1 mgpu-run %S/../Kernels/semaphore_pallas.mlir -e main --backend=emulate | FileCheck %S/../Kernels/semaphore_pallas.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=3 mgpu-run %S/../Kernels/semaphore_pallas.mlir -e main --backend=emulate | FileCheck %S/../Kernels/semaphore_pallas.mlir --match-full-lines
// RUN: env MGPU_EMULATE_THREADS=3 mgpu-run %S/../Kernels/threads.mlir -e main --backend=emulate | FileCheck %S/../Kernels/threads.mlir --match-full-lines
