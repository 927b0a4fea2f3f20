// RUN: mgpu-opt %s --mgpu-place-barriers --mgpu-distribute-warpgroups --canonicalize --cse | FileCheck %s

// mgpu.atomic_store over the lanes of a warpgroup: each lane combines the
// elements it holds into memory, one memref.atomic_rmw per element (LLVM
// atomicrmw, then PTX atom); a scalar is one atomic of lane 0 per Pallas
// thread. Plain accesses of other lanes before it are ordered by a named
// barrier; atomics need none among themselves.

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {

// 512 f32 elements: lane l holds 4l..4l+3, so four atomics per lane at
// 4l + k, and no barrier between the two atomic stores.
// CHECK-LABEL: func.func @vector_add
// CHECK: ^bb0(%{{.+}}: index, %{{.+}}: index, %[[LANE:.+]]: index, %[[X:.+]]: memref<512xf32, #gpu.address_space<workgroup>>):
// CHECK: %[[AT:.+]] = arith.muli %[[LANE]], %c4
// CHECK: memref.atomic_rmw addf %{{.+}}, %[[X]][%[[AT]]] : (f32, memref<512xf32, #gpu.address_space<workgroup>>) -> f32
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK-COUNT-7: memref.atomic_rmw addf
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @vector_add() {
  mgpu.launch grid [1] warpgroups 1 shared [memref<512xf32, #s>] at [0] {
  ^bb0(%cta: index, %wg: index, %xs: memref<512xf32, #s>):
    %c0 = arith.constant 0 : index
    %one = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<1.0> : vector<512xf32>
    mgpu.atomic_store add %one, %xs[%c0] : vector<512xf32>, memref<512xf32, #s>
    mgpu.atomic_store add %one, %xs[%c0] : vector<512xf32>, memref<512xf32, #s>
  }
  return
}

// A scalar is stored once, by lane 0, after a barrier that orders the
// plain store every lane made before it, and with none between atomics;
// the kinds map to signed integer
// max/min and the bitwise ops.
// CHECK-LABEL: func.func @scalars
// CHECK: vector.store
// CHECK: mgpu.warpgroup_barrier
// CHECK: %[[L0:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK: scf.if %[[L0]] {
// CHECK-NEXT: memref.atomic_rmw maxs %{{.+}}, %{{.+}}[%{{.+}}] : (i32, memref<128xi32>) -> i32
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK: scf.if %[[L0]] {
// CHECK-NEXT: memref.atomic_rmw mins
// CHECK-NOT: mgpu.warpgroup_barrier
// CHECK: memref.atomic_rmw andi
// CHECK: memref.atomic_rmw ori
// CHECK: memref.atomic_rmw xori
// CHECK: memref.atomic_rmw addi
func.func @scalars(%g: memref<128xi32>) {
  mgpu.launch grid [1] warpgroups 1 outs(%g : memref<128xi32>) {
  ^bb0(%cta: index, %wg: index, %gs: memref<128xi32>):
    %c0 = arith.constant 0 : index
    %x = arith.constant 5 : i32
    %z = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<0> : vector<128xi32>
    vector.store %z, %gs[%c0] : memref<128xi32>, vector<128xi32>
    mgpu.atomic_store max %x, %gs[%c0] : i32, memref<128xi32>
    mgpu.atomic_store min %x, %gs[%c0] : i32, memref<128xi32>
    mgpu.atomic_store and %x, %gs[%c0] : i32, memref<128xi32>
    mgpu.atomic_store or %x, %gs[%c0] : i32, memref<128xi32>
    mgpu.atomic_store xor %x, %gs[%c0] : i32, memref<128xi32>
    mgpu.atomic_store add %x, %gs[%c0] : i32, memref<128xi32>
  }
  return
}

// bf16 max in global memory ignores NaN like PTX's atom.max (maxnumf).
// CHECK-LABEL: func.func @bf16_max
// CHECK: memref.atomic_rmw maxnumf %{{.+}} : (bf16, memref<256xbf16>) -> bf16
func.func @bf16_max(%g: memref<256xbf16>) {
  mgpu.launch grid [1] warpgroups 1 outs(%g : memref<256xbf16>) {
  ^bb0(%cta: index, %wg: index, %gs: memref<256xbf16>):
    %c0 = arith.constant 0 : index
    %v = arith.constant {mgpu.out_layouts = [#mgpu.layout<strided>]} dense<1.0> : vector<256xbf16>
    mgpu.atomic_store max %v, %gs[%c0] : vector<256xbf16>, memref<256xbf16>
  }
  return
}

}
