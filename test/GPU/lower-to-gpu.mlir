// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-outline-kernels --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu -split-input-file | mgpu-opt -split-input-file -o /dev/null

// --mgpu-lower-to-gpu on the kernel form (what --mgpu-expand-pipelines makes
// of each pallas_call), outlined by --mgpu-outline-kernels: device copies of
// the operands, the launch geometry, the shared memory of the pipeline
// (slots zeroed by the CTA and fenced for the async proxy, barriers
// initialized by thread 0, then one CTA-wide barrier), the body distributed over the lanes with named
// warpgroup barriers where lanes exchange or hand memory to async copies,
// and the kernel-level ops kept for a backend.

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
// CHECK-DAG: %[[SMEM:.*]] = arith.constant 6280 : i32
// CHECK: %[[DA:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.*}}] %[[DA]], %[[A]]
// CHECK: gpu.alloc async
// CHECK: %[[DO:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[T:.*]] = gpu.launch_func async [%{{.*}}] @vector_add_kernel::@vector_add_kernel blocks in (%[[C4]], %{{.*}}, %{{.*}}) threads in (%[[C128]], %{{.*}}, %{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: gpu.memcpy async [%[[T]]] %[[O]], %[[DO]]
// CHECK: gpu.dealloc async
// CHECK: gpu.wait [%{{.*}}]

// CHECK: gpu.func @vector_add_kernel(%[[GA:.*]]: memref<2048xf32>, %{{.*}}: memref<2048xf32>, %[[GO:.*]]: memref<2048xf32>) kernel attributes {{.*}}nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}}
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[ARENA:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<6144xi8, #gpu.address_space<workgroup>>
// The scratch is not zeroed: shared memory starts undefined, as JAX's.
// CHECK-NOT: vector.store
// CHECK: %[[WORDS:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: %[[BAR:.*]] = builtin.unrealized_conversion_cast %[[WORDS]] : memref<1xi64, #gpu.address_space<workgroup>> to !mgpu.barrier<count = 1>
// CHECK: scf.if
// CHECK-NEXT: mgpu.barrier_init %[[BAR]]
// CHECK-NOT: mgpu.commit_smem
// CHECK: gpu.barrier
// CHECK: %[[XS:.*]] = memref.view %[[ARENA]]
// CHECK: mgpu.warpgroup_barrier
// CHECK: mgpu.copy_gmem_to_smem %[[GA]][%{{.*}}], %[[XS]], %[[BAR]][%{{.*}}]
// CHECK: mgpu.barrier_wait %[[BAR]][%{{.*}}] parity %{{.*}}
// The body: lane l holds elements 4l..4l+3 of the block.
// CHECK: %[[E:.*]] = arith.muli %[[LANE]], %{{.*}}
// CHECK: vector.load %[[XS]][%[[E]]] {alignment = 16 : i64} : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: vector.store
// Every lane's writes, then a barrier, then the copy out.
// CHECK: mgpu.commit_smem
// CHECK-NEXT: mgpu.warpgroup_barrier
// CHECK-NEXT: mgpu.copy_smem_to_gmem %{{.*}}, %[[GO]][%{{.*}}]
// CHECK-NEXT: mgpu.wait_smem_to_gmem 0
// CHECK-NEXT: mgpu.warpgroup_barrier
// CHECK-NOT: gpu.barrier

// -----

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

// A sequential axis is a loop in the CTA: the block of each step is fetched
// into the slot and waited for with the parity of its phase; the output
// block (the same at every step) goes out once, after the last step. The
// reduction over 64 columns uses 8 lanes per row and warp shuffles.

// CHECK-LABEL: func.func @row_sum
// CHECK: gpu.launch_func async [%{{.*}}] @row_sum_kernel::@row_sum_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: gpu.func @row_sum_kernel
// CHECK: gpu.barrier
// CHECK: scf.for %[[STEP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] parity %{{.*}}
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: scf.if
// CHECK: mgpu.commit_smem
// CHECK: mgpu.copy_smem_to_gmem
// CHECK: mgpu.wait_smem_to_gmem 0

// -----

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

// Two buffers: the prologue fetches step 0 into slot 0 (a loop of one
// step, folded); each step fetches the next block into the next slot of the
// ring (newest slot carried) and waits for the current one (current slot
// and the phase bits of --mgpu-track-barrier-phases carried).

// CHECK-LABEL: func.func @row_sum_pipelined
// CHECK: gpu.func @row_sum_pipelined_kernel
// CHECK-DAG: %[[SLOT:.*]] = arith.constant 4096 : index
// CHECK: %[[BAR:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>> to !mgpu.barrier<count = 2>
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CUR:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[BITS:.*]] = %{{.*}}) -> (index, index, index, i64) {
// CHECK: arith.muli %{{.*}}, %[[SLOT]]
// CHECK: mgpu.copy_gmem_to_smem %{{.*}}, %{{.*}}, %[[BAR]][%{{.*}}]
// CHECK: arith.shrui %[[BITS]]
// CHECK: mgpu.barrier_wait %[[BAR]][%[[CUR]]] parity

// -----

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

// Three buffers: the prologue fetches steps 0 and 1; three barriers.

// CHECK-LABEL: func.func @row_sum_three_buffers
// CHECK: gpu.func @row_sum_three_buffers_kernel
// CHECK: to !mgpu.barrier<count = 3>
// CHECK: scf.for
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: scf.for
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: mgpu.barrier_wait

// -----

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

// A mesh with two Pallas threads: 256 threads per CTA, both warpgroups see
// the same blocks; warpgroup 0 issues the copies, both wait, both arrive on
// the `written` barrier (2 arrivals) before warpgroup 0 copies out.

// CHECK-LABEL: func.func @two_threads
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func {{.*}} threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @two_threads_kernel{{.*}} kernel attributes {{.*}}nvvm.reqntid = array<i32: 256, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %{{.*}}
// CHECK: %[[WRITTEN:.*]] = builtin.unrealized_conversion_cast %{{.*}} to !mgpu.barrier<count = 1, arrivals = 2>
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[WG]], %{{.*}}
// CHECK: scf.if %[[LEADER]] {
// CHECK: mgpu.copy_gmem_to_smem
// CHECK: mgpu.barrier_wait
// CHECK: mgpu.commit_smem
// CHECK: mgpu.barrier_arrive %[[WRITTEN]]
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: mgpu.barrier_wait %[[WRITTEN]]
// CHECK: mgpu.copy_smem_to_gmem

// -----

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

// A dynamic grid: the number of CTAs is an SSA value of the host.

// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK: memref.dim
// CHECK: gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch_func {{.*}} blocks in (%[[N]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @dynamic_kernel
// CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>

// -----

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

// mpmd_map with two pairs on the same grid: warp-specialized, one warpgroup
// per region in one CTA; the semaphore signal and the wait stay for a
// backend (the signal's release fence is the backend's), each on lane 0,
// the warpgroup waiting for the wait.

// CHECK-LABEL: func.func @producer_consumer
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[S:.*]], %[[ST:.*]] = gpu.alloc async {{.*}} : memref<1xi32>
// CHECK: gpu.memset async [%[[ST]]] %[[S]], %{{.*}} : memref<1xi32>, i32
// CHECK: gpu.launch_func {{.*}} threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK: gpu.func @producer_consumer_kernel
// CHECK: scf.if
// CHECK: vector.store
// CHECK: mgpu.warpgroup_barrier
// CHECK: scf.if
// CHECK-NEXT: mgpu.semaphore_signal
// CHECK: scf.if
// CHECK: mgpu.semaphore_wait
// CHECK: mgpu.warpgroup_barrier
// CHECK: vector.load

// -----

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

// Different grids: CTA-partitioned, 2 + 4 CTAs, each region its own range.

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
