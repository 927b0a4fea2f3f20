// Upstream-style GPU programs, with outlined kernels (gpu.module, gpu.func,
// gpu.launch_func on an async token chain), run on the emulator: each
// launch_func becomes an inline launch of the kernel's body. It lost its
// token producers and left a null operand before (a "null operand found"
// error, a crash without the verifier). Workgroup attributions live in
// dynamic shared memory, private ones on each thread's stack, for inline
// launches too (whose attributions were unlinked operands: a crash). What
// the emulator cannot run is refused at the launch.
// RUN: rm -rf %t && split-file %s %t
// RUN: mgpu-run %S/../../Runtime/Inputs/vector-add.mlir -e main --backend=emulate | FileCheck %s --check-prefix=VADD
// RUN: mgpu-run %S/../../Runtime/gpu-cluster.mlir -e main --backend=emulate | FileCheck %s --check-prefix=CLUSTER
// RUN: mgpu-run %t/attributions.mlir -e main --backend=emulate | FileCheck %s --check-prefix=ATTR
// RUN: mgpu-opt %t/attributions.mlir --mgpu-emulate-gpu | FileCheck %s --check-prefix=IR
// The same in clusters of 2 blocks (the inline launch has 6 more arguments).
// RUN: sed 's/launch_func @kernels::@reverse/& clusters in (%c2, %c1, %c1)/' %t/attributions.mlir > %t/clusters.mlir
// RUN: mgpu-run %t/clusters.mlir -e main --backend=emulate | FileCheck %s --check-prefix=ATTR
// RUN: mgpu-run %t/inline.mlir -e main --backend=emulate | FileCheck %s --check-prefix=INLINE
// RUN: not mgpu-run %t/device-call.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: not mgpu-run %t/blocks.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=BLOCKS
// A launch past CUDA's limits is refused at the launch (it crashed in the
// emulator's allocations, with LLVM's stack dump): at compile time when its
// sizes are constants, at run time otherwise.
// RUN: not mgpu-run %t/huge-block.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: sed 's/threads in (%big,/threads in (%n,/' %t/huge-block.mlir > %t/huge-dynamic.mlir
// RUN: not mgpu-run %t/huge-dynamic.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=HUGE-DYN

// VADD: [0,  2,  6,  12,  20,  30,  42,  56]
// CLUSTER: [0,  1,  10,  11]

// Each block of 4 threads reverses its 4 elements through workgroup memory,
// each thread passing its value through private memory first; the kernel's
// vector.print runs once per thread.
// ATTR-COUNT-8: 1
// ATTR: [3,  2,  1,  0,  7,  6,  5,  4]

// IR-NOT: gpu.module
// IR-NOT: gpu.launch_func
// IR: memref.view
// IR: memref.alloca() : memref<1xf32>

// INLINE: [7,  6,  5,  4,  3,  2,  1,  0]

// CALL: device-call.mlir:18:5: error: 'gpu.launch_func' op cannot be emulated: the kernel uses @helper of its gpu.module, which the emulator does not bring to the host
// CALL: device-call.mlir:9:12: note: in the kernel here
// HUGE: huge-block.mlir:16:5: error: 'gpu.launch' op cannot run: its block size x is 4611686018427387904, and CUDA allows 1 to 1024
// HUGE-DYN: huge-dynamic.mlir:16:5: error: a launch past CUDA's limits: blocks of 1 to 1024 threads (at most 64 along z), grids of at most 2^31 - 1 blocks along x and 65535 along y and z
// BLOCKS: blocks.mlir:16:5: error: 'gpu.launch_func' op cannot be emulated: the kernel's body must be one block (structured control flow: scf, not cf)

//--- attributions.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<8xf32>, %out: memref<8xf32>)
        workgroup(%tile: memref<4xf32, #gpu.address_space<workgroup>>)
        private(%mine: memref<1xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %one = arith.constant 1 : i32
      vector.print %one : i32
      %block = gpu.block_id x
      %size = gpu.block_dim x
      %thread = gpu.thread_id x
      %base = arith.muli %block, %size : index
      %i = arith.addi %base, %thread : index
      %x = memref.load %in[%i] : memref<8xf32>
      memref.store %x, %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
      %y = memref.load %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %y, %tile[%thread] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c3, %thread : index
      %z = memref.load %tile[%r] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %z, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %in = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %n = arith.index_cast %i : index to i32
      %x = arith.sitofp %n : i32 to f32
      memref.store %x, %in[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@reverse blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1)
        args(%in : memref<8xf32>, %out : memref<8xf32>)
    %p = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

//--- inline.mlir
// One block of 8 threads reverses 8 elements through a workgroup
// attribution placed after 100 bytes of the launch's own dynamic shared
// memory.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %bytes = arith.constant 100 : i32
    %out = memref.alloc() : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes
               workgroup(%tile: memref<8xf32, #gpu.address_space<workgroup>>) {
      %n = arith.index_cast %tx : index to i32
      %x = arith.sitofp %n : i32 to f32
      memref.store %x, %tile[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c7, %tx : index
      %y = memref.load %tile[%r] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%tx] : memref<8xf32>
      gpu.terminator
    }
    %p = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

//--- device-call.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
    gpu.func @calls(%out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %v = func.call @helper(%one) : (f32) -> f32
      memref.store %v, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@calls blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
}

//--- blocks.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @branches(%out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      cf.br ^next
    ^next:
      memref.store %one, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@branches blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
}

//--- huge-block.mlir
// 2^62 threads per block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<8xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    %cell = memref.alloc() : memref<1xindex>
    memref.store %big, %cell[%c0] : memref<1xindex>
    %n = memref.load %cell[%c0] : memref<1xindex>
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%big, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
}

