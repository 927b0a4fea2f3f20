// RUN: mgpu-opt %s | FileCheck %s
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The launch form (mgpu.launch): CTA and thread indices, scalars, arrays,
// then planned scratch, as body arguments.

// CHECK-LABEL: func.func @pallas_threads
// CHECK: mgpu.launch grid [%{{.+}}, 2] cluster [2] warpgroups 2 scalars(%{{.+}}) ins(%{{.+}} : memref<1024xf32>) outs(%{{.+}} : memref<1024xf32>) global [memref<4xi32>] shared [memref<256xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] at [0, 1024] {
// CHECK: ^bb0(%{{.+}}: index, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index, %{{.+}}: memref<1024xf32>, %{{.+}}: memref<1024xf32>, %{{.+}}: memref<4xi32>, %{{.+}}: memref<256xf32, #gpu.address_space<workgroup>>, %{{.+}}: !mgpu.barrier<count = 2>):
func.func @pallas_threads(%n: index, %a: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.launch grid [%n, 2] cluster [2] warpgroups 2 scalars(%n)
      ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
      global [memref<4xi32>]
      shared [memref<256xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>] at [0, 1024] {
  ^bb0(%i: index, %j: index, %c: index, %wg: index, %size: index,
       %x: memref<1024xf32>, %y: memref<1024xf32>, %sem: memref<4xi32>,
       %buf: memref<256xf32, #gpu.address_space<workgroup>>,
       %bar: !mgpu.barrier<count = 2>):
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %sem[%wg], %one : memref<4xi32>
    mgpu.barrier_arrive %bar[%c] : !mgpu.barrier<count = 2>
  }
  return
}

// Per-lane code (--mgpu-distribute-warpgroups): a lane index after the
// warpgroup's. The terminator may be written.
// CHECK-LABEL: func.func @lanes
// CHECK: mgpu.launch grid [4] warpgroups 1 lanes outs(%{{.+}} : memref<512xf32>) {
// CHECK: ^bb0(%{{.+}}: index, %{{.+}}: index, %{{.+}}: index, %{{.+}}: memref<512xf32>):
func.func @lanes(%o: memref<512xf32>) {
  mgpu.launch grid [4] warpgroups 1 lanes outs(%o : memref<512xf32>) {
  ^bb0(%cta: index, %wg: index, %lane: index, %y: memref<512xf32>):
    %c128 = arith.constant 128 : index
    %base = arith.muli %cta, %c128 : index
    %at = arith.addi %base, %lane : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %y[%at] : memref<512xf32>
    mgpu.yield
  }
  return
}
