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
// RUN: sed -i 's/^mismatches: 0$/mismatches: 7/' %t/cpu/tests/Kernels.vector_add.expected
// RUN: env OUT=%t/cpu-broken not bash %t/cpu/run.sh --tests-only | FileCheck %s --check-prefix=BROKEN
//
// The GPU bundle (one test and the benchmarks here, to keep this test short)
// with the mock driver: the executables load their cubins and launch, and
// the benchmark reports its CUDA-event times.
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/gpu --only '^Kernels\.vector_add$' | FileCheck %s --check-prefix=MAKE-GPU
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/gpu/MANIFEST
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda LD_LIBRARY_PATH=%t/gpu/lib %t/gpu/bench/vector_add 2>&1 | FileCheck %s --check-prefix=BENCH
// RUN: %python %t/gpu/peers.py --dry-run | FileCheck %s --check-prefix=PEERS
//
// compare.py: numbers within the tolerance match, others do not.
// RUN: printf '1.0, 2.0\nok\n' > %t/want && printf '1.00001, 2.0\nok\n' > %t/close && printf '1.1, 2.0\nok\n' > %t/far
// RUN: %python %t/gpu/compare.py %t/want %t/close
// RUN: not %python %t/gpu/compare.py %t/want %t/far | FileCheck %s --check-prefix=FAR

// MAKE-CPU: make-device-bundle: {{.*}}cpu: {{[0-9]+}} tests, 0 benchmarks, {{.*}} MiB (cpu)
// RUN-CPU: == tests: [[#]] passed, 0 failed
// BROKEN: FAIL Kernels.vector_add: line 1: expected 'mismatches: 7', got 'mismatches: 0'
// BROKEN: == tests: {{[0-9]+}} passed, 1 failed

// MAKE-GPU: make-device-bundle: {{.*}}gpu: 1 tests, 1 benchmarks, {{.*}} MiB (cuda)
// MANIFEST: backend cuda
// MANIFEST-NEXT: test Kernels.vector_add test/Integration/Kernels/vector_add.mlir
// MANIFEST-NEXT: bench vector_add bench/programs/vector_add.mlir
// BENCH: mock: cuLaunchKernel(vector_add_kernel, grid 4096x1x1, block 128x1x1
// BENCH: vector_add 2^24 f32: median 0.5000 ms over 10 launches (2 warm-up), 0.03 TFLOP/s, 402.7 GB/s
// PEERS: would time vector_add 2^24 f32 [torch]
// PEERS: would time vector_add 2^24 f32 [jax-pallas-mgpu]
// FAR: line 1: expected '1.0, 2.0', got '1.1, 2.0'
