// RUN: mgpu-opt %s --mgpu-primitives-to-nvvm | FileCheck %s

// The lanes' wgmma steps, as the distribution writes them, become NVVM's
// wgmma ops: the fence, one wgmma.mma_async per step over an LLVM struct
// of the accumulator registers (K 16 for 16-bit inputs, 32 for 8-bit
// ones; a row = K-major, col = M-major; b row = N-major, col = K-major),
// the commit and the wait.

// CHECK-LABEL: func.func @steps
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 16, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 16, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: mgpu.wgmma_
func.func @steps(%acc: vector<8xf32>, %da: i64, %db: i64) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    mgpu.wgmma_fence
    %d = mgpu.wgmma_shared %acc, %da, %db a_mn_major b_mn_major {a_type = bf16, b_type = bf16} : vector<8xf32>
    %e = mgpu.wgmma_shared %d, %da, %db {a_type = f8E4M3FN, b_type = f8E5M2} : vector<8xf32>
    %f = mgpu.wgmma_shared %e, %da, %db {a_type = f32, b_type = f32} : vector<8xf32>
    mgpu.wgmma_commit_group
    mgpu.wgmma_wait_group 1
    gpu.terminator
  }
  return
}
