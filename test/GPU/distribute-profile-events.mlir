// RUN: mgpu-opt %s --mgpu-place-barriers --mgpu-distribute-warpgroups --canonicalize --cse | FileCheck %s

// A profiler event over the lanes of a warpgroup: lane 0 alone reads the
// clock and appends (tag, time) to its trace when the count at the trace's
// base is below the capacity, then bumps the count; no barrier is placed
// around it (no other lane touches the trace), and the plain accesses
// between the events are distributed as usual.

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {

// CHECK-LABEL: func.func @events
// CHECK: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[LANE:.+]]: index, %[[T:.+]]: memref<34xi64>, %{{.+}}: memref<128xf32, #gpu.address_space<workgroup>>):
// CHECK: %[[L0:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[L0]] {
// CHECK-NEXT: %[[NOW:.+]] = mgpu.global_timer : i64
// CHECK-NEXT: %[[N:.+]] = memref.load %[[T]][%[[BASE:.+]]] : memref<34xi64>
// CHECK-NEXT: %[[FITS:.+]] = arith.cmpi slt, %[[N]], %c8_i64
// CHECK-NEXT: scf.if %[[FITS]] {
// CHECK: memref.store %c1_i64, %[[T]][%{{.+}}] : memref<34xi64>
// CHECK-NEXT: memref.store %[[NOW]], %[[T]][%{{.+}}] : memref<34xi64>
// CHECK: memref.store %{{.+}}, %[[T]][%[[BASE]]] : memref<34xi64>
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK: vector.store
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK: scf.if %[[L0]] {
// CHECK-NEXT: mgpu.global_timer : i64
// The end tag: scope 1 | 2^31.
// CHECK: memref.store %c2147483649_i64, %[[T]]
// CHECK: return
func.func @events(%trace: memref<34xi64>) {
  mgpu.launch grid [1] warpgroups 2 outs(%trace : memref<34xi64>) shared [memref<128xf32, #s>] at [0] {
  ^bb0(%cta: index, %wg: index, %t: memref<34xi64>, %xs: memref<128xf32, #s>):
    %c0 = arith.constant 0 : index
    %c17 = arith.constant 17 : index
    %base = arith.muli %wg, %c17 : index
    mgpu.profile_event begin 1 in %t[%base] capacity 8 : memref<34xi64>
    %one = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<1.0> : vector<128xf32>
    vector.store %one, %xs[%c0] : memref<128xf32, #s>, vector<128xf32>
    mgpu.profile_event end 1 in %t[%base] capacity 8 : memref<34xi64>
  }
  return
}

}
