// `run.sh --mock` (bench/bundle/mock/check.py): the GPU bundle end to end
// here, on the mock CUDA driver, with fake torch, Triton, JAX (the
// signatures of the versions on the GPU machine) and compute-sanitizer:
// every problem's table row with every peer's check, a test cut at its
// limit, a run cut by its deadline that still writes its summary, $OUT
// holding exactly results.tar.gz and summary.txt, executables without AVX
// (x86-64-v2, not the build host's CPU), and the fakes' refusal of the
// calls the old peers made. Two tests of the bundle only, for CI's time;
// every benchmark.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %mgpu_src_root/bench/make-device-bundle.py --build %mgpu_obj_root --out %t/gpu --only '^(Kernels\.vector_add|MPMD\.producer-consumer\.1)$' | FileCheck %s --check-prefix=MAKE
// RUN: %python -m py_compile %t/gpu/mock/check.py
// RUN: env OUT=%t/out bash %t/gpu/run.sh --mock | FileCheck %s
// RUN: ls -A %t/out | FileCheck %s --check-prefix=OUT

// MAKE: make-device-bundle: {{.*}}gpu: 2 tests, 15 benchmarks, {{.*}} MiB (cuda)

// CHECK: mock: the bundle carries the mock driver: ok
// CHECK: mock: default run: $OUT holds exactly results.tar.gz and summary.txt: ok
// CHECK: == Side by side
// CHECK: matmul_bf16 4096^3 {{.*}} ok
// CHECK: == Tests: {{[0-9]}} passed, {{[0-9]}} failed, 1 timed out, 0 not run (of 2 in the bundle)
// CHECK: TIMEOUT mock.sleeps-past-its-limit: timeout after 3 s
// CHECK: totals racecheck 0, synccheck 0, memcheck 0; 6 of 6 runs
// CHECK: mock: default run: finished within its deadline: ok
// CHECK: mock: default run: the sleeping test is cut at its limit: ok
// CHECK: mock: default run: every problem has a row: ok
// CHECK: mock: default run: every peer measured and checked (torch and JAX right, Triton's no-op kernels wrong): ok (27 peer rows)
// CHECK: mock: default run: our benchmarks report times and mismatch counts: ok
// CHECK: mock: default run: tests counted: ok
// CHECK: mock: default run: sanitizer counts per test: ok
// CHECK: mock: default run: the archive holds the logs: ok
// CHECK: mock: deadline run: $OUT holds exactly results.tar.gz and summary.txt: ok
// CHECK: mock: deadline run: ended within the deadline: ok
// CHECK: mock: deadline run: says it was stopped, and the summary is written: ok
// CHECK: mock: deadline run: the sleeping benchmark was cut by the deadline: ok (timeout after {{[0-9]+}} s (deadline))
// CHECK: mock: executables target a generic CPU: no AVX/AVX-512 register in {{[0-9]+}} ELF files: ok
// CHECK: mock: the fakes reject the old peers' calls (5): ok
// CHECK: mock: all checks passed in {{[0-9]+}} s

// OUT: {{^}}results.tar.gz{{$}}
// OUT-NEXT: {{^}}summary.txt{{$}}
// OUT-NOT: {{.}}
