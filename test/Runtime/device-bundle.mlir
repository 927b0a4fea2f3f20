// The device bundle (bench/make-device-bundle.py, bench/bundle/): every run
// test compiled ahead of time with the output it has on the CPU, run by
// run.sh on the machine it was built for.
//
// A bundle of CPU executables runs here, end to end: every test passes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/cpu --backend=cpu | FileCheck %s --check-prefix=MAKE-CPU
// RUN: env OUT=%t/cpu-results bash %t/cpu/run.sh --tests-only | FileCheck %s --check-prefix=RUN-CPU
// RUN: FileCheck %s --check-prefix=RUN-CPU < %t/cpu-results/device-results.txt
//
// A wrong result is a failure that names the line (the expected output of
// one test is changed on purpose).
// RUN: cp -r %t/cpu %t/cpu-broken
// RUN: sed -i 's/^mismatches: 0$/mismatches: 7/' %t/cpu-broken/tests/Kernels.vector_add.expected
// RUN: env OUT=%t/cpu-broken-results not bash %t/cpu-broken/run.sh --tests-only | FileCheck %s --check-prefix=BROKEN
//
// The GPU bundle, whole (the expected outputs taken from the CPU bundle) (the size check is the script's): on the mock
// driver the executables load their cubins and launch, and a benchmark
// reports its CUDA-event times (the mock does not run kernels, so the
// numbers are not checked here). peers.py compiles and dry-runs, and its
// table reads mgpu's reports.
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/gpu --expected-from %t/cpu | FileCheck %s --check-prefix=MAKE-GPU
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/gpu/MANIFEST
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda LD_LIBRARY_PATH=%t/gpu/lib %t/gpu/bench/rowsum > %t/rowsum.out 2>&1
// RUN: FileCheck %s --check-prefix=BENCH < %t/rowsum.out
// RUN: %python -m py_compile %t/gpu/peers.py
// RUN: %python %t/gpu/peers.py --dry-run | FileCheck %s --check-prefix=PEERS
// RUN: %python %t/gpu/peers.py --mgpu %t/rowsum.out | FileCheck %s --check-prefix=TABLE
//
// compare.py: numbers within the tolerance match, others do not.
// RUN: printf '1.0, 2.0\nok\n' > %t/want && printf '1.00001, 2.0\nok\n' > %t/close && printf '1.1, 2.0\nok\n' > %t/far
// RUN: %python %t/gpu/compare.py %t/want %t/close
// RUN: not %python %t/gpu/compare.py %t/want %t/far | FileCheck %s --check-prefix=FAR

// MAKE-CPU: make-device-bundle: {{.*}}cpu: {{[0-9]+}} tests, 0 benchmarks, {{.*}} MiB (cpu)
// RUN-CPU: == tests: [[#]] passed, 0 failed
// BROKEN: FAIL Kernels.vector_add: line 1: expected 'mismatches: 7', got 'mismatches: 0'
// BROKEN: == tests: {{[0-9]+}} passed, 1 failed

// MAKE-GPU: make-device-bundle: {{.*}}gpu: {{[0-9]+}} tests, 15 benchmarks, {{[0-9]+}}.{{[0-9]}} MiB (cuda)
// MANIFEST: backend cuda
// MANIFEST: test Kernels.vector_add test/Integration/Kernels/vector_add.mlir
// MANIFEST: test MPMD.producer-consumer.1 test/Integration/MPMD/producer-consumer.mlir --mpmd-form=cta-partitioned
// Run tests of examples (cat EXAMPLE DRIVER > %t.mlir) are bundled too.
// MANIFEST: test TensorCores.matmul_bf16.1 test/Integration/TensorCores/matmul_bf16.mlir --tensor-cores
// MANIFEST: bench attention bench/programs/attention.mlir
// MANIFEST-NEXT: bench attention.tensor-cores bench/programs/attention.mlir --tensor-cores
// MANIFEST-NEXT: bench layernorm bench/programs/layernorm.mlir
// MANIFEST-NEXT: bench matmul_bf16 bench/programs/matmul_bf16.mlir
// MANIFEST-NEXT: bench matmul_bf16_wgmma bench/programs/matmul_bf16_wgmma.mlir
// MANIFEST-NEXT: bench matmul_bf16_wgmma.tensor-cores bench/programs/matmul_bf16_wgmma.mlir --tensor-cores
// MANIFEST-NEXT: bench matmul_bf16_ws bench/programs/matmul_bf16_ws.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws.tensor-cores bench/programs/matmul_bf16_ws.mlir --tensor-cores
// MANIFEST-NEXT: bench matmul_bf16_ws_8192 bench/programs/matmul_bf16_ws_8192.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws_8192.tensor-cores bench/programs/matmul_bf16_ws_8192.mlir --tensor-cores
// MANIFEST-NEXT: bench matmul_bf16_ws_pipeline bench/programs/matmul_bf16_ws_pipeline.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws_pipeline.tensor-cores bench/programs/matmul_bf16_ws_pipeline.mlir --tensor-cores
// MANIFEST-NEXT: bench rowsum bench/programs/rowsum.mlir
// MANIFEST-NEXT: bench softmax bench/programs/softmax.mlir
// MANIFEST-NEXT: bench vector_add bench/programs/vector_add.mlir
// BENCH: mock: cuLaunchKernel(rowsum_kernel, grid 2048x1x1, block 128x1x1
// BENCH: rowsum 4096x4096 f32: median 0.5000 ms over 10 launches (2 warm-up), 0.03 TFLOP/s, 134.3 GB/s
// PEERS: would time matmul_bf16 8192^3 [torch]
// PEERS: would time attention 16x4096x64 [torch]
// PEERS: would time vector_add 2^26 f32 [torch]
// PEERS: would time softmax 4096x4096 f32 [jax-pallas-mgpu]
// TABLE: problem mgpu ms peer peer ms mgpu/peer
// TABLE: rowsum 4096x4096 f32 0.5000 torch - -
// FAR: line 1: expected '1.0, 2.0', got '1.1, 2.0'
