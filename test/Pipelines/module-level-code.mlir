// Code at module level, outside any function, is refused at its location
// with exit status 1 by every pipeline. A vector.print there became an LLVM
// call without a parent function: LLVM's verifier dumped IR ("Global is
// referenced by parentless instruction!") and mgpu-run said only "cannot
// compile the module". Symbols, nested modules and the LLVM dialect's
// module-level declarations stay allowed (the positive twin runs).
// RUN: rm -rf %t && split-file %s %t
// RUN: not mgpu-run %t/print.mlir -e main --backend=cpu 2>&1 | FileCheck %s
// RUN: not mgpu-run %t/print.mlir -e main --backend=emulate 2>&1 | FileCheck %s
// RUN: not mgpu-opt --mgpu-to-cpu %t/print.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: not mgpu-opt --mgpu-to-binary="format=isa" %t/print.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: mgpu-run %t/declarations.mlir -e main --backend=cpu | FileCheck %s --check-prefix=OK
// RUN: mgpu-run %t/declarations.mlir -e main --backend=emulate | FileCheck %s --check-prefix=OK

// CHECK: print.mlir:2:8: error: 'arith.constant' op is at module level, outside any function, where nothing runs it: move it into a function
// CHECK: print.mlir:3:3: error: 'vector.print' op is at module level, outside any function, where nothing runs it: move it into a function
// CHECK-NOT: parentless
// CHECK-NOT: cannot compile

// OK: 42

//--- print.mlir
module {
  %c = arith.constant 1.0 : f32
  vector.print %c : f32
  func.func @main() {
    return
  }
}

//--- declarations.mlir
module {
  llvm.module_flags [#llvm.mlir.module_flag<max, "mgpu-test", 1 : i32>]
  memref.global "private" constant @answer : memref<i32> = dense<42>
  module @inner {
  }
  func.func @main() {
    %m = memref.get_global @answer : memref<i32>
    %v = memref.load %m[] : memref<i32>
    vector.print %v : i32
    return
  }
}
