// The pipelines refuse what they cannot do with a diagnostic and exit
// status 1, never an abort or a silent success.
// RUN: not mgpu-opt --pass-pipeline="builtin.module(func.func(mgpu-to-cpu))" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not mgpu-opt --pass-pipeline="builtin.module(func.func(mgpu-to-binary))" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED-BIN
// RUN: not mgpu-opt --mgpu-to-binary="format=bogus" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not mgpu-opt --mgpu-to-binary="opt-level=9" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not mgpu-opt --mgpu-to-binary="toolkit=%t.no-toolkit" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not mgpu-run %s -e main -O 9 2>&1 | FileCheck %s --check-prefix=RUN-OPT
// RUN: not mgpu-run %s -e main -O9 2>&1 | FileCheck %s --check-prefix=RUN-OPT
// RUN: not mgpu-run %s -e main --shared-libs=%t.missing.so 2>&1 | FileCheck %s --check-prefix=LIBS

// NESTED: error: --mgpu-to-cpu runs on a builtin.module, not on 'func.func': use it at the top level
// NESTED-BIN: error: --mgpu-to-binary runs on a builtin.module, not on 'func.func': use it at the top level
// FORMAT: error: --mgpu-to-binary: unknown format 'bogus' (isa, bin or fatbin)
// OPT: error: --mgpu-to-binary: opt-level 9 (0, 1, 2 or 3)
// TOOLKIT: error: --mgpu-to-binary: toolkit '{{.*}}.no-toolkit' is not a directory (a CUDA toolkit holding bin/ptxas)
// RUN-OPT: mgpu-run: error: -O9: the optimization level is 0, 1, 2 or 3
// LIBS: mgpu-run: error: --shared-libs: no such file: {{.*}}.missing.so

func.func @main() {
  return
}
