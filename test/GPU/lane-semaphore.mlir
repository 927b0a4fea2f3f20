// RUN: mgpu-opt %s --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: mgpu-opt %s --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s --check-prefix=EMU

// A semaphore signal in a per-lane launch (JAX's lane semantics) is each
// lane's: on the GPU a GPU-scope release fence and an atomic add; in the
// emulator an atomic add on the host. The emulator left it unlowered (its
// output did not verify: "must be inside a kernel", of the lane function).

// NVVM-LABEL: func.func @signal
// NVVM: gpu.launch
// NVVM: nvvm.memory.barrier <gpu>
// NVVM-NEXT: memref.atomic_rmw addi
// NVVM-NOT: mgpu.semaphore_signal

// EMU-LABEL: func.func @signal
// EMU: memref.atomic_rmw addi
// EMU-NOT: mgpu.semaphore_signal
func.func @signal(%o: memref<4xf32>) {
  mgpu.launch grid [4] warpgroups 1 lanes outs(%o : memref<4xf32>)
      global [memref<4xi32>] {
  ^bb0(%i: index, %wg: index, %lane: index, %os: memref<4xf32>, %sem: memref<4xi32>):
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %sem[%i], %one : memref<4xi32>
  }
  return
}
