// utils/op-coverage.py on a made-up dialect doc of two ops and one test
// file: mgpu.foo is round-tripped, refused with an expected-error and run
// on both backends (the file runs %run_on_backends and ptxas), mgpu.bar
// appears only in a comment, so all five of its cells are gaps, and
// --check fails on them and on a stale table.
// RUN: rm -rf %t && mkdir -p %t/tests
// RUN: printf '### `mgpu.foo` (mgpu::FooOp)\n\n_A foo_\n\n### `mgpu.bar` (mgpu::BarOp)\n\n_A bar_\n' > %t/doc.md
// RUN: python3 -c "open('%t/tests/t.mlir', 'w').write('// RUN: mgpu-opt %%s | mgpu-opt\n// RUN: mgpu-opt %%s -verify-diagnostics\n// RUN: %%run_on_backends %%s\n// RUN: %%ptxas x\n// mgpu.bar\n// expected-error @below {{no}}\nmgpu.foo\n')"
// RUN: python3 %mgpu_src_root/utils/op-coverage.py %t/doc.md %t/tests > %t/table.md
// RUN: FileCheck %s < %t/table.md
// RUN: not python3 %mgpu_src_root/utils/op-coverage.py %t/doc.md %t/tests --check %t/table.md | FileCheck %s --check-prefix=GAPS
// RUN: echo stale >> %t/table.md
// RUN: not python3 %mgpu_src_root/utils/op-coverage.py %t/doc.md %t/tests --check %t/table.md | FileCheck %s --check-prefix=STALE
// CHECK: | `mgpu.bar` | - | - | - | - | - |
// CHECK: | `mgpu.foo` | 1 (`t.mlir`) | 1 (`t.mlir`) | 1 (`t.mlir`) | 1 (`t.mlir`) | 1 (`t.mlir`) |
// CHECK: 2 ops, 5 gaps.
// GAPS: op-coverage: 5 gaps
// STALE: is stale; run 'make docs'
