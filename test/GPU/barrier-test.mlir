// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="chip=sm_90a format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// mgpu.barrier_test on the GPU: every lane polls with
// mbarrier.test_wait.parity (never blocking), then the warpgroup ORs the
// answers with bar.red.or.pred on its named barrier (1 + warpgroup, 128
// threads), so that every lane takes the same branch. Two Pallas threads:
// thread 1 (warpgroup 1) polls on named barrier 2. The polling loop is a
// while loop that carries the phase bits; the wait after it waits for the
// parity the loop left.

#wg = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!bar = !mgpu.barrier<count = 1, arrivals = 2>

// CHECK-LABEL: func.func @poll
// CHECK: gpu.launch
// CHECK: %[[WG:.*]] = arith.divui %{{.*}}, %c128 : index
// CHECK: scf.while
// CHECK: %[[MINE:.*]] = nvvm.mbarrier.test.wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT: %[[WGI:.*]] = arith.index_cast %[[WG]] : index to i32
// CHECK-NEXT: %[[ID:.*]] = arith.addi %[[WGI]], %c1_i32 : i32
// CHECK-NEXT: %[[ANY:.*]] = llvm.inline_asm has_side_effects "bar.red.or.pred $0, $1, 128, $2;", "=b,r,b" %[[ID]], %[[MINE]] : (i32, i1) -> i1
// CHECK: arith.select %[[ANY]]
// CHECK: scf.condition
// CHECK: nvvm.mbarrier.try_wait
// CHECK-NOT: mgpu.barrier_test

// PTX-LABEL: .entry
// PTX: mbarrier.test_wait.parity.shared.b64
// PTX: bar.red.or.pred {{.*}}, 128,
// PTX: mbarrier.try_wait.parity.shared.b64
func.func @poll(%o: memref<2xi32>) {
  mgpu.mpmd_map meshes [#wg] outs(%o : memref<2xi32>) scratch [!bar] {
  ^bb0(%og: memref<2xi32>, %b: !bar):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %true = arith.constant true
    %t = mgpu.axis_index "wg"
    mgpu.barrier_arrive %b[%c0] : !bar
    %n = scf.while (%count = %zero) : (i32) -> i32 {
      %done = mgpu.barrier_test %b[%c0] : !bar
      %again = arith.xori %done, %true : i1
      scf.condition(%again) %count : i32
    } do {
    ^bb0(%count: i32):
      %next = arith.addi %count, %one : i32
      scf.yield %next : i32
    }
    memref.store %n, %og[%t] : memref<2xi32>
    mgpu.barrier_arrive %b[%c0] : !bar
    mgpu.barrier_wait %b[%c0] : !bar
  }
  return
}
