// RUN: mgpu-opt --mgpu-check-vector-accesses %s | FileCheck %s
// RUN: mgpu-opt --mgpu-check-vector-accesses --mgpu-report-failed-checks %s | FileCheck %s --check-prefix=REPORT

// Vector loads and stores assert that the vector lies in the memref, in the
// dimensions it covers: 0 <= index <= dim - extent, which cannot wrap
// (index + extent <= dim wrapped for an index near INT64_MAX and let the
// access through; Integration/Kernels/bounds_checks.mlir runs one).
// CHECK-LABEL: func.func @load_store(
// CHECK-SAME: %[[M:.*]]: memref<4x?xf32>, %[[I:.*]]: index, %[[J:.*]]: index
// CHECK: %[[DIM:.*]] = memref.dim %[[M]], %c1
// CHECK: %[[LAST:.*]] = arith.subi %[[DIM]], %c8
// CHECK: arith.cmpi sge, %[[J]], %c0
// CHECK: arith.cmpi sle, %[[J]], %[[LAST]]
// CHECK: cf.assert %{{.*}}, "^ vector access out of bounds of its memref"
// CHECK-NEXT: vector.load
// CHECK: cf.assert
// CHECK-NEXT: vector.store
func.func @load_store(%m: memref<4x?xf32>, %i: index, %j: index) {
  %v = vector.load %m[%i, %j] : memref<4x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %j] : memref<4x?xf32>, vector<8xf32>
  return
}

// A transfer is checked in the dimensions it marks in bounds only: those it
// may run past are masked.
// CHECK-LABEL: func.func @transfers(
// CHECK: memref.dim %{{.*}}, %c1
// CHECK-NOT: memref.dim %{{.*}}, %c0
// CHECK: cf.assert
// CHECK-NEXT: vector.transfer_read
// CHECK-NOT: cf.assert
// CHECK: vector.transfer_write
func.func @transfers(%m: memref<16x16xf32>, %i: index) {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad {in_bounds = [false, true]}
      : memref<16x16xf32>, vector<4x4xf32>
  vector.transfer_write %v, %m[%i, %i] {in_bounds = [false, false]}
      : vector<4x4xf32>, memref<16x16xf32>
  return
}

// A failed check reports at the checked op and exits: a host runtime call
// with the location and what failed.
// REPORT-LABEL: func.func @load_store(
// REPORT-NOT: cf.assert
// REPORT: %[[FAILED:.*]] = arith.xori %{{.*}}, %true
// REPORT: scf.if %[[FAILED]] {
// REPORT:   %[[WHERE:.*]] = llvm.mlir.addressof @__mgpu_str_{{[0-9]+}}
// REPORT:   %[[WHAT:.*]] = llvm.mlir.addressof @__mgpu_str_{{[0-9]+}}
// REPORT:   func.call @mgpuHostCheckFailed(%[[WHERE]], %[[WHAT]]) : (!llvm.ptr, !llvm.ptr) -> ()
// REPORT: }
// REPORT-NEXT: vector.load

// The dimensions a vector does not cover are checked too, at one index: a
// transfer of a row past the last row reads other memory (the fuzzer found
// a grid of 256 programs over 2 row blocks crashing the CPU backend).
// CHECK-LABEL: func.func @leading(
// CHECK-SAME: %[[M:.*]]: memref<?x64xf32>, %[[R:.*]]: index
// CHECK: %[[ROWS:.*]] = memref.dim %[[M]], %c0
// CHECK: %[[LAST:.*]] = arith.subi %[[ROWS]], %c1
// CHECK: arith.cmpi sge, %[[R]], %c0
// CHECK: arith.cmpi sle, %[[R]], %[[LAST]]
// CHECK: cf.assert
// CHECK-NEXT: vector.transfer_read
// CHECK: memref.dim %[[M]], %c0
// CHECK: cf.assert
// CHECK-NEXT: vector.load
func.func @leading(%m: memref<?x64xf32>, %r: index) -> (vector<16xf32>, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%r, %c0], %pad {in_bounds = [true]} : memref<?x64xf32>, vector<16xf32>
  %b = vector.load %m[%r, %c0] : memref<?x64xf32>, vector<16xf32>
  return %a, %b : vector<16xf32>, vector<16xf32>
}
