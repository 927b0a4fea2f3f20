// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines | mgpu-opt --allow-unregistered-dialect -o /dev/null

// JAX's manual_consumed_barriers with compute_context(pipeline_callback):
// every input has its own release barrier (2 compute threads arrive), all
// inputs share one fetch barrier (an arrival per copy) and are fetched at
// every step; the memory thread waits for each input's release before its
// copy, in input order (JAX's), and drains each ring; the body's arrivals
// become arrivals on the step's slot, and the pipeline adds no release and
// no wgmma_wait of its own. The compute_context runs around the steps: its
// prologue before the loop (after the register increase), its epilogue on
// the loop's last carry; the scf.if of the two roles yields nothing.

// CHECK-LABEL: func.func @manual
// CHECK: scratch [memref<33280xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 2, arrivals = 2>, !mgpu.barrier<count = 2, arrivals = 2>]
// CHECK-NEXT: ^bb0(%{{.*}}: memref<256x64xf32>, %[[W:.*]]: memref<256xf32>, %{{.*}}: memref<33280xi8, #gpu.address_space<workgroup>>, %[[FETCHED:.*]]: !mgpu.barrier<count = 2, arrivals = 2>, %[[X_FREE:.*]]: !mgpu.barrier<count = 2, arrivals = 2>, %[[W_FREE:.*]]: !mgpu.barrier<count = 2, arrivals = 2>):
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: mgpu.set_max_registers 40 decrease
// CHECK: %[[FILLS:.*]]:2 = scf.for
// CHECK: %[[REFILL:.*]] = arith.cmpi uge
// CHECK-NEXT: scf.if %[[REFILL]] {
// CHECK-NEXT: mgpu.barrier_wait %[[X_FREE]][%[[SLOT:.*]]] :
// CHECK: mgpu.copy_gmem_to_smem {{.*}}, %[[FETCHED]][%[[SLOT]]] :
// CHECK-NEXT: scf.if %[[REFILL]] {
// CHECK-NEXT: mgpu.barrier_wait %[[W_FREE]][%[[SLOT]]] :
// CHECK: mgpu.copy_gmem_to_smem %[[W]][{{.*}}], %{{.*}}, %[[FETCHED]][%[[SLOT]]] :
// CHECK: scf.for
// CHECK-NEXT: arith.remui
// CHECK-NEXT: mgpu.barrier_wait %[[X_FREE]]
// CHECK: scf.for
// CHECK-NEXT: arith.remui
// CHECK-NEXT: mgpu.barrier_wait %[[W_FREE]]
// CHECK: } else {
// CHECK-NEXT: mgpu.set_max_registers 232 increase
// CHECK-NEXT: %[[INIT:.*]] = "test.prologue"()
// CHECK-NEXT: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[CUR:.*]] = %{{.*}}, %{{.*}} = %[[INIT]]) -> (index, vector<16xf32>) {
// CHECK-NEXT: mgpu.barrier_wait %[[FETCHED]][%[[CUR]]] :
// CHECK: "test.read_w"
// CHECK-NEXT: mgpu.barrier_arrive %[[W_FREE]][%[[CUR]]] :
// CHECK-NEXT: "test.read_x"
// CHECK-NEXT: mgpu.barrier_arrive %[[X_FREE]][%[[CUR]]] :
// CHECK-NOT: mgpu.barrier_arrive
// CHECK-NOT: mgpu.wgmma_wait
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: "test.epilogue"(%[[LOOP]]#1)
// CHECK-NEXT: }
// CHECK-NEXT: }
#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#vec = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
#manual = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
!xblk = memref<64x64xf32, #gpu.address_space<workgroup>>
!wblk = memref<64xf32, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @manual(%x: memref<256x64xf32>, %w: memref<256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x, %w : memref<256x64xf32>, memref<256xf32>) {
  ^bb0(%xa: memref<256x64xf32>, %wa: memref<256xf32>):
    mgpu.emit_pipeline grid [4] ins(%xa, %wa : memref<256x64xf32>, memref<256xf32>)
        in_specs [#rows, #vec] out_specs [] params #two warp_specialization #manual {
    ^bb0(%i: index, %xs: !xblk, %ws: !wblk, %x_consumed: !cons, %w_consumed: !cons, %acc: vector<16xf32>):
      %c0 = arith.constant 0 : index
      %a = "test.read_w"(%acc, %ws) : (vector<16xf32>, !wblk) -> vector<16xf32>
      mgpu.barrier_arrive %w_consumed[%c0] : !cons
      %next = "test.read_x"(%a, %xs) : (vector<16xf32>, !xblk) -> vector<16xf32>
      mgpu.barrier_arrive %x_consumed[%c0] : !cons
      mgpu.yield %next : vector<16xf32>
    } compute_context {
      %init = "test.prologue"() : () -> vector<16xf32>
      %last = mgpu.eval_pipeline(%init : vector<16xf32>)
      "test.epilogue"(%last) : (vector<16xf32>) -> ()
    }
  }
  return
}
