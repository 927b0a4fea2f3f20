// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s --check-prefix=ROUND
// RUN: mgpu-opt %s --mgpu-distribute-warpgroups --canonicalize | FileCheck %s

// mgpu.warpgroup_barrier (what --mgpu-place-barriers writes) round trips,
// and the distribution makes it the warpgroup's named barrier: id 1 + the
// warpgroup index, 128 threads. A second one right after the first is the
// same meeting and is not repeated.

#s = #gpu.address_space<workgroup>

// ROUND-LABEL: func.func @meet
// ROUND: vector.store
// ROUND-NEXT: mgpu.warpgroup_barrier
// ROUND-NEXT: mgpu.warpgroup_barrier
// ROUND-NEXT: vector.load
// ROUND-NEXT: vector.store
// CHECK-LABEL: func.func @meet
// CHECK: ^bb0(%{{.+}}: index, %[[WG:.+]]: index, %{{.+}}: index, %{{.+}}: memref<512xf32, #gpu.address_space<workgroup>>):
// CHECK: %[[WG32:.+]] = arith.index_cast %[[WG]] : index to i32
// CHECK: %[[ID:.+]] = arith.addi %[[WG32]], %c1_i32
// CHECK: vector.store
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK-NOT: nvvm.barrier
// CHECK: vector.load
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
