// The static tensor-core report (bench/tensor-core-report.py) of the bf16
// matmul example with JAX's 128x128x64 tiling and 4 stages: per step, 8
// m64n128k16 wgmma.mma_async, 32 KiB brought by TMA (a and b, swizzled),
// no shared-memory access by the lanes, no spill, one CTA per SM (the 4
// stages fit); its issue-rate bound (512 MMA clocks against 640 clocks of
// shared-memory traffic) is at least 60% of the 989 TFLOP/s peak. The
// report is static (PTX and ptxas -v), not a timing. Without transforms
// on the specs the blocks are staged the same (mgpu infers JAX's (8, 64)
// tiles and 128-byte swizzle for MMA operands). Without the swizzled
// staging (blocks tiled but not swizzled: the lanes copy them into place)
// the report says that its count is a lower bound.
//
// REQUIRES: ptxas
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 60 %mgpu_src_root/examples/matmul_bf16.mlir | FileCheck %s
// RUN: sed 's/, transforms = \[.*\]>/>/' %mgpu_src_root/examples/matmul_bf16.mlir > %t.inferred.mlir
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas %t.inferred.mlir | FileCheck %s --check-prefix=INFERRED
// RUN: sed 's/, transforms = \[.*\]>/, transforms = [#mgpu.tile<[64, 64]>]>/' %mgpu_src_root/examples/matmul_bf16.mlir > %t.copies.mlir
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas %t.copies.mlir | FileCheck %s --check-prefix=COPIES

// The warp-specialized matmul (128x256 tiles) is counted per CTA step (two
// consumers, the producer's TMA): 16 MMAs against 48 KiB of TMA and the
// 96 KiB the MMAs read, no lane access: bounded at 89%.
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 60 %mgpu_src_root/examples/matmul_warp_specialized.mlir | FileCheck %s --check-prefix=WS

// JAX's test_realistic_matmul as a plain pallas_call (examples/
// matmul_pallas_call.mlir): the same step as matmul_bf16, from a body that
// names no tensor-core op, register or pipeline.
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 60 %mgpu_src_root/examples/matmul_pallas_call.mlir | FileCheck %s --check-prefix=PLAIN
// Flash attention the same way (examples/attention_pallas_call.mlir): 8
// MMAs and 16 KiB of TMA per step; p goes to the second contraction's
// MMAs from the registers it was computed in (register-A wgmma), so the
// lanes stage nothing and run no inner loops: bounded at 67% (it was
// 53%, one CTA per SM, with p staged through the scratch).
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 60 %mgpu_src_root/examples/attention_pallas_call.mlir | FileCheck %s --check-prefix=ATTN
// ATTN: | attention_pallas_call | 8 | 8 x m64n64k16 | 16 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | {{[0-9]+}} | 256 | {{[0-9]+}} | {{6[0-9]|[7-9][0-9]}}% ({{[0-9]+}} TFLOP/s) |
// JAX's hopper_mixed_type_matmul_mgpu.py at tile_m = 128 (test/Integration/
// TensorCores/hopper_mixed_type_matmul_mgpu_tile_m128.mlir): 16 MMAs per
// step, a read into registers, widened and given to wgmma as it is: the
// lanes read only their 16 KiB of int8 a, bounded at 89% (tile_m = 64:
// 80%, 62% while a was staged through the scratch; wg_dimension = N: 70%).
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 80 %mgpu_src_root/test/Integration/TensorCores/hopper_mixed_type_matmul_mgpu_tile_m128.mlir | FileCheck %s --check-prefix=MIXED
// MIXED: | hopper_mixed_type_matmul_mgpu_tile_m128 | 16 | 16 x m64n128k16 | 32 | 16 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 1024 | {{[0-9]+}} | {{8[0-9]|9[0-9]}}% ({{[0-9]+}} TFLOP/s) |
// JAX's attention backward (test/Integration/TensorCores/
// attention_mgpu_bwd.mlir, `@0` its first kernel, kernel_dq): 24 MMAs per
// step with lse and delta carried in Layout.WGMMA.reduce(1) registers and
// no lane access (86%; 34% while the unchanged carries fell back to a
// strided layout and went through the warpgroup scratch at every step).
// fa3_kernel (attention_mgpu_pipeline_emitter.mlir): its plain qo_smem
// scratch read in place with inferred transforms (80%; 73% with q copied
// into place at every step).
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 80 %mgpu_src_root/test/Integration/TensorCores/attention_mgpu_bwd.mlir@0 %mgpu_src_root/test/Integration/TensorCores/attention_mgpu_pipeline_emitter.mlir | FileCheck %s --check-prefix=BWD
// BWD: | attention_mgpu_bwd@0 | 24 | 24 x m64n64k16 | 16 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 768 | {{[0-9]+}} | {{8[0-9]|9[0-9]}}% ({{[0-9]+}} TFLOP/s) |
// BWD: | attention_mgpu_pipeline_emitter | 16 | 16 x m64n64k16 | 16 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | {{[0-9]+}} | {{8[0-9]|9[0-9]}}% ({{[0-9]+}} TFLOP/s) |
// The Blackwell matmul (examples/blackwell_matmul.mlir, --chip sm_100a:
// B200's 2.25 PFLOP/s, 8192 flops per SM and clock) per step: 4
// tcgen05.mma m128n256k16 (one per K 16 over the whole 128x256 tile), the
// unrolled producer's 48 KiB of TMA (16 KiB of a, 32 KiB of b), no lane
// access in the step, no spill. 512 MMA clocks against 768 shared-memory
// clocks (48 KiB of TMA and 48 KiB that the MMAs read): a bound of 67%,
// the most a CTA's M = 128 tile reaches in this model.
// The pair's matmul (examples/blackwell_matmul_2cta.mlir, first in the
// sm_100a suite, held to 70%) is counted per CTA: 4 tcgen05.mma
// cta_group::2 m256n256k16 per step, each CTA doing half the flops, loading
// half the bytes (32 KiB: its 16 KiB parts of a and b, of the 64 KiB the
// first CTA's barrier expects) and holding half of each operand: 512 MMA
// clocks against 512 shared-memory clocks, a bound of 100% of the model
// (not a timing: the model leaves out latencies, the epilogue and the
// MMA issue).
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --chip sm_100a --min 70 | FileCheck %s --check-prefix=BW
// JAX's FA3 forward (test/Integration/TensorCores/attention_mgpu.mlir): its
// memory thread's branch comes after the consumers' (setmaxnreg.dec after
// .inc) and ptxas unrolls its steps (no loop but barrier waits): a step
// moves one copy per tensor map (k and v, 8 KiB each) for 16 MMAs of the
// two consumers: 80% (the report used to miss the producer: 0 KiB of TMA,
// 24 MMAs, 100%).
// RUN: %python %mgpu_src_root/bench/tensor-core-report.py --build %mgpu_obj_root --ptxas %ptxas --min 70 %mgpu_src_root/test/Integration/TensorCores/attention_mgpu.mlir | FileCheck %s --check-prefix=FA3
// FA3: | attention_mgpu | 16 | 16 x m64n64k16 | 16 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 640 | 80% ({{[0-9]+}} TFLOP/s) |
// BW: | kernel | MMAs/step | shapes |
// BW: | blackwell_matmul_2cta | 4 | 4 x m256n256k16 (pair) | 32 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 512 | 100% ({{[0-9]+}} TFLOP/s) |
// BW: | blackwell_matmul | 4 | 4 x m128n256k16 | 48 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 768 | 67% ({{[0-9]+}} TFLOP/s) |
// PLAIN: | matmul_pallas_call | 8 | 8 x m64n128k16 | 32 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 640 | 80% ({{[0-9]+}} TFLOP/s) |

// CHECK: | kernel | wgmma/step | shapes | TMA KiB | lane KiB | inner loops | regs | spill | smem B | CTAs/SM | MMA clk | smem clk | bound |
// CHECK: | matmul_bf16 | 8 | 8 x m64n128k16 | 32 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 640 | 80% ({{[0-9]+}} TFLOP/s) |
// INFERRED: | {{.*}}inferred | 8 | 8 x m64n128k16 | 32 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 512 | 640 | 80% ({{[0-9]+}} TFLOP/s) |
// COPIES: | {{.*}}copies | 8 | 8 x m64n128k16 | 32 | >= {{[0-9]+}} | {{[1-9][0-9]*}} | {{.*}} | <= {{[0-9]+}}% ({{[0-9]+}} TFLOP/s) |
// WS: | matmul_warp_specialized | 16 | 16 x m64n128k16 | 48 | 0 | 0 | {{[0-9]+}} | 0 | {{[0-9]+}} | 1 | 1024 | 1152 | 89% ({{[0-9]+}} TFLOP/s) |
