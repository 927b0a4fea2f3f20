// RUN: mgpu-opt %s --mgpu-profile-kernels | FileCheck %s

// --mgpu-profile-kernels: a profiled pallas_call (profile_space = 2: four
// events a trace, 1 + 2 * 4 = 9 words) over a grid of 4 x 2 with the
// second axis sequential has 4 traces, one per parallel program, 36 words in
// all, zeroed on the host, passed as a hidden global output. Its body finds
// its trace from the parallel program id, records the implicit scope named
// after the function (id 0) around the body and each trace_scope (ids in
// text order, a repeated name keeps its id) around its inlined region; the
// host writes the trace file after the call. An unprofiled kernel keeps
// the scopes' ops and nothing else.

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i, j) -> (i)>>
#prof = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                              profile_space = 2, profile_dir = "traces">

// CHECK-DAG: llvm.mlir.global internal constant @[[NAMES:__mgpu_profile_[0-9]+]]("profiled\00load\00store\00\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[DIR:__mgpu_profile_[0-9]+]]("traces\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[KERNEL:__mgpu_profile_[0-9]+]]("profiled\00")
// CHECK-DAG: func.func private @mgpuWriteProfile(i64, i64, i64, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: #[[GMEM:.+]] = #mgpu.block_spec<shape = [36], index_map = #{{.+}}, memory_space = gmem>

// CHECK-LABEL: func.func @profiled
// CHECK: %[[BUF:.+]] = memref.alloc() : memref<36xi64>
// CHECK: scf.for
// CHECK-NEXT: memref.store %c0_i64, %[[BUF]]
// CHECK: mgpu.pallas_call grid [4, 2] ins(%{{.+}} : memref<512xf32>) outs(%{{.+}}, %[[BUF]] : memref<512xf32>, memref<36xi64>)
// CHECK-SAME: out_specs [#{{.+}}, #[[GMEM]]]
// CHECK: ^bb0(%{{.+}}: memref<128xf32, #gpu.address_space<workgroup>>, %{{.+}}: memref<128xf32, #gpu.address_space<workgroup>>, %[[T:.+]]: memref<36xi64>):
// CHECK: %[[P:.+]] = mgpu.program_id 0
// CHECK-NOT: mgpu.program_id 1
// CHECK: %[[LIN:.+]] = arith.addi %{{.+}}, %[[P]]
// CHECK: %[[BASE:.+]] = arith.muli %[[LIN]], %c9
// CHECK: mgpu.profile_event begin 0 in %[[T]][%[[BASE]]] capacity 4
// CHECK: mgpu.profile_event begin 1 in %[[T]][%[[BASE]]] capacity 4
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: mgpu.profile_event end 1 in %[[T]][%[[BASE]]] capacity 4
// CHECK-NEXT: mgpu.profile_event begin 2 in
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: mgpu.profile_event end 2 in
// CHECK-NEXT: mgpu.profile_event begin 1 in
// CHECK-NEXT: mgpu.profile_event end 1 in
// CHECK-NEXT: mgpu.profile_event end 0 in %[[T]][%[[BASE]]] capacity 4
// CHECK-NEXT: {{^ *}}}
// CHECK: %[[PTR:.+]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[ADDR:.+]] = arith.index_cast %[[PTR]] : index to i64
// CHECK: call @mgpuWriteProfile(%[[ADDR]], %c4_i64, %c1_i64, %c4_i64{{.*}}, %{{.+}}, %c20_i64, %{{.+}}, %{{.+}})
// CHECK-NEXT: memref.dealloc %[[BUF]]
func.func @profiled(%x: memref<512xf32>, %o: memref<512xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
      in_specs [#blk] out_specs [#blk] params #prof {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = mgpu.trace_scope "load" {
      %r = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      mgpu.yield %r : vector<128xf32>
    } -> vector<128xf32>
    mgpu.trace_scope "store" {
      vector.transfer_write %v, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    }
    mgpu.trace_scope "load" {
    }
  }
  return
}

// CHECK-LABEL: func.func @unprofiled
// CHECK-NOT: mgpu.trace_scope
// CHECK-NOT: mgpu.profile_event
// CHECK: vector.transfer_read
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: return
func.func @unprofiled(%x: memref<512xf32>, %o: memref<512xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
      in_specs [#blk] out_specs [#blk] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = mgpu.trace_scope "load" {
      %r = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      mgpu.yield %r : vector<128xf32>
    } -> vector<128xf32>
    mgpu.trace_scope "store" {
      vector.transfer_write %v, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// An mpmd_map: every region gets the buffer as an extra output; region 0's
// 2 x 2 Pallas threads (grid a, thread t, by axis_index) have traces 0..3,
// region 1's 3 programs traces 4..6, 7 traces of 1 + 2 * 2 = 5 words. The
// regions' threads differ, so the writer is told 0 warpgroups per CTA.
// CHECK-LABEL: func.func @mpmd
// CHECK: %[[MB:.+]] = memref.alloc() : memref<35xi64>
// CHECK: mgpu.mpmd_map meshes [#{{.+}}, #{{.+}}] outs(%{{.+}}, %[[MB]] : memref<8xf32>, memref<35xi64>) params
// CHECK: ^bb0(%{{.+}}: memref<8xf32>, %[[T0:.+]]: memref<35xi64>):
// CHECK: %[[A:.+]] = mgpu.axis_index "a"
// CHECK: %[[TH:.+]] = mgpu.axis_index "t"
// CHECK: %[[L0:.+]] = arith.addi %{{.+}}, %[[TH]]
// CHECK: %[[B0:.+]] = arith.muli %[[L0]], %c5
// CHECK: mgpu.profile_event begin 0 in %[[T0]][%[[B0]]] capacity 2
// CHECK: mgpu.profile_event begin 1 in %[[T0]][%[[B0]]] capacity 2
// CHECK: ^bb0(%{{.+}}: memref<8xf32>, %[[T1:.+]]: memref<35xi64>):
// CHECK: %[[B:.+]] = mgpu.axis_index "b"
// CHECK: %[[L1:.+]] = arith.addi %{{.+}}, %[[B]]
// CHECK: %[[F1:.+]] = arith.addi %[[L1]], %c4
// CHECK: %[[B1:.+]] = arith.muli %[[F1]], %c5
// CHECK: mgpu.profile_event begin 0 in %[[T1]][%[[B1]]] capacity 2
// CHECK: mgpu.profile_event begin 2 in %[[T1]][%[[B1]]] capacity 2
// CHECK: call @mgpuWriteProfile(%{{.+}}, %c7_i64, %c0_i64{{.*}}, %c2_i64
#ma = #mgpu.mesh<grid = [2], grid_names = ["a"], num_threads = 2, thread_name = "t">
#mb = #mgpu.mesh<grid = [3], grid_names = ["b"]>
#mp = #mgpu.compiler_params<profile_space = 1, profile_dir = "traces">
func.func @mpmd(%o: memref<8xf32>) {
  mgpu.mpmd_map meshes [#ma, #mb] outs(%o : memref<8xf32>) params #mp {
  ^bb0(%oa: memref<8xf32>):
    mgpu.trace_scope "first" {
    }
  }, {
  ^bb0(%ob: memref<8xf32>):
    mgpu.trace_scope "second" {
    }
  }
  return
}
