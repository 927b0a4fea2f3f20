// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s --check-prefix=EMU
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu | FileCheck %s --check-prefix=CPU

// semaphore_wait with decrement = false and semaphore_read on each backend.
// On the GPU lane 0 spins on an atomic read (atomic_rmw ori 0) without the
// compare-and-swap that takes the value away, then fences; a read is lane
// 0's atomic read and a fence, broadcast to the warpgroup through shared
// scratch. The emulator calls the runtime's no-decrement wait, and the
// read is a host atomic; interpret mode does the same.

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>

// CHECK-LABEL: func.func @options
// CHECK: gpu.launch
// CHECK: scf.while
// CHECK-NOT: memref.generic_atomic_rmw
// CHECK: memref.atomic_rmw ori %c0_i32, %{{.*}}[%c0] : (i32, memref<2xi32>) -> i32
// CHECK: arith.cmpi slt
// CHECK: nvvm.nanosleep
// CHECK: nvvm.memory.barrier
// CHECK: scf.if
// CHECK: %[[R:.*]] = memref.atomic_rmw ori %c0_i32, %{{.*}}[%c1] : (i32, memref<2xi32>) -> i32
// CHECK-NEXT: nvvm.memory.barrier
// CHECK: memref.store %[[R]]
// CHECK: nvvm.barrier

// EMU-LABEL: func.func @options
// EMU: call @mgpuHostSemaphoreWaitNoDecrement(
// EMU: memref.atomic_rmw ori

// CPU-LABEL: func.func @options
// CPU: call @mgpuHostSemaphoreWaitNoDecrement(
// CPU: memref.atomic_rmw ori %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<2xi32>) -> i32
func.func @options(%o: memref<2xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<2xi32>) scratch [memref<2xi32>] {
  ^bb0(%og: memref<2xi32>, %sem: memref<2xi32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %sem[%c0], %one {decrement = false} : memref<2xi32>
    %v = mgpu.semaphore_read %sem[%c1] : memref<2xi32>
    memref.store %v, %og[%c0] : memref<2xi32>
  }
  return
}
