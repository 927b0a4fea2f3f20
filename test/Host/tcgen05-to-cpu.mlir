// Interpret mode of the Blackwell ops: the TMEM scratch lives in the CTA's
// arena after its shared memory (at 512 bytes per column: the 64-column
// buffer at the aligned end of shared memory, the 96-column one 32 KiB
// later); tcgen05_mma is loops over the accumulator summing the
// row-major operands in f32 (accumulate false: from zero), the commit one
// host arrival, the TMEM moves vector transfers. With physical layouts (the
// default) the operands named with transforms are first read through their
// tiled, swizzled layout into row-major heap copies.
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu=smem-layouts=0 --canonicalize | FileCheck %s
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu --canonicalize | FileCheck %s --check-prefix=PHYS

// PHYS-LABEL: func.func @tcgen05
// PHYS: %[[A:.*]] = memref.alloc() : memref<128x64xbf16>
// PHYS: call @mgpuHostMoveThroughLayout({{.*}}, %c0_i64) :
// PHYS: %[[B:.*]] = memref.alloc() : memref<64x64xbf16>
// PHYS: call @mgpuHostMoveThroughLayout({{.*}}, %c0_i64) :
// PHYS-DAG: memref.load %[[A]]
// PHYS-DAG: memref.load %[[B]]
// PHYS: memref.dealloc %[[A]]
// PHYS: memref.dealloc %[[B]]

// CHECK-LABEL: func.func @tcgen05
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 128 : i64} : memref<106880xi8>
// CHECK-DAG: %[[A:.*]] = memref.view %[[ARENA]][%c0][] : memref<106880xi8> to memref<128x64xbf16>
// CHECK-DAG: %[[B:.*]] = memref.view %[[ARENA]][%c16384][] : memref<106880xi8> to memref<64x64xbf16>
// CHECK-DAG: %[[ACC:.*]] = memref.view %[[ARENA]][%c24960][] : memref<106880xi8> to memref<128x64xf32>
// CHECK-DAG: %[[ODD:.*]] = memref.view %[[ARENA]][%c57728][] : memref<106880xi8> to memref<128x96xf32>
// CHECK: scf.for %[[I:.*]] = %c0 to %c128 step %c1 {
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c64 step %c1 {
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c64 step %c1 iter_args(%{{.*}} = %cst{{.*}}) -> (f32) {
// CHECK-DAG: memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-DAG: memref.load %[[B]][%[[K]], %[[J]]]
// CHECK: memref.store %[[SUM]], %[[ACC]][%[[I]], %[[J]]] : memref<128x64xf32>
// CHECK: call @mgpuHostBarrierArrive
// CHECK: call @mgpuHostBarrierWait
// CHECK: %[[V:.*]] = vector.transfer_read %[[ODD]][%c0, %c0], %{{.*}} {in_bounds = [true, true]} : memref<128x96xf32>, vector<128x96xf32>
// CHECK-NEXT: vector.transfer_write %[[V]], %[[ODD]][%c0, %c0] {in_bounds = [true, true]} : vector<128x96xf32>, memref<128x96xf32>

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#sw = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
!a = memref<128x64xbf16, #gpu.address_space<workgroup>>
!b = memref<64x64xbf16, #gpu.address_space<workgroup>>
!acc = !mgpu.tmem<128x64xf32>
!odd = !mgpu.tmem<128x96xf32>
!bar = !mgpu.barrier<count = 1>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @tcgen05(%o: memref<128x96xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<128x96xf32>) scratch [!a, !b, !acc, !odd, !bar] {
    ^bb0(%og: memref<128x96xf32>, %as: !a, %bs: !b, %acc: !acc, %odd: !odd, %done: !bar):
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      mgpu.tcgen05_mma %acc, %as, %bs accumulate(%false)
          a_transforms #sw b_transforms #sw : !acc, !a, !b
      mgpu.tcgen05_commit_arrive %done[%c0] : !bar
      mgpu.barrier_wait %done[%c0] : !bar
      %v = mgpu.async_load_tmem %odd : !odd -> vector<128x96xf32>
      mgpu.wait_load_tmem
      mgpu.async_store_tmem %v, %odd : vector<128x96xf32>, !odd
      vector.transfer_write %v, %og[%c0, %c0] {in_bounds = [true, true]} : vector<128x96xf32>, memref<128x96xf32>
    }
    return
  }
}
