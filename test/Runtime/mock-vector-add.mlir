// Stock mlir-runner runs an upstream-style GPU program on the runtime, with
// the mock driver standing in for the GPU (it emulates the kernel `vadd`),
// so the calls, their arguments and the data flow through the runtime are
// checked on any machine. The kernel is PTX, loaded with mgpuModuleLoadJIT.

// RUN: mlir-opt %S/Inputs/vector-add.mlir \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa" \
// RUN: | env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err

// CHECK: [0,  2,  6,  12,  20,  30,  42,  56]

// LOG: mock: cuInit(0)
// LOG-NEXT: mock: cuDevicePrimaryCtxRetain(device 0)
// LOG-NEXT: mock: cuModuleLoadDataEx(PTX, 3 options, error log of 8192 bytes, opt level 2)
// LOG-NEXT: mock: cuStreamCreate(flags 1) -> stream 1
// LOG-NEXT: mock: cuMemAlloc(32)
// LOG-NEXT: mock: cuMemAlloc(32)
// LOG-NEXT: mock: cuMemAlloc(32)
// LOG-NEXT: mock: cuMemcpyAsync(32 bytes, stream set)
// LOG-NEXT: mock: cuMemcpyAsync(32 bytes, stream set)
// LOG-NEXT: mock: cuModuleGetFunction(vadd)
// LOG-NEXT: mock: cuLaunchKernel(vadd, grid 2x1x1, block 4x1x1, shared 0, stream set, params set, extra null)
// LOG-NEXT: mock: cuMemcpyAsync(32 bytes, stream set)
// LOG-NEXT: mock: cuMemFree
// LOG-NEXT: mock: cuMemFree
// LOG-NEXT: mock: cuMemFree
// LOG-NEXT: mock: cuStreamSynchronize(stream)
// LOG-NEXT: mock: cuModuleUnload
// LOG-NOT: mock:
