// RUN: mgpu-opt --mgpu-expand-f8 %s | FileCheck %s

// Both conversions become integer code on the bits: no f8 arithmetic or
// conversion is left, only bitcasts to and from i8.
// CHECK-LABEL: func.func @round_trip(
// CHECK-SAME: %[[X:.*]]: vector<4xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<4xf32> to vector<4xi32>
// CHECK: math.roundeven
// CHECK: %[[BYTE:.*]] = arith.trunci %{{.*}} : vector<4xi32> to vector<4xi8>
// CHECK: %[[F8:.*]] = arith.bitcast %[[BYTE]] : vector<4xi8> to vector<4xf8E4M3FN>
// CHECK: arith.bitcast %[[F8]] : vector<4xf8E4M3FN> to vector<4xi8>
// CHECK: %[[WIDE:.*]] = arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: return %[[WIDE]]
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
func.func @round_trip(%x: vector<4xf32>) -> vector<4xf32> {
  %t = arith.truncf %x : vector<4xf32> to vector<4xf8E4M3FN>
  %e = arith.extf %t : vector<4xf8E4M3FN> to vector<4xf32>
  return %e : vector<4xf32>
}

// Scalars too; E5M2 keeps its infinities (exponent 31, fraction 0: the
// f32 infinity 0x7F800000, else a NaN).
// CHECK-LABEL: func.func @scalar(
// CHECK: arith.bitcast %{{.*}} : f8E5M2 to i8
// CHECK: arith.cmpi eq, %{{.*}}, %c31_i32 : i32
// CHECK: arith.select %{{.*}}, %c2139095040_i32, %c2143289344_i32 : i32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @scalar(%x: f8E5M2) -> f32 {
  %e = arith.extf %x : f8E5M2 to f32
  return %e : f32
}

// Other conversions are left alone.
// CHECK-LABEL: func.func @others(
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f8E4M3FN to f16
func.func @others(%x: f32, %y: f8E4M3FN) -> (f16, f16) {
  %t = arith.truncf %x : f32 to f16
  %e = arith.extf %y : f8E4M3FN to f16
  return %t, %e : f16, f16
}

// f8E8M0FNU (a byte of biased exponent): the byte shifted into the f32
// exponent field, and back rounded up (JAX's default).
// CHECK-LABEL: func.func @e8m0(
// CHECK: arith.bitcast %{{.*}} : vector<4xf8E8M0FNU> to vector<4xi8>
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: arith.bitcast %{{.*}} : vector<4xi8> to vector<4xf8E8M0FNU>
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
func.func @e8m0(%x: vector<4xf8E8M0FNU>) -> vector<4xf8E8M0FNU> {
  %e = arith.extf %x : vector<4xf8E8M0FNU> to vector<4xf32>
  %t = arith.truncf %e : vector<4xf32> to vector<4xf8E8M0FNU>
  return %t : vector<4xf8E8M0FNU>
}

// 1 / x on f8E8M0FNU is the byte 254 - x, as JAX computes it: no division,
// no conversion.
// CHECK-LABEL: func.func @e8m0_reciprocal(
// CHECK: %[[BYTE:.*]] = arith.bitcast %{{.*}} : vector<4xf8E8M0FNU> to vector<4xi8>
// CHECK: %[[INV:.*]] = arith.subi %{{.*}}, %[[BYTE]] : vector<4xi8>
// CHECK: arith.bitcast %[[INV]] : vector<4xi8> to vector<4xf8E8M0FNU>
// CHECK-NOT: arith.divf
func.func @e8m0_reciprocal(%x: vector<4xf8E8M0FNU>) -> vector<4xf8E8M0FNU> {
  %one = arith.constant dense<1.0> : vector<4xf8E8M0FNU>
  %r = arith.divf %one, %x : vector<4xf8E8M0FNU>
  return %r : vector<4xf8E8M0FNU>
}

// The f6 formats (i6 bits, no infinity or NaN): widening has no special
// values, and narrowing saturates NaN with the rest (no NaN select).
// CHECK-LABEL: func.func @f6(
// CHECK: arith.bitcast %{{.*}} : vector<4xf6E2M3FN> to vector<4xi6>
// CHECK: arith.extui %{{.*}} : vector<4xi6> to vector<4xi32>
// CHECK-NOT: 2143289344
// CHECK: arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: arith.trunci %{{.*}} : i32 to i6
// CHECK-NOT: 2139095040
// CHECK: arith.bitcast %{{.*}} : i6 to f6E3M2FN
func.func @f6(%x: vector<4xf6E2M3FN>, %y: f32) -> (vector<4xf32>, f6E3M2FN) {
  %e = arith.extf %x : vector<4xf6E2M3FN> to vector<4xf32>
  %t = arith.truncf %y : f32 to f6E3M2FN
  return %e, %t : vector<4xf32>, f6E3M2FN
}
