// RUN: mgpu-opt %s --mgpu-widen-contractions | FileCheck %s
// RUN: mgpu-opt %s --mgpu-widen-contractions | mgpu-opt | FileCheck %s

// Mixed-precision contractions get their operands widened to the
// accumulator's type; contractions already in one type are left alone.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @f16_into_f32
// CHECK-SAME: (%[[A:.*]]: vector<4x8xf16>, %[[B:.*]]: vector<8x4xf16>, %[[C:.*]]: vector<4x4xf32>)
// CHECK-DAG: %[[WA:.*]] = arith.extf %[[A]] : vector<4x8xf16> to vector<4x8xf32>
// CHECK-DAG: %[[WB:.*]] = arith.extf %[[B]] : vector<8x4xf16> to vector<8x4xf32>
// CHECK: vector.contract {{.*}} %[[WA]], %[[WB]], %[[C]] : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
func.func @f16_into_f32(%a: vector<4x8xf16>, %b: vector<8x4xf16>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf16>, vector<8x4xf16> into vector<4x4xf32>
  return %r : vector<4x4xf32>
}

// CHECK-LABEL: func.func @i8_into_i32
// CHECK: arith.extsi %{{.*}} : vector<4x8xi8> to vector<4x8xi32>
// CHECK: arith.extsi %{{.*}} : vector<8x4xi8> to vector<8x4xi32>
// CHECK: vector.contract {{.*}} : vector<4x8xi32>, vector<8x4xi32> into vector<4x4xi32>
func.func @i8_into_i32(%a: vector<4x8xi8>, %b: vector<8x4xi8>, %c: vector<4x4xi32>) -> vector<4x4xi32> {
  %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %c : vector<4x8xi8>, vector<8x4xi8> into vector<4x4xi32>
  return %r : vector<4x4xi32>
}

// CHECK-LABEL: func.func @same_type
// CHECK-NOT: arith.ext
// CHECK: vector.contract {{.*}} : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
func.func @same_type(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return %r : vector<4x4xf32>
}
