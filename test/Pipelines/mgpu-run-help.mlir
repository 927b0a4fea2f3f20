// mgpu-run --help shows mgpu-run's own options, grouped, and none of
// LLVM's (it printed 392 lines, nearly all of them LLVM's flags for other
// targets); those stay under --help-hidden.
// RUN: mgpu-run --help | FileCheck %s --implicit-check-not=amdgpu --implicit-check-not=x86 --implicit-check-not=print-
// RUN: mgpu-run --help | wc -l | FileCheck %s --check-prefix=LINES
// RUN: mgpu-run --help-hidden | FileCheck %s --check-prefix=HIDDEN

// CHECK: USAGE: mgpu-run [options] <input file>
// CHECK: Compiling its kernels:
// CHECK: --tensor-cores
// CHECK: Running a program:
// CHECK: --backend=<value>
// CHECK: The GPU emulator (--backend=emulate):
// CHECK: --check=<string>
// CHECK: --emulate-seed=<N>
// LINES: {{^[1-5]?[0-9]$}}
// HIDDEN: --print-after-all
