// RUN: mgpu-opt %s --mgpu-lower-to-gpu --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-lower-to-gpu -split-input-file | mgpu-opt -split-input-file -o /dev/null

// A 1-D pallas_call: device copies of the operands, one CTA per program, one
// warpgroup, staged blocks in dynamic shared memory copied with 128-bit
// accesses, the body spread over the 128 lanes.

#block = #mgpu.block_spec<shape = [512], index_map = affine_map<(i) -> (i)>>
func.func @vector_add(%a: memref<2048xf32>, %b: memref<2048xf32>, %o: memref<2048xf32>) {
  mgpu.pallas_call grid [4] ins(%a, %b : memref<2048xf32>, memref<2048xf32>)
      outs(%o : memref<2048xf32>) in_specs [#block, #block] out_specs [#block] {
  ^bb0(%x: memref<512xf32, #gpu.address_space<workgroup>>,
       %y: memref<512xf32, #gpu.address_space<workgroup>>,
       %z: memref<512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %vx = vector.load %x[%c0] : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %vy = vector.load %y[%c0] : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %s = arith.addf %vx, %vy : vector<512xf32>
    vector.store %s, %z[%c0] : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
  }
  return
}

// CHECK-LABEL: func.func @vector_add
// CHECK-SAME: (%[[A:.*]]: memref<2048xf32>, %[[B:.*]]: memref<2048xf32>, %[[O:.*]]: memref<2048xf32>)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[SMEM:.*]] = arith.constant 6144 : i32
// CHECK: %[[DA:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.*}}] %[[DA]], %[[A]]
// CHECK: gpu.alloc async
// CHECK: %[[DO:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[T:.*]] = gpu.launch_func async [%{{.*}}] @vector_add_kernel::@vector_add_kernel blocks in (%[[C4]], %{{.*}}, %{{.*}}) threads in (%[[C128]], %{{.*}}, %{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: gpu.memcpy async [%[[T]]] %[[O]], %[[DO]]
// CHECK: gpu.dealloc async
// CHECK: gpu.wait [%{{.*}}]

// CHECK: gpu.module @vector_add_kernel
// CHECK: gpu.func @vector_add_kernel(%[[GA:.*]]: memref<2048xf32>, %{{.*}}: memref<2048xf32>, %[[GO:.*]]: memref<2048xf32>) kernel attributes {{.*}}nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}}
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[XS:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.block_id x
// Input blocks: the whole CTA copies 4 floats per access.
// CHECK: scf.for %{{.*}} = %[[TID]] to %{{.*}} step %{{.*}} {
// CHECK: vector.load %[[GA]][%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[XS]][%{{.*}}] {alignment = 16 : i64}
// CHECK: gpu.barrier
// The body: lane l holds elements 4l..4l+3 of the block.
// CHECK: %[[E:.*]] = arith.muli %[[LANE]], %{{.*}}
// CHECK: vector.load %[[XS]][%[[E]]] {alignment = 16 : i64} : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: vector.store
// CHECK: gpu.barrier
// The output block goes back.
// CHECK: vector.store %{{.*}}, %[[GO]][%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>

// -----

// A sequential axis is a loop in the CTA; the output block (same index at
// every step) is written back once, after the last step. The reduction over
// 64 columns uses 8 lanes per row and warp shuffles.

#row = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#acc = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#seq = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>
func.func @row_sum(%x: memref<64x256xf32>, %o: memref<64xf32>) {
  mgpu.pallas_call grid [4, 4] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>)
      in_specs [#row] out_specs [#acc] params #seq {
  ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %acc: memref<16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
    %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
    %s = vector.multi_reduction <add>, %v, %a [1] : vector<16x64xf32> to vector<16xf32>
    vector.transfer_write %s, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @row_sum
// CHECK: gpu.launch_func async [%{{.*}}] @row_sum_kernel::@row_sum_kernel blocks in (%[[C4:.*]], %{{.*}}, %{{.*}}) threads in (%[[C128:.*]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @row_sum_kernel
// CHECK-DAG: %[[STEPS:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[LASTSTEP:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[STEP:.*]] = %{{.*}} to %[[STEPS]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[STEP]], %[[LASTSTEP]]
// CHECK: gpu.barrier
// CHECK: nvvm.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: scf.if %[[LAST]] {
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>

// -----

// The same reduction with max_concurrent_steps = 2: the input is
// double-buffered. A prologue starts step 0's block with cp.async
// (nvgpu.device_async_copy, 16 bytes per thread, zero-filled past the
// array); each step starts the next block into the next slot, commits it
// as a group, waits for all groups but that one and synchronizes the CTA
// before the body reads the current slot. Both slots (current, newest
// fetched) are loop-carried. The accumulator (an output) stays
// single-buffered.

#row = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#acc = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#seq2 = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 2>
func.func @row_sum_pipelined(%x: memref<64x256xf32>, %o: memref<64xf32>) {
  mgpu.pallas_call grid [4, 4] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>)
      in_specs [#row] out_specs [#acc] params #seq2 {
  ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %acc: memref<16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
    %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
    %s = vector.multi_reduction <add>, %v, %a [1] : vector<16x64xf32> to vector<16xf32>
    vector.transfer_write %s, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @row_sum_pipelined
// CHECK: gpu.func @row_sum_pipelined_kernel
// CHECK-DAG: %[[STRIDE:.*]] = arith.constant 4096 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[FIRST:.*]] = memref.view %[[SMEM]][%[[C0]]][] {{.*}} to memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[FIRST]][%{{.*}}, %{{.*}}], 4, %{{.*}} {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CUR:.*]] = %[[C0]], %[[NEWEST:.*]] = %[[C0]]) -> (index, index) {
// CHECK: %[[SLOT:.*]] = arith.select %[[FETCH:.*]], %{{.*}}, %[[NEWEST]] : index
// CHECK: scf.if %[[FETCH]] {
// CHECK: %[[OFFSET:.*]] = arith.muli %[[SLOT]], %[[STRIDE]]
// CHECK: %[[TARGET:.*]] = memref.view %[[SMEM]][%[[OFFSET]]]
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[TARGET]]
// CHECK: }
// CHECK: %[[SHIFT:.*]] = arith.muli %[[CUR]], %[[STRIDE]]
// CHECK: %[[CURRENT:.*]] = memref.view %[[SMEM]][%[[SHIFT]]]
// CHECK: %[[MOVED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[CUR]] : index
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: vector.load %[[CURRENT]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: scf.yield %[[MOVED]], %[[SLOT]] : index, index

// -----

// Three buffers: the prologue fetches steps 0 and 1 (one commit group
// each), and each step waits for all groups but the newest two.

#row = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#acc = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#seq3 = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 3>
func.func @row_sum_three_buffers(%x: memref<64x256xf32>, %o: memref<64xf32>) {
  mgpu.pallas_call grid [4, 4] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>)
      in_specs [#row] out_specs [#acc] params #seq3 {
  ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %acc: memref<16xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
    %a = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
    %s = vector.multi_reduction <add>, %v, %a [1] : vector<16x64xf32> to vector<16xf32>
    vector.transfer_write %s, %acc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @row_sum_three_buffers
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %{{.*}} args
// CHECK: gpu.func @row_sum_three_buffers_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, index) {
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 2

// -----

// A mesh with two Pallas threads: 256 threads per CTA; the thread axis is
// the warpgroup index, and each warpgroup has its own named barrier.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#half = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>
func.func @two_threads(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#half] out_specs [#half] mesh #mesh {
  ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>, %os: memref<256xf32, #gpu.address_space<workgroup>>):
    %wg = mgpu.axis_index "wg"
    %c128 = arith.constant 128 : index
    %start = arith.muli %wg, %c128 : index
    %v = vector.load %xs[%start] : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.store %v, %os[%start] : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
  }
  return
}

// CHECK-LABEL: func.func @two_threads
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func {{.*}} threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @two_threads_kernel{{.*}} kernel attributes {{.*}}nvvm.reqntid = array<i32: 256, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %{{.*}}
// CHECK: %[[ID:.*]] = arith.index_cast %[[WG]] : index to i32
// CHECK: %[[BAR:.*]] = arith.addi %[[ID]], %{{.*}} : i32
// CHECK: arith.muli %[[WG]], %{{.*}}
// CHECK: vector.load {{.*}} {alignment = 16 : i64}
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %{{.*}}

// -----

// A mesh with a cluster: the launch has a cluster, program ids come from the
// cluster id and the position in the cluster.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i, c) -> (i * 2 + c)>>
func.func @clustered(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#block] out_specs [#block] mesh #mesh {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.store %v, %os[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
  }
  return
}

// CHECK-LABEL: func.func @clustered
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: gpu.launch_func {{.*}} clusters in (%[[C2]], %{{.*}}, %{{.*}}) blocks in (%[[C8]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @clustered_kernel
// CHECK-DAG: gpu.cluster_id x
// CHECK-DAG: gpu.cluster_block_id x

// -----

// A dynamic grid: the number of CTAs is an SSA value of the host.

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @dynamic(%x: memref<?xf32>, %o: memref<?xf32>, %n: index) {
  mgpu.pallas_call grid [%n] ins(%x : memref<?xf32>) outs(%o : memref<?xf32>)
      in_specs [#block] out_specs [#block] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    vector.store %v, %os[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
  }
  return
}

// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK: memref.dim
// CHECK: gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch_func {{.*}} blocks in (%[[N]], %{{.*}}, %{{.*}})
// Blocks at the end of the array are copied element by element, masked.
// CHECK: gpu.func @dynamic_kernel
// CHECK: scf.if
// CHECK: vector.load
// CHECK: } else {
// CHECK: memref.load

// -----

// mpmd_map with two pairs on the same grid: warp-specialized, one warpgroup
// per region in one CTA; the semaphore wait spins on lane 0.

#p = #mgpu.mesh<grid = [1], grid_names = ["p"]>
#c = #mgpu.mesh<grid = [1], grid_names = ["c"]>
func.func @producer_consumer(%buf: memref<128xf32>, %out: memref<128xf32>) {
  mgpu.mpmd_map meshes [#p, #c] ins(%buf : memref<128xf32>) outs(%out : memref<128xf32>)
      scratch [memref<1xi32>] {
  ^bb0(%b0: memref<128xf32>, %o0: memref<128xf32>, %s0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %v = arith.constant dense<2.0> : vector<128xf32>
    vector.store %v, %b0[%c0] : memref<128xf32>, vector<128xf32>
    mgpu.semaphore_signal %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%b1: memref<128xf32>, %o1: memref<128xf32>, %s1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %s1[%c0], %one : memref<1xi32>
    %v = vector.load %b1[%c0] : memref<128xf32>, vector<128xf32>
    vector.store %v, %o1[%c0] : memref<128xf32>, vector<128xf32>
  }
  return
}

// CHECK-LABEL: func.func @producer_consumer
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[S:.*]], %[[ST:.*]] = gpu.alloc async {{.*}} : memref<1xi32>
// CHECK: gpu.memset async [%[[ST]]] %[[S]], %{{.*}} : memref<1xi32>, i32
// CHECK: gpu.launch_func {{.*}} threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @producer_consumer_kernel
// CHECK: scf.if
// CHECK: vector.store
// CHECK: nvvm.barrier
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: memref.atomic_rmw addi
// CHECK: scf.if
// CHECK: scf.while
// CHECK: memref.generic_atomic_rmw
// CHECK: nvvm.nanosleep
// CHECK: nvvm.barrier
// CHECK: vector.load

// -----

// Different grids: CTA-partitioned, 2 + 4 CTAs, each region its own range.

#m0 = #mgpu.mesh<grid = [2], grid_names = ["a"]>
#m1 = #mgpu.mesh<grid = [4], grid_names = ["b"]>
func.func @fused(%x: memref<128xf32>, %y: memref<128xf32>) {
  mgpu.mpmd_map meshes [#m0, #m1] outs(%x, %y : memref<128xf32>, memref<128xf32>) {
  ^bb0(%x0: memref<128xf32>, %y0: memref<128xf32>):
    %i = mgpu.program_id 0
    %f = arith.index_cast %i : index to i32
    %c = arith.sitofp %f : i32 to f32
    memref.store %c, %x0[%i] : memref<128xf32>
  }, {
  ^bb0(%x1: memref<128xf32>, %y1: memref<128xf32>):
    %i = mgpu.program_id 0
    %f = arith.index_cast %i : index to i32
    %c = arith.sitofp %f : i32 to f32
    memref.store %c, %y1[%i] : memref<128xf32>
  }
  return
}

// CHECK-LABEL: func.func @fused
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK: gpu.launch_func {{.*}} blocks in (%[[C6]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @fused_kernel
// CHECK: %[[CTA:.*]] = gpu.block_id x
// CHECK: arith.cmpi ult, %[[CTA]], %{{.*}}
// CHECK: scf.if
// The scalar store happens once per Pallas thread, on lane 0.
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: scf.if
// CHECK: memref.store
// CHECK: %[[SHIFTED:.*]] = arith.subi %[[CTA]], %{{.*}} : index
// CHECK: arith.cmpi ult, %[[SHIFTED]], %{{.*}}
