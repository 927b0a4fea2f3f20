// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --allow-unregistered-dialect --mgpu-expand-pipelines -split-input-file | mgpu-opt --allow-unregistered-dialect -split-input-file -o /dev/null

// A pallas_call with a sequential axis and 2 buffers becomes its kernel
// form: whole arrays in gmem, an arena with two 16x64 slots for the input
// and two for the output, one barrier per input slot; a prologue fetches
// step 0, and each step fetches step s + 1 into the next slot of the ring,
// waits for its own block with the parity of the slot's phase, runs the
// body on the current slots and, when the output block leaves (here after
// the last step), commits shared memory and copies it out. Before the
// kernel ends, every copy out has landed.

#row = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#acc = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 2>
func.func @pipelined(%x: memref<64x256xf32>, %o: memref<64xf32>) {
  mgpu.pallas_call grid [4, 4] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>)
      in_specs [#row] out_specs [#acc] params #p {
  ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %a: memref<16xf32, #gpu.address_space<workgroup>>):
    %k = mgpu.program_id 1
    "test.body"(%k, %xs, %a) : (index, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<16xf32, #gpu.address_space<workgroup>>) -> ()
  }
  return
}

// CHECK-DAG: #[[WHOLE_X:.*]] = #mgpu.block_spec<shape = [64, 256], index_map = #{{.*}}, memory_space = gmem>
// CHECK-DAG: #[[WHOLE_O:.*]] = #mgpu.block_spec<shape = [64], index_map = #{{.*}}, memory_space = gmem>
// CHECK-LABEL: func.func @pipelined
// CHECK: mgpu.pallas_call grid [4, 4] ins(%{{.*}} : memref<64x256xf32>) outs(%{{.*}} : memref<64xf32>) in_specs [#[[WHOLE_X]]] out_specs [#[[WHOLE_O]]] scratch [memref<8448xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] params #{{.*}} expanded {
// CHECK-NEXT: ^bb0(%[[X:.*]]: memref<64x256xf32>, %[[O:.*]]: memref<64xf32>, %[[ARENA:.*]]: memref<8448xi8, #gpu.address_space<workgroup>>, %[[BAR:.*]]: !mgpu.barrier<count = 2>):
// CHECK: %[[I:.*]] = mgpu.program_id 0
// CHECK: %[[STEPS:.*]] = mgpu.num_programs 1
// Prologue.
// CHECK: %[[NEWEST:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %c1) -> (index) {
// CHECK: mgpu.copy_gmem_to_smem %[[X]][%{{.*}}, %{{.*}}], %{{.*}}, %[[BAR]][%{{.*}}]
// Steps: current slot, newest slot, output slot.
// CHECK: scf.for %[[S:.*]] = %c0 to %[[STEPS]] step %c1 iter_args(%[[CUR:.*]] = %c0, %{{.*}} = %[[NEWEST]], %[[OUT:.*]] = %c0)
// CHECK: scf.if
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.muli
// CHECK-NEXT: memref.view %[[ARENA]]
// CHECK-NEXT: mgpu.copy_gmem_to_smem %[[X]]
// The wait is for the next phase (--mgpu-track-barrier-phases gives it its
// parity).
// CHECK: scf.if
// CHECK-NEXT: mgpu.barrier_wait %[[BAR]][%[[CUR]]] :
// CHECK: %[[XS:.*]] = memref.view %[[ARENA]]
// CHECK: %[[ACC:.*]] = memref.view %[[ARENA]]
// CHECK: "test.body"(%[[S]], %[[XS]], %[[ACC]])
// CHECK: scf.if
// CHECK-NEXT: mgpu.commit_smem
// CHECK: mgpu.copy_smem_to_gmem %[[ACC]], %[[O]][%{{.*}}]
// CHECK: scf.yield
// CHECK: mgpu.wait_smem_to_gmem 0
// CHECK-NOT: mgpu.program_id 1

// -----

// An input that is also the output (input_output_aliases), with the same
// block: one buffer of one slot for both refs (so that a write through the
// input's ref is the output, as in global memory), read in step order after
// the copies out before it have landed, and copied out from.

#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#p = #mgpu.compiler_params<dimension_semantics = [sequential], max_concurrent_steps = 3>
func.func @aliased(%x: memref<1024xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<1024xf32>) outs(%x : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #p {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>, %os: memref<256xf32, #gpu.address_space<workgroup>>):
    "test.body"(%xs, %os) : (memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @aliased
// CHECK: scratch [memref<1024xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>]
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: mgpu.wait_smem_to_gmem 0{{$}}
// CHECK: mgpu.copy_gmem_to_smem
// CHECK-NOT: mgpu.copy_gmem_to_smem
// CHECK: %[[VIEW:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: "test.body"(%[[VIEW]], %[[VIEW]])
// CHECK: mgpu.copy_smem_to_gmem %[[VIEW]]

// -----

// Pallas threads of a mesh share their program's blocks: thread 0 issues
// the copies, all wait, all arrive on a barrier of 2 arrivals before
// thread 0 copies out.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#b = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>
func.func @threads(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] mesh #mesh {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>, %os: memref<256xf32, #gpu.address_space<workgroup>>):
    "test.body"(%xs, %os) : (memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @threads
// CHECK: scratch [memref<2048xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>, !mgpu.barrier<count = 1, arrivals = 2>]
// CHECK: ^bb0(%{{.*}}: memref<1024xf32>, %{{.*}}: memref<1024xf32>, %{{.*}}: memref<2048xi8, #gpu.address_space<workgroup>>, %[[LOADED:.*]]: !mgpu.barrier<count = 1>, %[[WRITTEN:.*]]: !mgpu.barrier<count = 1, arrivals = 2>):
// CHECK: %[[WG:.*]] = mgpu.axis_index "wg"
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[WG]], %c0
// CHECK: scf.if %[[LEADER]] {
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: mgpu.barrier_wait %[[LOADED]]
// CHECK: "test.body"
// CHECK: mgpu.commit_smem
// CHECK-NEXT: mgpu.barrier_arrive %[[WRITTEN]][%c0]
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: mgpu.barrier_wait %[[WRITTEN]][%c0] :
// CHECK: mgpu.copy_smem_to_gmem

// -----

// emit_pipeline inside an mpmd_map of two Pallas threads: each runs its
// own pipeline, in its own range of the arena and of the barriers, which
// are added to the kernel's scratch; the body sees the step index.

#mesh = #mgpu.mesh<grid = [1], grid_names = ["g0"], num_threads = 2, thread_name = "wg">
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
func.func @emit(%x: memref<256xf32>, %o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x0: memref<256xf32>, %o0: memref<4xf32>):
    mgpu.emit_pipeline grid [4] ins(%x0 : memref<256xf32>) in_specs [#s] out_specs [] {
    ^bb0(%k: index, %xs: memref<64xf32, #gpu.address_space<workgroup>>):
      "test.body"(%k, %xs) : (index, memref<64xf32, #gpu.address_space<workgroup>>) -> ()
    }
  }
  return
}

// CHECK-LABEL: func.func @emit
// CHECK: mgpu.mpmd_map meshes [#{{.*}}] ins(%{{.*}} : memref<256xf32>) outs(%{{.*}} : memref<4xf32>) scratch [memref<512xi8, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] attributes {mgpu.internal_scratch = 2 : i64} {
// CHECK: %[[WG:.*]] = mgpu.axis_index "wg"
// CHECK: %[[BASE:.*]] = arith.muli %[[WG]], %c256
// CHECK: scf.for %[[K:.*]] = %c0 to %c4
// CHECK: "test.body"(%[[K]], %{{.*}})
// CHECK-NOT: mgpu.emit_pipeline

// -----

// Nothing to stage, no sequential axis: the body runs as it is.

#g = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
func.func @kernel(%x: memref<8xf32>) {
  mgpu.pallas_call grid [2] outs(%x : memref<8xf32>) in_specs [] out_specs [#g] {
  ^bb0(%xs: memref<8xf32>):
    "test.body"(%xs) : (memref<8xf32>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @kernel
// CHECK: mgpu.pallas_call grid [2] outs(%{{.*}} : memref<8xf32>) in_specs [] out_specs [#{{.*}}] expanded {
// CHECK-NEXT: ^bb0(%[[XS:.*]]: memref<8xf32>):
// CHECK-NEXT: "test.body"(%[[XS]])
// CHECK-NEXT: }

// -----

// Index maps with symbols (JAX's `lambda k: (n, k)` capturing n): the
// values index_map_symbols binds are the maps' symbols at every step; the
// block's rows start at n * 16.
#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
#captured = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k)[s0] -> (s0, k)>>
// CHECK-LABEL: func.func @index_map_symbols
// CHECK: %[[N:.*]] = mgpu.program_id 0
// CHECK: %[[ROW:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%[[ROW]], %{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}] : memref<32x256xf32>, memref<16x64xf32
func.func @index_map_symbols(%x: memref<32x256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<32x256xf32>) {
  ^bb0(%xg: memref<32x256xf32>):
    %n = mgpu.program_id 0
    mgpu.emit_pipeline grid [4] ins(%xg : memref<32x256xf32>) in_specs [#captured] out_specs [] index_map_symbols(%n) {
    ^bb0(%k: index, %b: memref<16x64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}
