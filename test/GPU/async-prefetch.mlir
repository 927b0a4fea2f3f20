// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=NONE
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s --check-prefix=NONE
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu | FileCheck %s --check-prefix=NONE

// async_prefetch of a 64x64 window of a 64x256 array: on sm_90 lane 0
// issues cp.async.bulk.prefetch.tensor through the same tensor map as the
// copy of that window (one tensor map for both), at the window's
// coordinates (innermost first). Without TMA (sm_80), in the emulator and
// on the CPU it is nothing.

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @prefetch
// CHECK: %[[D:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xf16>
// CHECK-NOT: nvgpu.tma.create.descriptor
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[D]]
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %[[M]], box[%c64_i32, %c0_i32] : !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[M]], %{{.*}}, box[%c64_i32, %c0_i32]
// NONE-LABEL: func.func @prefetch
// NONE-NOT: prefetch
// NONE: return
func.func @prefetch(%x: memref<64x256xf16>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<64x256xf16>) scratch [!smem, !mgpu.barrier<count = 1>] {
  ^bb0(%xg: memref<64x256xf16>, %s: !smem, %b: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %w = memref.subview %xg[0, 64] [64, 64] [1, 1] : memref<64x256xf16> to memref<64x64xf16, strided<[256, 1], offset: 64>>
    mgpu.async_prefetch %w : memref<64x64xf16, strided<[256, 1], offset: 64>>
    mgpu.copy_gmem_to_smem %w, %s, %b[%c0] : memref<64x64xf16, strided<[256, 1], offset: 64>>, !smem, !mgpu.barrier<count = 1>
    mgpu.barrier_wait %b[%c0] : !mgpu.barrier<count = 1>
  }
  return
}
