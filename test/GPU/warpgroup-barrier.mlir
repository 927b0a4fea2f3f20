// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s --check-prefix=ROUND
// RUN: mgpu-opt %s --mgpu-distribute-warpgroups --canonicalize | FileCheck %s
// RUN: mgpu-opt %s --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize | FileCheck %s --check-prefix=NVVM

// mgpu.warpgroup_barrier (what --mgpu-place-barriers writes) round trips;
// the distribution keeps it in the lanes' code (a second one right after
// the first is the same meeting and is not repeated), and the NVVM
// lowering makes it the warpgroup's named barrier: id 1 + the warpgroup
// index (thread / 128), 128 threads.

#s = #gpu.address_space<workgroup>

// ROUND-LABEL: func.func @meet
// ROUND: vector.store
// ROUND-NEXT: mgpu.warpgroup_barrier
// ROUND-NEXT: mgpu.warpgroup_barrier
// ROUND-NEXT: vector.load
// ROUND-NEXT: vector.store
// CHECK-LABEL: func.func @meet
// CHECK: vector.store
// CHECK-NEXT: mgpu.warpgroup_barrier
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK: vector.load
// NVVM-LABEL: func.func @meet
// NVVM: vector.store
// NVVM-NEXT: %[[TID:.+]] = gpu.thread_id x
// NVVM-NEXT: %[[WG:.+]] = arith.divui %[[TID]], %c128 : index
// NVVM-NEXT: %[[WG32:.+]] = arith.index_cast %[[WG]] : index to i32
// NVVM-NEXT: %[[ID:.+]] = arith.addi %[[WG32]], %c1_i32 : i32
// NVVM-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// NVVM-NOT: nvvm.barrier
// NVVM: vector.load
// NVVM-NOT: mgpu.warpgroup_barrier
func.func @meet() {
  mgpu.launch grid [1] warpgroups 2 shared [memref<512xf32, #s>] at [0] {
  ^bb0(%cta: index, %wg: index, %a: memref<512xf32, #s>):
    %c0 = arith.constant 0 : index
    %one = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<1.0> : vector<512xf32>
    vector.store %one, %a[%c0] : memref<512xf32, #s>, vector<512xf32>
    mgpu.warpgroup_barrier
    mgpu.warpgroup_barrier
    %x = vector.load %a[%c0] {mgpu.out_layouts = [#mgpu.layout<strided>]} : memref<512xf32, #s>, vector<512xf32>
    vector.store %x, %a[%c0] : memref<512xf32, #s>, vector<512xf32>
  }
  return
}
