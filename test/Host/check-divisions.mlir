// RUN: mgpu-opt --mgpu-check-divisions %s | FileCheck %s
// RUN: mgpu-opt --mgpu-check-divisions --mgpu-report-failed-checks %s | FileCheck %s --check-prefix=REPORT

// Every scalar integer division and remainder asserts a nonzero divisor
// (a barrier slot `k mod 0` crashed the host runtime; found by the fuzzer).
// CHECK-LABEL: func.func @divisions(
// CHECK-SAME: %[[A:.*]]: index, %[[B:.*]]: index, %[[X:.*]]: i32, %[[Y:.*]]: i32
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : index
// CHECK-NEXT: cf.assert %[[NZ]], "^ integer division by zero"
// CHECK-NEXT: arith.remui %[[A]], %[[B]]
// CHECK: %[[NZ2:.*]] = arith.cmpi ne, %[[Y]], %{{.*}} : i32
// CHECK-NEXT: cf.assert %[[NZ2]], "^ integer division by zero"
// CHECK-NEXT: arith.divsi %[[X]], %[[Y]]
// Floating-point division is left alone.
// CHECK-NOT: cf.assert
// CHECK: arith.divf
// REPORT-LABEL: func.func @divisions(
// REPORT: func.call @mgpuHostCheckFailed
// REPORT: arith.remui
func.func @divisions(%a: index, %b: index, %x: i32, %y: i32, %f: f32) -> (index, i32, f32) {
  %r = arith.remui %a, %b : index
  %q = arith.divsi %x, %y : i32
  %g = arith.divf %f, %f : f32
  return %r, %q, %g : index, i32, f32
}
