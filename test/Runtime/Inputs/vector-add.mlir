// An upstream-style GPU program (as in mlir/test/Integration/GPU/CUDA): it
// adds two vectors of 8 floats in a kernel of 2 blocks of 4 threads, moving
// the data with gpu.alloc / gpu.memcpy on an async token chain, and prints
// the sum, a[i] + b[i] = i + i*i. Shared by the mock-driver and GPU tests.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vadd(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>)
        kernel {
      %block = gpu.block_id x
      %size = gpu.block_dim x
      %thread = gpu.thread_id x
      %base = arith.muli %block, %size : index
      %i = arith.addi %base, %thread : index
      %x = memref.load %a[%i] : memref<8xf32>
      %y = memref.load %b[%i] : memref<8xf32>
      %sum = arith.addf %x, %y : f32
      memref.store %sum, %c[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<8xf32>
    %b = memref.alloc() : memref<8xf32>
    %c = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %n = arith.index_cast %i : index to i32
      %x = arith.sitofp %n : i32 to f32
      %y = arith.mulf %x, %x : f32
      memref.store %x, %a[%i] : memref<8xf32>
      memref.store %y, %b[%i] : memref<8xf32>
    }
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %db, %t2 = gpu.alloc async [%t1] () : memref<8xf32>
    %dc, %t3 = gpu.alloc async [%t2] () : memref<8xf32>
    %t4 = gpu.memcpy async [%t3] %da, %a : memref<8xf32>, memref<8xf32>
    %t5 = gpu.memcpy async [%t4] %db, %b : memref<8xf32>, memref<8xf32>
    %t6 = gpu.launch_func async [%t5] @kernels::@vadd
        blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%da : memref<8xf32>, %db : memref<8xf32>, %dc : memref<8xf32>)
    %t7 = gpu.memcpy async [%t6] %c, %dc : memref<8xf32>, memref<8xf32>
    %t8 = gpu.dealloc async [%t7] %da : memref<8xf32>
    %t9 = gpu.dealloc async [%t8] %db : memref<8xf32>
    %t10 = gpu.dealloc async [%t9] %dc : memref<8xf32>
    gpu.wait [%t10]
    %printable = memref.cast %c : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%printable) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<8xf32>
    memref.dealloc %b : memref<8xf32>
    memref.dealloc %c : memref<8xf32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
