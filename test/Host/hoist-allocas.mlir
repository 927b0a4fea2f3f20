// RUN: mgpu-opt %s --mgpu-hoist-allocas | FileCheck %s

// A stack buffer in a loop body is taken once, at the top of the function:
// LLVM takes an alloca outside the entry block again on every iteration (a
// 4 x 1023 pipelined attention grid ran out of stack in interpret mode).
// CHECK-LABEL: func.func @in_loop(
// CHECK-NEXT: %[[BUF:.*]] = memref.alloca() : memref<vector<64x64xf32>>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.*}}, %[[BUF]][]
func.func @in_loop(%n: index, %v: vector<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %buf = memref.alloca() : memref<vector<64x64xf32>>
    memref.store %v, %buf[] : memref<vector<64x64xf32>>
  }
  return
}

// A dynamically sized one stays where its size is known.
// CHECK-LABEL: func.func @dynamic(
// CHECK: scf.for
// CHECK-NEXT: memref.alloca(%{{.*}}) : memref<?xf32>
func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %buf = memref.alloca(%i) : memref<?xf32>
  }
  return
}
