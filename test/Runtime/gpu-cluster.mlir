// On a Hopper GPU, a kernel launched in thread block clusters (through
// mgpuLaunchClusterKernel and cuLaunchKernelEx) with 64 KiB of dynamic
// shared memory, more than the 48 KiB a kernel gets without opting in. Each
// of 4 blocks, in clusters of 2, writes 10 * cluster id + its rank in the
// cluster, passed through the far end of its dynamic shared memory. The
// same program runs on the mock driver everywhere, to check the launch.

// RUN: mlir-opt %s \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa" \
// RUN: | env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s --check-prefix=MOCK
// MOCK: mock: cuFuncSetAttribute(cluster_ids, attribute 8, 65536)
// MOCK-NEXT: mock: cuLaunchKernelEx(cluster_ids, grid 4x1x1, block 32x1x1, shared 65536, stream set, 2 attributes, params set, extra null)
// MOCK-NEXT: mock:   cluster dimension 2x1x1

// RUN: %if cuda-device %{ mlir-opt %s \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=bin" \
// RUN: | mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils \
// RUN: | FileCheck %s %}
// CHECK: [0,  1,  10,  11]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @cluster_ids(%out: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c10 = arith.constant 10 : index
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %cluster = gpu.cluster_id x
      %rank = gpu.cluster_block_id x
      %scaled = arith.muli %cluster, %c10 : index
      %id = arith.addi %scaled, %rank : index
      %value = arith.index_cast %id : index to i32
      // The last word of the 64 KiB of dynamic shared memory.
      %shared = gpu.dynamic_shared_memory
          : memref<?xi8, #gpu.address_space<workgroup>>
      %last = arith.constant 65532 : index
      %word = memref.view %shared[%last][]
          : memref<?xi8, #gpu.address_space<workgroup>>
            to memref<1xi32, #gpu.address_space<workgroup>>
      %first = arith.cmpi eq, %thread, %c0 : index
      scf.if %first {
        memref.store %value, %word[%c0]
            : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.if %first {
        %read = memref.load %word[%c0]
            : memref<1xi32, #gpu.address_space<workgroup>>
        memref.store %read, %out[%block] : memref<4xi32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %shared = arith.constant 65536 : i32
    %out = memref.alloc() : memref<4xi32>
    %t0 = gpu.wait async
    %device, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@cluster_ids
        clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1)
        threads in (%c32, %c1, %c1) dynamic_shared_memory_size %shared
        args(%device : memref<4xi32>)
    %t3 = gpu.memcpy async [%t2] %out, %device : memref<4xi32>, memref<4xi32>
    %t4 = gpu.dealloc async [%t3] %device : memref<4xi32>
    gpu.wait [%t4]
    %printable = memref.cast %out : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%printable) : (memref<*xi32>) -> ()
    memref.dealloc %out : memref<4xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
