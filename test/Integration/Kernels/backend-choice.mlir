// mgpu-run says which backend runs a program and why.
// RUN: mgpu-run %S/vector_add.mlir -e main --backend=emulate --verbose 2>&1 | FileCheck %s --check-prefix=EMULATE
// RUN: mgpu-run %S/vector_add.mlir -e main --backend=cpu --verbose 2>&1 | FileCheck %s --check-prefix=CPU
// EMULATE: mgpu-run: backend emulate (requested)
// CPU: mgpu-run: backend cpu (requested)
// The optimization level is spelled as compilers spell it.
// RUN: mgpu-run %S/vector_add.mlir -e main --backend=cpu -O1 | FileCheck %S/vector_add.mlir --match-full-lines
