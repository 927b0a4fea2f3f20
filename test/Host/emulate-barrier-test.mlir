// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s

// mgpu.barrier_test in the GPU emulator: every lane asks the runtime
// (lane 0 may land a pending copy first), stores its answer in its exchange
// word, meets the warpgroup on its named barrier (1 + warpgroup, 128
// threads), ORs the 128 words of its warpgroup, and meets it again before
// the words are reused; the OR is the answer of every lane.

#wg = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!bar = !mgpu.barrier<count = 1, arrivals = 2>

// CHECK-LABEL: func.func private @__mgpu_emu_lanes
// CHECK: scf.while
// CHECK: %[[LANE:.*]] = arith.remui %arg2, %c128{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: %[[FIRST64:.*]] = arith.extui %[[FIRST]] : i1 to i64
// CHECK: %[[MINE:.*]] = func.call @mgpuEmuBarrierTest(%{{.*}}, %{{.*}}, %[[FIRST64]]) : (!llvm.ptr, i64, i64) -> i64
// CHECK: %[[BIT:.*]] = arith.trunci %[[MINE]] : i64 to i1
// CHECK: %[[WORD:.*]] = arith.extui %[[BIT]] : i1 to i64
// CHECK: memref.store %[[WORD]], %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: call @__mgpu_emu_barrier(%{{.*}}, %{{.*}}, %c128{{.*}})
// CHECK: %[[ALL:.*]] = scf.for %{{.*}} = %c0{{.*}} to %c128{{.*}} step %c1{{.*}} iter_args(%[[ACC:.*]] = %c0_i64{{.*}}) -> (i64) {
// CHECK: memref.load
// CHECK: arith.ori %[[ACC]]
// CHECK: call @__mgpu_emu_barrier(%{{.*}}, %{{.*}}, %c128{{.*}})
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[ALL]], %c0_i64{{.*}} : i64
// CHECK: arith.select %[[ANY]]
// CHECK: scf.condition
// CHECK-NOT: mgpu.barrier_test
func.func @poll(%o: memref<2xi32>) {
  mgpu.mpmd_map meshes [#wg] outs(%o : memref<2xi32>) scratch [!bar] {
  ^bb0(%og: memref<2xi32>, %b: !bar):
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    mgpu.barrier_arrive %b[%c0] : !bar
    scf.while : () -> () {
      %done = mgpu.barrier_test %b[%c0] : !bar
      %again = arith.xori %done, %true : i1
      scf.condition(%again)
    } do {
      scf.yield
    }
  }
  return
}
