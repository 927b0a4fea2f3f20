// examples/matmul_bf16_dot.mlir (the matmul written with vector.contract)
// against the same scalar reference as the hand-written example, whose
// driver (test/Integration/TensorCores/matmul_bf16.mlir) it shares: on the
// tensor-core lowering its contraction becomes two wgmma per step, and on
// every backend it computes as wgmma does (--mgpu-contract-to-wgmma runs
// in every pipeline).
// RUN: cat %mgpu_src_root/examples/matmul_bf16_dot.mlir %S/matmul_bf16.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: %run_on_backends %t.mlir --match-full-lines -- --tensor-cores=0
// The tensor-core lowering has no contraction left and reads the blocks in
// place: eight m64n128k16 MMAs per step.
// RUN: mgpu-opt --mgpu-to-binary="format=isa tensor-cores=1" %mgpu_src_root/examples/matmul_bf16_dot.mlir | %extract_ptx | FileCheck %s --check-prefix=PTX
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX-NOT: wgmma.mma_async
