// RUN: mgpu-opt --mgpu-drop-unused-views %s | FileCheck %s

// A chain of views nothing uses goes whole; the view a load uses stays and
// so does the view it was made from; other unused ops stay (not views).
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.*]]: memref<128x64xf32>, %[[I:.*]]: index)
// CHECK-NEXT: %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[UNUSED:.*]] = arith.addi %[[I]], %[[I]] : index
// CHECK-NEXT: %[[KEPT:.*]] = memref.subview %[[A]][%[[I]], 0] [128, 64] [1, 1]
// CHECK-NEXT: %[[ROW:.*]] = memref.subview %[[KEPT]][0, 0] [1, 64] [1, 1]
// CHECK-NEXT: memref.load %[[ROW]][%[[C]], %[[C]]]
// CHECK-NEXT: return
func.func @views(%a: memref<128x64xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %unused = arith.addi %i, %i : index
  %past = memref.subview %a[%i, 0] [128, 64] [1, 1]
      : memref<128x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
  %window = memref.subview %past[0, 0] [64, 64] [1, 1]
      : memref<128x64xf32, strided<[64, 1], offset: ?>> to memref<64x64xf32, strided<[64, 1], offset: ?>>
  %flipped = memref.transpose %window (r, c) -> (c, r)
      : memref<64x64xf32, strided<[64, 1], offset: ?>> to memref<64x64xf32, strided<[1, 64], offset: ?>>
  %kept = memref.subview %a[%i, 0] [128, 64] [1, 1]
      : memref<128x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
  %row = memref.subview %kept[0, 0] [1, 64] [1, 1]
      : memref<128x64xf32, strided<[64, 1], offset: ?>> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  %v = memref.load %row[%c0, %c0] : memref<1x64xf32, strided<[64, 1], offset: ?>>
  return %v : f32
}

// Byte views of an allocation and casts go too; the allocation stays.
// CHECK-LABEL: func.func @bytes
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: return
func.func @bytes() {
  %c0 = arith.constant 0 : index
  %buffer = memref.alloc() : memref<4096xi8>
  %tile = memref.view %buffer[%c0][] : memref<4096xi8> to memref<32x32xf32>
  %cast = memref.cast %tile : memref<32x32xf32> to memref<?x32xf32>
  return
}
