// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines | mgpu-opt --allow-unregistered-dialect -o /dev/null

// A warp-specialized emit_pipeline on 3 Pallas threads becomes two loops:
// thread 2 (the memory thread) lowers its register budget and fills the
// ring, waiting on a slot's `empty` barrier (2 arrivals, one per compute
// thread) before refilling it, and after its last fill waits for the
// releases it has not waited for; threads 0 and 1 raise theirs, wait for
// the fetch, run the body, release the slot, and meet on `written` before
// thread 0 copies the output out and says on `freed` that the copy has read
// the slot. Every wait is for its thread's next phase (no parity yet:
// --mgpu-track-barrier-phases gives it, so that phases carry on when a loop
// runs the pipeline again). The buffers are shared: one arena, no
// per-thread range.

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#cols = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
!block = memref<64x64xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @scale
// CHECK: scratch [memref<65536xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>, !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 1, arrivals = 2>, !mgpu.barrier<count = 1>]
// CHECK: ^bb0(%[[X:.*]]: memref<64x256xf32>, %[[Y:.*]]: memref<64x256xf32>, %[[ARENA:.*]]: memref<65536xi8, #gpu.address_space<workgroup>>, %[[FULL:.*]]: !mgpu.barrier<count = 2>, %[[EMPTY:.*]]: !mgpu.barrier<count = 2, arrivals = 2>, %[[WRITTEN:.*]]: !mgpu.barrier<count = 1, arrivals = 2>, %[[FREED:.*]]: !mgpu.barrier<count = 1>):
// CHECK: %[[WG:.*]] = mgpu.axis_index "wg"
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[WG]], %c0
// CHECK: %[[MEMORY:.*]] = arith.cmpi eq, %[[WG]], %c2
// CHECK: scf.if %[[MEMORY]] {
// CHECK-NEXT: mgpu.set_max_registers 40 decrease
// CHECK-NEXT: %[[FILLED:.*]]:2 = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %c1, %[[FILLS:.*]] = %c0)
// CHECK: %[[SLOT:.*]] = arith.select %[[CHANGES:.*]], %{{.*}}, %arg{{.*}} : index
// CHECK-NEXT: scf.if %[[CHANGES]] {
// CHECK: %[[REFILL:.*]] = arith.cmpi uge, %[[FILLS]], %c2
// CHECK-NEXT: scf.if %[[REFILL]] {
// CHECK-NEXT: mgpu.barrier_wait %[[EMPTY]][%[[SLOT]]] :
// CHECK: mgpu.copy_gmem_to_smem %[[X]][%c0, %{{.*}}], %{{.*}}, %[[FULL]][%[[SLOT]]]
// CHECK-NOT: test.step
// The releases of the last two fills.
// CHECK: %[[FIRST:.*]] = arith.subi %[[FILLED]]#1, %{{.*}}
// CHECK-NEXT: scf.for %[[F:.*]] = %[[FIRST]] to %[[FILLED]]#1 step %c1 {
// CHECK-NEXT: %[[DRAINED:.*]] = arith.remui %[[F]], %c2
// CHECK-NEXT: mgpu.barrier_wait %[[EMPTY]][%[[DRAINED]]] :
// CHECK-NEXT: }
// CHECK: } else {
// CHECK-NEXT: mgpu.set_max_registers 232 increase
// CHECK-NEXT: scf.for
// CHECK: mgpu.barrier_wait %[[FULL]][%[[CUR:.*]]] :
// CHECK: "test.step"
// CHECK: mgpu.barrier_arrive %[[EMPTY]][%[[CUR]]]
// CHECK: mgpu.commit_smem
// CHECK-NEXT: mgpu.barrier_arrive %[[WRITTEN]][%c0]
// CHECK: mgpu.barrier_wait %[[WRITTEN]][%c0] :
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %[[Y]]
// CHECK-NEXT: mgpu.wait_smem_to_gmem 0 read_only
// CHECK-NEXT: mgpu.barrier_arrive %[[FREED]][%c0]
// CHECK-NEXT: }
// CHECK-NEXT: mgpu.barrier_wait %[[FREED]][%c0] :
// CHECK: } {mgpu.compute_steps}
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: mgpu.wait_smem_to_gmem 0
func.func @scale(%x: memref<64x256xf32>, %y: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<64x256xf32>) outs(%y : memref<64x256xf32>) {
  ^bb0(%xa: memref<64x256xf32>, %ya: memref<64x256xf32>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<64x256xf32>) outs(%ya : memref<64x256xf32>)
        in_specs [#cols] out_specs [#cols] params #two
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %xs: !block, %ys: !block):
      "test.step"(%k, %xs, %ys) : (index, !block, !block) -> ()
    }
  }
  return
}

// Blocks that change at every step (a: (k) -> (0, k), b: (k) -> (k, 0))
// are one fetch group: one barrier with an arrival per copy, one wait and
// one release per step. A block that never changes (w: (k) -> (0, 0)) has
// its own barriers and is fetched once.
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#b_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>>
#w_0 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, 0)>>

// CHECK-LABEL: func.func @groups
// CHECK: scratch [memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 2>, !mgpu.barrier<count = 2, arrivals = 2>]
// CHECK: ^bb0(%[[A:[^:]*]]: memref<64x256xf32>, %[[B:[^:]*]]: memref<256x64xf32>, %[[W:[^:]*]]: memref<64x64xf32>, %{{.*}}, %[[FULL:[^:]*]]: !mgpu.barrier<count = 2, arrivals = 2>, %[[EMPTY:[^:]*]]: !mgpu.barrier<count = 2, arrivals = 2>, %[[WFULL:[^:]*]]: !mgpu.barrier<count = 2>, %[[WEMPTY:[^:]*]]: !mgpu.barrier<count = 2, arrivals = 2>):
// CHECK: scf.for
// CHECK: mgpu.barrier_wait %[[EMPTY]][%[[SLOT:.*]]] :
// CHECK: mgpu.copy_gmem_to_smem %[[A]][{{.*}}], %{{.*}}, %[[FULL]][%[[SLOT]]]
// CHECK: mgpu.copy_gmem_to_smem %[[B]][{{.*}}], %{{.*}}, %[[FULL]][%[[SLOT]]]
// CHECK: mgpu.copy_gmem_to_smem %[[W]][{{.*}}], %{{.*}}, %[[WFULL]]
// CHECK: } else {
// CHECK: scf.for
// CHECK: mgpu.barrier_wait %[[FULL]]
// CHECK-NOT: mgpu.barrier_wait %[[FULL]]
// CHECK: mgpu.barrier_wait %[[WFULL]]
// CHECK: "test.step"
// CHECK: mgpu.barrier_arrive %[[EMPTY]]
// CHECK-NOT: mgpu.barrier_arrive %[[EMPTY]]
// CHECK: mgpu.barrier_arrive %[[WEMPTY]]
// CHECK: } {mgpu.compute_steps}
func.func @groups(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %w: memref<64x64xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a, %b, %w : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>) {
  ^bb0(%ag: memref<64x256xf32>, %bg: memref<256x64xf32>, %wg: memref<64x64xf32>):
    mgpu.emit_pipeline grid [4] ins(%ag, %bg, %wg : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>)
        in_specs [#a_k, #b_k, #w_0] out_specs [] params #two
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%k: index, %as: !block, %bs: !block, %ws: !block):
      "test.step"(%k, %as, %bs, %ws) : (index, !block, !block, !block) -> ()
    }
  }
  return
}
