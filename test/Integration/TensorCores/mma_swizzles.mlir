// The tensor cores read operands tiled with JAX's 64- and 32-byte swizzles
// as well as 128 (find_swizzle's choices for narrower tiles: (8 or 64,
// swizzle / 2) tiles of 16-bit elements). Each kernel below is an existing
// test's with its 128-byte tiles made 64- and 32-byte ones by sed:
//  - examples/matmul_ws_pipeline.mlir (Hopper wgmma, a K-major and b
//    N-major; b's atoms are swizzle / 2 columns of N, a tile apart);
//  - matmul_pallas_call_transposed_b.mlir (JAX's test_realistic_matmul
//    with rhs_transpose: b read K-major through a transposed view);
//  - tcgen05.mlir (Blackwell, a K-major and b N-major).
// The descriptors carry the swizzle mode (wgmma: 2 for 64 bytes, 3 for 32;
// tcgen05: 4 and 6) and strides of 8 rows of the swizzle's bytes; the
// emulator decodes them and reads the bytes TMA wrote through the same
// formula, so a wrong mode or stride gives wrong numbers there. Every
// variant on cpu and emulate against its reference, and through ptxas;
// the device bundle runs them too (each `cat ... > %t.mlir` line).
//
// RUN: sed 's/tile<\[64, 64\]>, #mgpu.swizzle<128>/tile<[64, 32]>, #mgpu.swizzle<64>/g' %mgpu_src_root/examples/matmul_ws_pipeline.mlir > %t.ws64.mlir
// RUN: grep -c "swizzle<64>" %t.ws64.mlir | FileCheck %s --check-prefix=EDITED
// RUN: cat %t.ws64.mlir %S/matmul_ws_pipeline.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: sed 's/tile<\[64, 64\]>, #mgpu.swizzle<128>/tile<[64, 16]>, #mgpu.swizzle<32>/g' %mgpu_src_root/examples/matmul_ws_pipeline.mlir > %t.ws32.mlir
// RUN: grep -c "swizzle<32>" %t.ws32.mlir | FileCheck %s --check-prefix=EDITED
// RUN: cat %t.ws32.mlir %S/matmul_ws_pipeline.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// EDITED: {{[1-9][0-9]*}}
//
// RUN: sed 's/tile<\[8, 64\]>, #mgpu.swizzle<128>/tile<[8, 32]>, #mgpu.swizzle<64>/g' %S/matmul_pallas_call_transposed_b.mlir > %t.tb64.mlir
// RUN: grep -c "swizzle<64>" %t.tb64.mlir | FileCheck %s --check-prefix=EDITED
// RUN: cat %t.tb64.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
// RUN: sed 's/tile<\[8, 64\]>, #mgpu.swizzle<128>/tile<[8, 16]>, #mgpu.swizzle<32>/g' %S/matmul_pallas_call_transposed_b.mlir > %t.tb32.mlir
// RUN: cat %t.tb32.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines
//
// RUN: sed 's/tile<\[64, 64\]>, #mgpu.swizzle<128>/tile<[8, 32]>, #mgpu.swizzle<64>/g' %S/tcgen05.mlir > %t.t64.mlir
// RUN: grep -c "swizzle<64>" %t.t64.mlir | FileCheck %s --check-prefix=EDITED
// RUN: cat %t.t64.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
// RUN: sed 's/tile<\[64, 64\]>, #mgpu.swizzle<128>/tile<[8, 16]>, #mgpu.swizzle<32>/g' %S/tcgen05.mlir > %t.t32.mlir
// RUN: cat %t.t32.mlir > %t.mlir
// RUN: %run_on_backends %t.mlir --match-full-lines --skip-backends=cuda
//
// REQUIRES: ptxas
// RUN: mgpu-opt %t.ws64.mlir --mgpu-to-binary="format=isa" | %extract_ptx -o %t.ws64.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ws64.ptx -o %t.ws64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mgpu-opt %t.tb32.mlir --mgpu-to-binary="format=isa" | %extract_ptx -o %t.tb32.ptx
// RUN: %ptxas -arch=sm_90a -v %t.tb32.ptx -o %t.tb32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: mgpu-opt %t.t64.mlir --mgpu-to-binary="format=isa" -o %t.t64.bin.mlir
// RUN: %extract_ptx --object 0 %t.t64.bin.mlir -o %t.t64.ptx
// The tcgen05 kernel with 8-row tiles of 64 bytes assembles at its 80
// registers with 4 bytes of spills (8-row tiles of 128 bytes: 72
// registers, none), from the descriptors of more tiles kept live.
// RUN: %ptxas -arch=sm_100a -v %t.t64.ptx -o %t.t64.cubin 2>&1 | FileCheck %s --check-prefix=ASSEMBLED
// ASSEMBLED: Used {{[0-9]+}} registers
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
