// --mgpu-emulate-gpu outlines each launch body into a lane function that
// the host runtime calls once per CUDA thread (mgpuEmuRunGrid): the values
// the body captures travel in a stack struct of their LLVM forms, constants
// are cloned into the lane function instead (so that they fold there), and
// the runtime says how many CTA slots of shared memory and barrier words to
// allocate (mgpuEmuCtaSlots). A kernel that waits on semaphores runs all
// its CTAs as one group; otherwise a group is a cluster.
// RUN: mgpu-opt %s --split-input-file --mgpu-emulate-gpu | FileCheck %s

// CHECK-LABEL: func.func @plain(
// CHECK-SAME: %[[A:.*]]: memref<256xf32>, %[[S:.*]]: f32)
// CHECK: %[[GX:.*]] = arith.index_cast %c2 : index to i64
// CHECK: %[[GY:.*]] = arith.index_cast %c1 : index to i64
// CHECK: %[[SLOTS:.*]] = call @mgpuEmuCtaSlots(%[[GX]], %[[GY]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64) -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[SLOTS]] : i64 to index
// CHECK: memref.alloc(%{{.*}}) {alignment = 128 : i64} : memref<?xi8>
// CHECK: %[[STACK:.*]] = llvm.intr.stacksave : !llvm.ptr
// The f32 and the memref; then shared memory, barrier words, exchange.
// CHECK: %[[CAPTURES:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(f32, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
// CHECK: builtin.unrealized_conversion_cast %[[A]] : memref<256xf32> to !llvm.struct
// CHECK: %[[FN:.*]] = constant @__mgpu_emu_lanes : (!llvm.ptr, index, index, index, index, index) -> ()
// CHECK: call @mgpuEmuRunGrid(%[[FN]], %[[CAPTURES]], %[[GX]], %[[GY]], {{.*}}, %c128_i64, %{{.*}}, %{{.*}})
// CHECK: llvm.intr.stackrestore %[[STACK]]
// CHECK-NOT: gpu.launch
// CHECK: return

// The barrier helper spins on mgpuEmuYield.
// CHECK: func.func private @mgpuEmuYield()
// CHECK: func.func private @__mgpu_emu_barrier(
// CHECK: call @mgpuEmuYield() : () -> ()

// The lane function: constants cloned, captures loaded, ids from its
// arguments (slot, thread in the CTA, block x, y, z).
// CHECK: func.func private @__mgpu_emu_lanes(%[[PTR:.*]]: !llvm.ptr, %[[SLOT:.*]]: index, %[[TID:.*]]: index, %[[BX:.*]]: index, %{{.*}}: index, %{{.*}}: index)
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[SV:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[AS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct
// CHECK: %[[AV:.*]] = builtin.unrealized_conversion_cast %[[AS]] : {{.*}} to memref<256xf32>
// CHECK: %[[TX:.*]] = arith.remui %[[TID]], %[[C128]] : index
// CHECK: %[[I:.*]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK: %[[J:.*]] = arith.addi %[[I]], %[[TX]] : index
// CHECK: call @__mgpu_emu_barrier(
// CHECK: memref.store %[[SV]], %[[AV]][%[[J]]] : memref<256xf32>
// CHECK: return

func.func @plain(%a: memref<256xf32>, %s: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c128 : index
    %j = arith.addi %i, %tx : index
    gpu.barrier
    memref.store %s, %a[%j] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// A cluster of 2 CTAs is a group: the slots and the run are in groups of
// 2 x 1 x 1 of the 4 x 1 x 1 grid.
// CHECK-LABEL: func.func @cluster(
// CHECK: %[[GX:.*]] = arith.index_cast %c4 : index to i64
// CHECK: %[[GY:.*]] = arith.index_cast %c1 : index to i64
// CHECK: %[[GZ:.*]] = arith.index_cast %c1 : index to i64
// CHECK: %[[CX:.*]] = arith.index_cast %c2 : index to i64
// CHECK: call @mgpuEmuCtaSlots(%[[GX]], %[[GY]], %[[GZ]], %[[CX]],
// CHECK: call @mgpuEmuRunGrid(%{{.*}}, %{{.*}}, %[[GX]], %[[GY]], %[[GZ]], %[[CX]],
func.func @cluster(%a: memref<512xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %i = arith.muli %bx, %c128 : index
    %j = arith.addi %i, %tx : index
    memref.store %zero, %a[%j] : memref<512xf32>
    gpu.terminator
  }
  return
}
