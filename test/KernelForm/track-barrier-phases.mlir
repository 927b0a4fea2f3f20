// RUN: mgpu-opt %s --mgpu-track-barrier-phases --canonicalize -split-input-file | FileCheck %s

// Waits without a parity get the parity of the next phase their Pallas
// thread has not waited for: an i64 of phase bits per barrier array, flipped
// by each wait, carried by loops and yielded by ifs.

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!bar = !mgpu.barrier<count = 2>

// CHECK-LABEL: func.func @ring
// CHECK: ^bb0(%[[BAR:.*]]: !mgpu.barrier<count = 2>):
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BITS:.*]] = %c0_i64) -> (i64) {
// CHECK: %[[SLOT:.*]] = arith.remui
// CHECK: %[[I:.*]] = arith.index_castui %[[SLOT]] : index to i64
// CHECK: %[[MASK:.*]] = arith.shli %c1_i64, %[[I]]
// CHECK: %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[I]]
// CHECK: %[[BIT:.*]] = arith.andi %[[SHIFTED]], %c1_i64
// CHECK: %[[PARITY:.*]] = arith.trunci %[[BIT]] : i64 to i1
// CHECK: %[[NEXT:.*]] = arith.xori %[[BITS]], %[[MASK]]
// CHECK: mgpu.barrier_wait %[[BAR]][%[[SLOT]]] parity %[[PARITY]]
// CHECK: scf.yield %[[NEXT]] : i64
func.func @ring() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %slot = arith.remui %k, %c2 : index
      mgpu.barrier_wait %bar[%slot] : !bar
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g1"]>
!bar = !mgpu.barrier<count = 2>

// A wait in one branch: the if yields the bits, flipped or not (folded
// here to the branch condition), and the next wait on that barrier takes
// its parity from them.
// CHECK-LABEL: func.func @branch
// CHECK: %[[P:.*]] = arith.cmpi eq
// CHECK: %[[TAKEN:.*]] = arith.extui %[[P]] : i1 to i64
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: mgpu.barrier_wait %{{.*}}[%c0] parity %false
// CHECK: %[[BIT:.*]] = arith.andi %[[TAKEN]], %c1_i64
// CHECK: %[[PARITY:.*]] = arith.trunci %[[BIT]]
// CHECK: mgpu.barrier_wait %{{.*}}[%c0] parity %[[PARITY]]
// Waits with a parity stay as they are.
// CHECK: mgpu.barrier_wait %{{.*}}[%c1] parity %true
func.func @branch(%p: i1) {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %i = mgpu.program_id 0
    %p2 = arith.cmpi eq, %i, %c0 : index
    scf.if %p2 {
      mgpu.barrier_wait %bar[%c0] : !bar
    }
    mgpu.barrier_wait %bar[%c0] : !bar
    mgpu.barrier_wait %bar[%c1] parity %true : !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g2"]>
!bar = !mgpu.barrier<count = 1>

// A test takes its parity like a wait, and flips the bit only when it says
// the phase completed: the wait after it takes its parity from the select.
// CHECK-LABEL: func.func @test_then_wait
// CHECK: %[[DONE:.*]] = mgpu.barrier_test %{{.*}}[%c0] parity %false
// CHECK: %[[BITS:.*]] = arith.extui %[[DONE]] : i1 to i64
// CHECK: %[[BIT:.*]] = arith.andi %[[BITS]], %c1_i64
// CHECK: %[[PARITY:.*]] = arith.trunci %[[BIT]]
// CHECK: mgpu.barrier_wait %{{.*}}[%c0] parity %[[PARITY]]
func.func @test_then_wait() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    %done = mgpu.barrier_test %bar[%c0] : !bar
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g3"]>
!bar = !mgpu.barrier<count = 1>

// A polling loop (lax.while_loop on barrier_test): scf.while carries the
// bits through its before region (where the test is), scf.condition and
// its after region.
// CHECK-LABEL: func.func @poll
// CHECK: %[[OUT:.*]]:2 = scf.while (%[[N:.*]] = %c0_i32, %[[IN:.*]] = %c0_i64) : (i32, i64) -> (i32, i64) {
// CHECK: %[[DONE:.*]] = mgpu.barrier_test %{{.*}}[%c0] parity %{{.*}}
// CHECK: %[[NEXT:.*]] = arith.select %[[DONE]], %{{.*}}, %[[IN]] : i64
// CHECK: scf.condition(%{{.*}}) %[[N]], %[[NEXT]] : i32, i64
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: i32, %[[CARRIED:.*]]: i64):
// CHECK: scf.yield %{{.*}}, %[[CARRIED]] : i32, i64
// CHECK: %[[BIT:.*]] = arith.andi %[[OUT]]#1, %c1_i64
// CHECK: %[[PARITY:.*]] = arith.trunci %[[BIT]]
// CHECK: mgpu.barrier_wait %{{.*}}[%c0] parity %[[PARITY]]
func.func @poll() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %true = arith.constant true
    %n = scf.while (%count = %zero) : (i32) -> i32 {
      %done = mgpu.barrier_test %bar[%c0] : !bar
      %again = arith.xori %done, %true : i1
      scf.condition(%again) %count : i32
    } do {
    ^bb0(%count: i32):
      %next = arith.addi %count, %one : i32
      scf.yield %next : i32
    }
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}
