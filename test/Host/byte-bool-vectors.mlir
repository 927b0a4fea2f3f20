// RUN: mgpu-opt %s --mgpu-byte-bool-vectors | FileCheck %s
// RUN: mgpu-opt %s --mgpu-byte-bool-vectors | mgpu-opt | FileCheck %s

// i1 vectors in memory become gathers and scatters over consecutive
// indices (LLVM would pack a `<N x i1>` load or store into bits); other
// element types keep their loads, stores and transfers.

// CHECK-LABEL: func.func @load_store
// CHECK-SAME: (%[[M:.*]]: memref<64xi1>, %[[I:.*]]: index)
// CHECK: %[[STEP:.*]] = vector.step : vector<16xindex>
// CHECK: %[[V:.*]] = vector.gather %[[M]][%[[I]]] [%[[STEP]]], %{{.*}}, %{{.*}} : memref<64xi1>, vector<16xindex>, vector<16xi1>, vector<16xi1> into vector<16xi1>
// CHECK: vector.scatter %[[M]][%{{.*}}] [%{{.*}}], %{{.*}}, %[[V]] : memref<64xi1>, vector<16xindex>, vector<16xi1>, vector<16xi1>
// CHECK-NOT: vector.load
// CHECK-NOT: vector.store
func.func @load_store(%m: memref<64xi1>, %i: index) {
  %v = vector.load %m[%i] : memref<64xi1>, vector<16xi1>
  %c32 = arith.constant 32 : index
  vector.store %v, %m[%c32] : memref<64xi1>, vector<16xi1>
  return
}

// A transfer that may run out of bounds becomes a masked gather whose
// mask compares the element positions with the bound.
// CHECK-LABEL: func.func @transfer
// CHECK: %[[MASK:.*]] = arith.cmpi sgt
// CHECK: vector.gather {{.*}}, %[[MASK]],
// CHECK: vector.scatter
// CHECK-NOT: vector.transfer_read
// CHECK-NOT: vector.transfer_write
func.func @transfer(%m: memref<?xi1>, %i: index) {
  %false = arith.constant false
  %v = vector.transfer_read %m[%i], %false : memref<?xi1>, vector<8xi1>
  vector.transfer_write %v, %m[%i] {in_bounds = [true]} : vector<8xi1>, memref<?xi1>
  return
}

// CHECK-LABEL: func.func @masked
// CHECK: vector.gather {{.*}}, %arg2, %arg3
// CHECK: vector.scatter {{.*}}, %arg2, %{{.*}} : memref<64xi1>
func.func @masked(%m: memref<64xi1>, %i: index, %mask: vector<8xi1>, %pass: vector<8xi1>) {
  %v = vector.maskedload %m[%i], %mask, %pass : memref<64xi1>, vector<8xi1>, vector<8xi1> into vector<8xi1>
  vector.maskedstore %m[%i], %mask, %v : memref<64xi1>, vector<8xi1>, vector<8xi1>
  return
}

// CHECK-LABEL: func.func @other_types
// CHECK: vector.load
// CHECK: vector.transfer_read
// CHECK: vector.store
// CHECK-NOT: vector.gather
func.func @other_types(%m: memref<64xi8>, %i: index) {
  %zero = arith.constant 0 : i8
  %v = vector.load %m[%i] : memref<64xi8>, vector<16xi8>
  %w = vector.transfer_read %m[%i], %zero : memref<64xi8>, vector<16xi8>
  %s = arith.addi %v, %w : vector<16xi8>
  vector.store %s, %m[%i] : memref<64xi8>, vector<16xi8>
  return
}
