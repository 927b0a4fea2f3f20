// mgpu-run --emit-executable compiles a program ahead of time into a
// stand-alone executable (what the device bundle carries to a GPU machine
// that has no LLVM). The CPU executable runs here and prints the same numbers
// as mgpu-run; the GPU executable is run on the mock driver, which shows that
// it loads its cubin and launches through libmgpu_cuda_runtime.so. Bad
// requests and bad input fail with exit code 1 and leave no file behind.

// RUN: rm -rf %t && mkdir -p %t
// RUN: mgpu-run %S/../Integration/Kernels/vector_add.mlir -e main --emit-executable --backend=cpu -o %t/vadd-cpu
// RUN: %t/vadd-cpu | FileCheck %s --check-prefix=CPU
// RUN: mgpu-run %S/../Integration/Kernels/vector_add.mlir -e main --emit-executable -o %t/vadd-gpu --verbose 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: env MGPU_CUDA_DRIVER=%mgpu_mock_cuda %t/vadd-gpu 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not mgpu-run %S/../Integration/Kernels/vector_add.mlir -e main --emit-executable 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// RUN: not mgpu-run %S/../Integration/Kernels/vector_add.mlir -e main --emit-executable --backend=emulate -o %t/emu 2>&1 | FileCheck %s --check-prefix=EMULATE
// RUN: not mgpu-run %s -e main --emit-executable --backend=cpu -o %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ls %t/emu %t/bad
// Host code that rounds to bf16 needs __truncsfbf2, which Debian 12's libgcc
// lacks: libmgpu_runner_utils provides it, with the JIT's results.
// RUN: mgpu-run %S/Inputs/bf16_host.mlir -e main --backend=cpu | FileCheck %s --check-prefix=BF16
// RUN: mgpu-run %S/Inputs/bf16_host.mlir -e main --emit-executable --backend=cpu -o %t/bf16
// RUN: %t/bf16 | FileCheck %s --check-prefix=BF16

// CPU: mismatches: 0
// CPU-NEXT: 1000
// CPU-NEXT: 1004

// COMPILE: mgpu-run: backend cuda (compiled ahead of time; no device is probed)
// COMPILE: mgpu-run: wrote {{.*}}vadd-gpu

// GPU: mock: cuInit(0)
// GPU: mock: cuModuleLoadDataEx(binary,
// GPU: mock: cuLaunchKernel(vector_add_kernel, grid 4x1x1, block 128x1x1
// GPU: mock: cuStreamSynchronize(stream)

// BF16: 1
// BF16-NEXT: 1.01562
// BF16-NEXT: -3
// BF16-NEXT: 65536
// BF16-NEXT: nan

// NO-OUTPUT: mgpu-run: error: --emit-executable needs an output file (-o)
// EMULATE: mgpu-run: error: --emit-executable compiles for the GPU or the CPU, not the emulator

// BAD: emit-executable.mlir:[[# @LINE + 2]]:3: error: All elements in the grid must be strictly positive
func.func @main() {
  mgpu.pallas_call grid [0] in_specs [] out_specs [] {
  }
  return
}
