// The device bundle (bench/make-device-bundle.py, bench/bundle/): every run
// test compiled ahead of time with the output it has on the CPU, and every
// benchmark, run by run.sh on the machine it was built for within one
// deadline, leaving $OUT/summary.txt and $OUT/results.tar.gz only. For CI's
// time, the bundles here hold four tests of each kind (plain, mpmd with a
// form, tensor cores) and two benchmarks (one with a variant); `make
// device-bundle`, a step of .ci/run, builds all.
//
// A bundle of CPU executables runs here, end to end: every test passes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/cpu --backend=cpu --only '^(Kernels\.vector_add|Kernels\.softmax|MPMD\.producer-consumer\.1|TensorCores\.matmul_bf16\.1)$' | FileCheck %s --check-prefix=MAKE-CPU
// RUN: env OUT=%t/cpu-results bash %t/cpu/run.sh --tests-only | FileCheck %s --check-prefix=RUN-CPU
// RUN: FileCheck %s --check-prefix=RUN-CPU < %t/cpu-results/summary.txt
// RUN: ls -A %t/cpu-results | FileCheck %s --check-prefix=OUT
//
// A wrong result is a failure that names the line (the expected output of
// one test of two is changed on purpose).
// RUN: cp -r %t/cpu %t/cpu-broken
// RUN: find %t/cpu-broken/tests -type f ! -name 'Kernels.vector_add*' ! -name 'Kernels.softmax*' -delete
// RUN: sed -i 's/^mismatches: 0$/mismatches: 7/' %t/cpu-broken/tests/Kernels.vector_add.expected
// RUN: env OUT=%t/cpu-broken-results not bash %t/cpu-broken/run.sh --tests-only | FileCheck %s --check-prefix=BROKEN
//
// The GPU bundle (the expected outputs taken from the CPU bundle; the size
// check is the script's). On the mock driver the executables load their
// cubins and launch, and a benchmark reports its CUDA-event times (the mock
// does not run kernels, so the numbers are not checked here).
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/gpu --expected-from %t/cpu --only '^(Kernels\.vector_add|Kernels\.softmax|MPMD\.producer-consumer\.1|TensorCores\.matmul_bf16\.1)$' --only-bench '^(attention|rowsum)$' | FileCheck %s --check-prefix=MAKE-GPU
// RUN: FileCheck %s --check-prefix=BUILT < %t/gpu/MANIFEST
// The whole bundle's MANIFEST, printed without building it: every test
// and benchmark (`make device-bundle` builds them, a step of .ci/run).
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/all --manifest-only > %t/all-MANIFEST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/all-MANIFEST
// RUN: not ls %t/all %t/all.partial
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda LD_LIBRARY_PATH=%t/gpu/lib %t/gpu/bench/rowsum > %t/rowsum.out 2>&1
// RUN: FileCheck %s --check-prefix=BENCH < %t/rowsum.out
// RUN: %python -m py_compile %t/gpu/peers.py %t/gpu/report.py
// RUN: %python %t/gpu/peers.py --dry-run | FileCheck %s --check-prefix=PEERS
// RUN: %python %t/gpu/peers.py --plan %t/all-MANIFEST | FileCheck %s --check-prefix=PLAN
//
// compare.py: numbers within the tolerance match, others do not; counts
// match exactly; bf16 values one unit in the last place apart match.
// RUN: printf '1.0, 2.0\nok\n' > %t/want && printf '1.00001, 2.0\nok\n' > %t/close && printf '1.1, 2.0\nok\n' > %t/far
// RUN: %python %t/gpu/compare.py %t/want %t/close
// RUN: not %python %t/gpu/compare.py %t/want %t/far | FileCheck %s --check-prefix=FAR
// RUN: printf '1.0078125, 2.0\nok\n' > %t/ulp && printf '1.015625, 2.0\nok\n' > %t/ulp2
// RUN: %python %t/gpu/compare.py %t/want %t/ulp
// RUN: not %python %t/gpu/compare.py %t/want %t/ulp2
// RUN: printf 'mismatches: 100000\n' > %t/count && printf 'mismatches: 100001\n' > %t/count1
// RUN: not %python %t/gpu/compare.py %t/count %t/count1

// MAKE-CPU: make-device-bundle: {{.*}}cpu: 4 tests, 0 benchmarks, {{.*}} MiB (cpu)
// RUN-CPU: == Tests: [[#]] passed, 0 failed, 0 timed out, 0 not run (of [[#]] in the bundle)
// OUT: {{^}}results.tar.gz{{$}}
// OUT-NEXT: {{^}}summary.txt{{$}}
// OUT-NOT: {{.}}
// BROKEN: FAIL Kernels.vector_add: line 1: expected 'mismatches: 7', got 'mismatches: 0'
// BROKEN: == Tests: 1 passed, 1 failed, 0 timed out, 0 not run (of 2 in the bundle)

// MAKE-GPU: make-device-bundle: {{.*}}gpu: 4 tests, 3 benchmarks, {{[0-9]+}}.{{[0-9]}} MiB (cuda)
// BUILT: backend cuda
// BUILT-NEXT: test Kernels.softmax
// BUILT-NEXT: test Kernels.vector_add
// BUILT-NEXT: test MPMD.producer-consumer.1
// BUILT-NEXT: test TensorCores.matmul_bf16.1
// BUILT-NEXT: bench attention bench/programs/attention.mlir
// BUILT-NEXT: bench attention.tensor-cores-0 bench/programs/attention.mlir --tensor-cores=0
// BUILT-NEXT: bench rowsum bench/programs/rowsum.mlir
// BUILT-NOT: {{.}}
// MANIFEST: backend cuda
// MANIFEST: test Kernels.vector_add test/Integration/Kernels/vector_add.mlir
// MANIFEST: test MPMD.producer-consumer.1 test/Integration/MPMD/producer-consumer.mlir --mpmd-form=cta-partitioned
// Run tests of examples (cat EXAMPLE DRIVER > %t.mlir) are bundled too.
// MANIFEST: test TensorCores.matmul_bf16.1 test/Integration/TensorCores/matmul_bf16.mlir --tensor-cores=0
// MANIFEST: bench attention bench/programs/attention.mlir
// MANIFEST-NEXT: bench attention.tensor-cores-0 bench/programs/attention.mlir --tensor-cores=0
// MANIFEST-NEXT: bench layernorm bench/programs/layernorm.mlir
// MANIFEST-NEXT: bench matmul_bf16 bench/programs/matmul_bf16.mlir
// MANIFEST-NEXT: bench matmul_bf16_wgmma bench/programs/matmul_bf16_wgmma.mlir
// MANIFEST-NEXT: bench matmul_bf16_wgmma.tensor-cores-0 bench/programs/matmul_bf16_wgmma.mlir --tensor-cores=0
// MANIFEST-NEXT: bench matmul_bf16_ws bench/programs/matmul_bf16_ws.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws.tensor-cores-0 bench/programs/matmul_bf16_ws.mlir --tensor-cores=0
// MANIFEST-NEXT: bench matmul_bf16_ws_8192 bench/programs/matmul_bf16_ws_8192.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws_8192.tensor-cores-0 bench/programs/matmul_bf16_ws_8192.mlir --tensor-cores=0
// MANIFEST-NEXT: bench matmul_bf16_ws_pipeline bench/programs/matmul_bf16_ws_pipeline.mlir
// MANIFEST-NEXT: bench matmul_bf16_ws_pipeline.tensor-cores-0 bench/programs/matmul_bf16_ws_pipeline.mlir --tensor-cores=0
// MANIFEST-NEXT: bench rowsum bench/programs/rowsum.mlir
// MANIFEST-NEXT: bench softmax bench/programs/softmax.mlir
// MANIFEST-NEXT: bench vector_add bench/programs/vector_add.mlir
// BENCH: mock: cuLaunchKernel(rowsum_kernel, grid 2048x1x1, block 128x1x1
// BENCH: rowsum 4096x4096 f32: median 0.5000 ms over 10 launches (2 warm-up), 0.03 TFLOP/s, 134.3 GB/s
// PEERS: would time matmul_bf16 4096^3 [torch]
// PEERS: would time matmul_bf16 4096^3 [jax-pallas-mgpu]
// PEERS: would time attention 16x4096x64 [torch]
// PEERS: would time attention 16x4096x64 [jax-pallas-mgpu]
// PEERS: would time vector_add 2^26 f32 [torch]
// PEERS: would time softmax 4096x4096 f32 [jax-pallas-mgpu]
// The problems, each with our executables that measure it, tensor-core
// comparisons first; none is left over.
// PLAN: {{^}}matmul matmul_bf16 matmul_bf16_wgmma matmul_bf16_wgmma.tensor-cores-0 matmul_bf16_ws matmul_bf16_ws.tensor-cores-0 matmul_bf16_ws_pipeline matmul_bf16_ws_pipeline.tensor-cores-0{{$}}
// PLAN-NEXT: {{^}}attention attention attention.tensor-cores-0{{$}}
// PLAN-NEXT: {{^}}matmul_8192 matmul_bf16_ws_8192 matmul_bf16_ws_8192.tensor-cores-0{{$}}
// PLAN-NEXT: {{^}}vector_add vector_add{{$}}
// PLAN-NEXT: {{^}}rowsum rowsum{{$}}
// PLAN-NEXT: {{^}}softmax softmax{{$}}
// PLAN-NEXT: {{^}}layernorm layernorm{{$}}
// PLAN-NEXT: {{^}}other{{$}}
// FAR: line 1: expected '1.0, 2.0', got '1.1, 2.0'

// `run.sh --mock` (bench/bundle/mock/check.py): the GPU bundle end to end
// here, on the mock CUDA driver, with fake torch, Triton, JAX (the
// signatures of the versions on the GPU machine) and compute-sanitizer:
// every problem's table row with every peer's check, a test cut at its
// limit, a run cut by its deadline that still writes its summary, $OUT
// holding exactly results.tar.gz and summary.txt, executables without AVX
// (x86-64-v2, not the build host's CPU), and the fakes' refusal of the
// calls the old peers made.
// RUN: %python -m py_compile %t/gpu/mock/check.py
// RUN: env OUT=%t/out bash %t/gpu/run.sh --mock | FileCheck %s --check-prefix=MOCK
// RUN: ls -A %t/out | FileCheck %s --check-prefix=MOCK-OUT

// MOCK: mock: the bundle carries the mock driver: ok
// MOCK: mock: default run: $OUT holds exactly results.tar.gz and summary.txt: ok
// MOCK: == Side by side
// MOCK: matmul_bf16 4096^3 {{.*}} ok
// MOCK: == Tests: {{[0-9]}} passed, {{[0-9]}} failed, 1 timed out, 0 not run (of 4 in the bundle)
// MOCK: TIMEOUT mock.sleeps-past-its-limit: timeout after 3 s
// MOCK: totals racecheck 0, synccheck 0, memcheck 0; 12 of 12 runs
// MOCK: mock: default run: finished within its deadline: ok
// MOCK: mock: default run: the sleeping test is cut at its limit: ok
// MOCK: mock: default run: every problem has a row: ok
// MOCK: mock: default run: every peer measured and checked (torch and JAX right, Triton's no-op kernels wrong): ok (27 peer rows)
// MOCK: mock: default run: our benchmarks report times and mismatch counts: ok
// MOCK: mock: default run: tests counted: ok
// MOCK: mock: default run: sanitizer counts per test: ok
// MOCK: mock: default run: the archive holds the logs: ok
// MOCK: mock: deadline run: $OUT holds exactly results.tar.gz and summary.txt: ok
// MOCK: mock: deadline run: ended within the deadline: ok
// MOCK: mock: deadline run: says it was stopped, and the summary is written: ok
// MOCK: mock: deadline run: the sleeping benchmark was cut by the deadline: ok (timeout after {{[0-9]+}} s (deadline))
// MOCK: mock: executables target a generic CPU: no AVX/AVX-512 register in {{[0-9]+}} ELF files: ok
// MOCK: mock: the fakes reject the old peers' calls (5): ok
// MOCK: mock: all checks passed in {{[0-9]+}} s
// MOCK-OUT: {{^}}results.tar.gz{{$}}
// MOCK-OUT-NEXT: {{^}}summary.txt{{$}}
// MOCK-OUT-NOT: {{.}}
