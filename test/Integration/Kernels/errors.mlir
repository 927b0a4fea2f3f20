// mgpu-run's errors: each stops with a message naming the problem and a
// non-zero status (1: a diagnosed error, not a crash).
// RUN: rm -rf %t && split-file %s %t

// A missing entry function.
// RUN: not mgpu-run %t/program.mlir -e nosuch --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOSUCH
// NOSUCH: error: entry function '@nosuch' not found (choose one with -e)

// An entry with arguments, one with results, one without a body.
// RUN: not mgpu-run %t/program.mlir -e takes_args --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARGS
// ARGS: program.mlir:6:3: error: entry function '@takes_args' must take no arguments and return nothing, got '(i32) -> ()'
// RUN: not mgpu-run %t/program.mlir -e returns --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULTS
// RESULTS: error: entry function '@returns' must take no arguments and return nothing, got '() -> f32'
// RUN: not mgpu-run %t/program.mlir -e external --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTERNAL
// EXTERNAL: error: entry function '@external' has no body

// A parse error, and a file that does not exist.
// RUN: not mgpu-run %t/bad.mlir -e main --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARSE
// PARSE: bad.mlir:2:3: error: custom op 'not_an_op' is unknown
// RUN: not mgpu-run %t/missing.mlir -e main --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: mgpu-run: error: {{.*}}missing.mlir{{.*}}

// --backend=cuda without a CUDA driver (MGPU_CUDA_DRIVER names a file that
// does not exist, so this holds on machines with a GPU too): exit status 1,
// nothing run.
// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 %python -c "import subprocess, sys; r = subprocess.run(sys.argv[1:]); print('exit status', r.returncode)" mgpu-run %t/program.mlir -e main --backend=cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CUDA
// CUDA: mgpu-run: error: --backend=cuda: no usable CUDA device: {{.+}}
// CUDA-NOT: ran
// CUDA: exit status 1

// The same status for the other errors.
// RUN: %python -c "import subprocess, sys; r = subprocess.run(sys.argv[1:]); print('exit status', r.returncode)" mgpu-run %t/program.mlir -e nosuch --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// RUN: %python -c "import subprocess, sys; r = subprocess.run(sys.argv[1:]); print('exit status', r.returncode)" mgpu-run %t/bad.mlir -e main --backend=cpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// STATUS: exit status 1

// --backend=auto (the default) without a driver falls back to the CPU and
// says why with --verbose.
// RUN: env MGPU_CUDA_DRIVER=%t.missing/libcuda.so.1 mgpu-run %t/program.mlir -e main --verbose 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUTO
// AUTO: mgpu-run: backend cpu (no CUDA device: {{.+}})
// AUTO-NEXT: ran

//--- program.mlir
module {
  func.func @main() {
    vector.print str "ran\n"
    return
  }
  func.func @takes_args(%x: i32) {
    return
  }
  func.func @returns() -> f32 {
    %c = arith.constant 1.0 : f32
    return %c : f32
  }
  func.func private @external()
}

//--- bad.mlir
func.func @main() {
  not_an_op
  return
}
