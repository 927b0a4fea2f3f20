// mgpu-run --backend=cuda end to end on the mock driver: the module is
// compiled by --mgpu-to-binary (a cubin for sm_90a), loaded, and its launch
// goes through the runtime library with the geometry the lowering chose. The
// mock does not run our kernels, so only the driver calls are checked here;
// the numbers are checked on a GPU by test/Integration/GPU.

// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mgpu-run %S/../Integration/Kernels/vector_add.mlir -e main --backend=cuda --verbose 2>&1 >/dev/null | FileCheck %s --check-prefix=VADD
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mgpu-run %S/../Integration/Kernels/cluster.mlir -e main --backend=cuda 2>&1 >/dev/null | FileCheck %s --check-prefix=CLUSTER

// VADD: mgpu-run: backend cuda (requested)
// VADD: mock: cuModuleLoadDataEx(binary,
// The two inputs are copied to the device; the output, which the kernel only
// writes, is not.
// VADD: mock: cuMemAlloc(4096)
// VADD-NEXT: mock: cuMemcpyAsync(4096 bytes, stream set)
// VADD-NEXT: mock: cuMemAlloc(4096)
// VADD-NEXT: mock: cuMemcpyAsync(4096 bytes, stream set)
// VADD-NEXT: mock: cuMemAlloc(4096)
// The blocks are read and written in place (--mgpu-direct-blocks): no
// tensor map, no shared memory.
// VADD-NOT: cuTensorMapEncodeTiled
// VADD: mock: cuModuleGetFunction(vector_add_kernel)
// VADD-NEXT: mock: cuLaunchKernel(vector_add_kernel, grid 4x1x1, block 128x1x1, shared 0, stream set, params set, extra null)
// VADD-NEXT: mock: cuMemcpyAsync(4096 bytes, stream set)
// VADD-COUNT-3: mock: cuMemFree
// VADD: mock: cuStreamSynchronize(stream)

// CLUSTER: mock: cuModuleGetFunction(cluster_kernel)
// CLUSTER-NEXT: mock: cuLaunchKernelEx(cluster_kernel, grid 8x1x1, block 128x1x1, shared 1032, stream set, 2 attributes, params set, extra null)
// CLUSTER-NEXT: mock:   cluster dimension 2x1x1
