// RUN: mgpu-opt %s --mgpu-primitives-to-nvvm | FileCheck %s

// A lane's mma_sync, as the distribution writes it, becomes NVVM's
// mma.sync m16n8k16 (a row-major, b column-major): f16 registers as
// vector<2xf16> pairs, bf16 ones as the i32 bits of a pair, the
// accumulator as four f32, the result read back from NVVM's struct.

// CHECK-LABEL: func.func @mma_sync
// CHECK: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.extractvalue
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NOT: mgpu.mma_sync
func.func @mma_sync(%acc: vector<4xf32>, %a: vector<8xf16>, %b: vector<4xf16>, %c: vector<8xbf16>, %d: vector<4xbf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %e = mgpu.mma_sync %acc, %a, %b : vector<8xf16>, vector<4xf16>
    %f = mgpu.mma_sync %e, %c, %d : vector<8xbf16>, vector<4xbf16>
    gpu.terminator
  }
  return
}
