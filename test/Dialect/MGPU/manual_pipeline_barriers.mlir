// JAX's manual_consumed_barriers, manual_ready_barriers and compute_context(pipeline_callback) on
// a warp-specialized emit_pipeline round-trip: the flag in the
// warp-specialization attribute, one consumed barrier per input among the
// body's arguments (after the blocks, before the carries), and
// mgpu.eval_pipeline in an argument-less compute_context (also inside a
// run_scoped there, as JAX's hopper matmul calls it).
// RUN: mgpu-opt %s --allow-unregistered-dialect | mgpu-opt --allow-unregistered-dialect | FileCheck %s

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#vec = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>
#manual = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!vblk = memref<64xf32, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>

// CHECK-LABEL: func.func @manual
// CHECK: mgpu.emit_pipeline grid [4] ins(%{{.*}}, %{{.*}} : memref<256x64xf16>, memref<256xf32>) in_specs [#{{.*}}, #{{.*}}] out_specs [] warp_specialization #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true> {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: memref<64x64xf16, #gpu.address_space<workgroup>>, %{{.*}}: memref<64xf32, #gpu.address_space<workgroup>>, %[[K:.*]]: !mgpu.barrier<count = 1, arrivals = 2>, %[[V:.*]]: !mgpu.barrier<count = 1, arrivals = 2>, %{{.*}}: vector<64xf32>):
// CHECK: mgpu.barrier_arrive %[[V]][%{{.*}}] : !mgpu.barrier<count = 1, arrivals = 2>
// CHECK: mgpu.barrier_arrive %[[K]][%{{.*}}] : !mgpu.barrier<count = 1, arrivals = 2>
// CHECK: } compute_context {
// CHECK: %[[LAST:.*]] = mgpu.eval_pipeline(%{{.*}} : vector<64xf32>)
// CHECK: "test.epilogue"(%[[LAST]])
func.func @manual(%x: memref<256x64xf16>, %y: memref<256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x64xf16>, memref<256xf32>) {
  ^bb0(%xa: memref<256x64xf16>, %ya: memref<256xf32>):
    mgpu.emit_pipeline grid [4] ins(%xa, %ya : memref<256x64xf16>, memref<256xf32>)
        in_specs [#rows, #vec] out_specs []
        warp_specialization #manual {
    ^bb0(%i: index, %xs: !blk, %ys: !vblk, %x_consumed: !cons, %y_consumed: !cons, %acc: vector<64xf32>):
      %c0 = arith.constant 0 : index
      %next = "test.step"(%acc, %xs, %ys) : (vector<64xf32>, !blk, !vblk) -> vector<64xf32>
      mgpu.barrier_arrive %y_consumed[%c0] : !cons
      mgpu.barrier_arrive %x_consumed[%c0] : !cons
      mgpu.yield %next : vector<64xf32>
    } compute_context {
      %init = "test.prologue"() : () -> vector<64xf32>
      %last = mgpu.eval_pipeline(%init : vector<64xf32>)
      "test.epilogue"(%last) : (vector<64xf32>) -> ()
    }
  }
  return
}

// CHECK-LABEL: func.func @in_run_scoped
// CHECK: compute_context {
// CHECK: mgpu.run_scoped -> vector<64x64xf32> {
// CHECK: mgpu.eval_pipeline(%{{.*}} : vector<64x64xf32>)
// CHECK-LABEL: func.func @no_carry
// CHECK: compute_context {
// CHECK-NEXT: mgpu.eval_pipeline()
func.func @in_run_scoped(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>)
        in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk, %acc: vector<64x64xf32>):
      mgpu.yield %acc : vector<64x64xf32>
    } compute_context {
      %r = mgpu.run_scoped -> vector<64x64xf32> {
      ^bb0(%zero: vector<64x64xf32>):
        %last = mgpu.eval_pipeline(%zero : vector<64x64xf32>)
        mgpu.yield %last : vector<64x64xf32>
      }
      "test.epilogue"(%r) : (vector<64x64xf32>) -> ()
    }
  }
  return
}

func.func @no_carry(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>)
        in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk):
      "test.step"(%xs) : (!blk) -> ()
      mgpu.yield
    } compute_context {
      mgpu.eval_pipeline()
    }
  }
  return
}

// JAX's manual_ready_barriers: one ready barrier per input before the
// consumed barriers, waited on by the body.
// CHECK-LABEL: func.func @ready
// CHECK: warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true, manual_consumed_barriers = true> {
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: memref<64x64xf16, #gpu.address_space<workgroup>>, %[[R:.*]]: !mgpu.barrier<count = 1>, %[[C:.*]]: !mgpu.barrier<count = 1, arrivals = 2>):
// CHECK: mgpu.barrier_wait %[[R]][%{{.*}}] : !mgpu.barrier<count = 1>
// CHECK: mgpu.barrier_arrive %[[C]][%{{.*}}] : !mgpu.barrier<count = 1, arrivals = 2>
func.func @ready(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>)
        in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true, manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %ready: !mgpu.barrier<count = 1>, %consumed: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_wait %ready[%c0] : !mgpu.barrier<count = 1>
      "test.step"(%xs) : (!blk) -> ()
      mgpu.barrier_arrive %consumed[%c0] : !cons
    }
  }
  return
}
