// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s

// The profiler's compiler params and ops round-trip: profile_space and
// profile_dir together (JAX's CompilerParams), profile_bounds_check,
// trace_scope with and without results, and the events and clock the
// profiling pass leaves.

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
// CHECK: #mgpu.compiler_params<profile_space = 16, profile_dir = "/tmp/traces", profile_bounds_check = true>
#p = #mgpu.compiler_params<profile_space = 16, profile_dir = "/tmp/traces",
                           profile_bounds_check = true>

// CHECK-LABEL: func.func @scopes
// CHECK: mgpu.trace_scope "load" {
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: mgpu.yield %{{.+}} : vector<128xf32>
// CHECK-NEXT: } -> vector<128xf32>
// CHECK: mgpu.trace_scope "store" {
// CHECK-NEXT: mgpu.trace_scope "inner" {
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: {{^ *}}}
func.func @scopes(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [8] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#block] out_specs [#block] params #p {
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
      mgpu.trace_scope "inner" {
        vector.transfer_write %v, %os[%c0] {in_bounds = [true]}
            : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @events
// CHECK: mgpu.profile_event begin 3 in %{{.+}}[%{{.+}}] capacity 8 : memref<34xi64>
// CHECK: mgpu.profile_event end 3 in %{{.+}}[%{{.+}}] capacity 8 : memref<34xi64>
// CHECK: mgpu.global_timer : i64
func.func @events(%t: memref<34xi64>) {
  mgpu.launch grid [1] warpgroups 2 outs(%t : memref<34xi64>) {
  ^bb0(%cta: index, %wg: index, %trace: memref<34xi64>):
    %c17 = arith.constant 17 : index
    %base = arith.muli %wg, %c17 : index
    mgpu.profile_event begin 3 in %trace[%base] capacity 8 : memref<34xi64>
    mgpu.profile_event end 3 in %trace[%base] capacity 8 : memref<34xi64>
    %now = mgpu.global_timer : i64
  }
  return
}
