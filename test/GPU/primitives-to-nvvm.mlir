// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse -split-input-file | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" --canonicalize --cse -split-input-file | FileCheck %s --check-prefix=SM80

// Kernel-level ops on the GPU. A 16x64 f32 block of a 64x256 array: one
// tensor map per array, made in host code before the launch (a box of
// 16x64, out-of-bounds elements zero); mbarriers initialized by thread 0;
// lane 0 expects the block's 4096 bytes and issues one 2-D TMA load (the
// coordinates innermost first); every lane waits with try_wait.parity; after
// the body, a proxy fence, the warpgroup barrier, a TMA store and its bulk
// group, and the wait for it. sm_80 has no TMA: the warpgroup copies, waits
// with test_wait, and has no bulk groups or async proxy to fence.

#row = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i) -> (i, 0)>>
func.func @tma(%x: memref<64x256xf32>, %o: memref<64x256xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<64x256xf32>) outs(%o : memref<64x256xf32>)
      in_specs [#row] out_specs [#row] {
  ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>, %a: memref<16x64xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
    vector.store %v, %a[%c0, %c0] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
  }
  return
}

// CHECK-LABEL: func.func @tma
// CHECK: %[[DX:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[UX:.*]] = memref.cast %[[DX]] : memref<64x256xf32> to memref<*xf32>
// CHECK: %[[TX:.*]] = nvgpu.tma.create.descriptor %[[UX]] box[%c16, %c64] : memref<*xf32> -> <tensor = memref<16x64xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
// CHECK: %[[MX:.*]] = builtin.unrealized_conversion_cast %[[TX]] : {{.*}} to !llvm.ptr
// CHECK: %[[MO:.*]] = builtin.unrealized_conversion_cast %{{.*}} : {{.*}} to !llvm.ptr
// CHECK: gpu.launch
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c4096_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MX]], %[[BAR]], box[%c0_i32, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: scf.while
// CHECK: nvvm.mbarrier.try_wait %[[BAR]], %c0_i32, %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MO]], %{{.*}}, box[%c0_i32, %{{.*}}]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT: mgpu.

// SM80-LABEL: func.func @tma
// SM80-NOT: nvgpu.tma
// SM80-NOT: nvvm.cp.async.bulk
// SM80-NOT: nvvm.fence
// SM80: nvvm.mbarrier.init
// SM80: memref.load
// SM80: memref.store
// SM80: nvvm.barrier
// SM80: nvvm.mbarrier.arrive
// SM80: nvvm.mbarrier.test.wait

// -----

// A 4x512 window: rows of 512 floats exceed a TMA box (256), so each row
// goes in two 256-element boxes, 8 copies in all, each landing at its place
// in the row-major block.

#wide = #mgpu.block_spec<shape = [4, 512], index_map = affine_map<(i) -> (i, 0)>>
func.func @wide(%x: memref<16x512xf32>, %o: memref<16x512xf32>) {
  mgpu.pallas_call grid [4] ins(%x : memref<16x512xf32>) outs(%o : memref<16x512xf32>)
      in_specs [#wide] out_specs [#wide] {
  ^bb0(%xs: memref<4x512xf32, #gpu.address_space<workgroup>>, %a: memref<4x512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] : memref<4x512xf32, #gpu.address_space<workgroup>>, vector<4x512xf32>
    vector.store %v, %a[%c0, %c0] : memref<4x512xf32, #gpu.address_space<workgroup>>, vector<4x512xf32>
  }
  return
}

// CHECK-LABEL: func.func @wide
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c256]
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global

// -----

// Rows of 30 floats (120 bytes) are not whole 16-byte chunks: no tensor
// map; the warpgroup's lanes copy the block (zero past the array), meet at
// their barrier, and lane 0 arrives.

#odd = #mgpu.block_spec<shape = [8, 30], index_map = affine_map<(i) -> (i, 0)>>
func.func @unaligned(%x: memref<100x30xf32>, %o: memref<100x30xf32>) {
  mgpu.pallas_call grid [13] ins(%x : memref<100x30xf32>) outs(%o : memref<100x30xf32>)
      in_specs [#odd] out_specs [#odd] {
  ^bb0(%xs: memref<8x30xf32, #gpu.address_space<workgroup>>, %a: memref<8x30xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] : memref<8x30xf32, #gpu.address_space<workgroup>>, vector<8x30xf32>
    vector.store %v, %a[%c0, %c0] : memref<8x30xf32, #gpu.address_space<workgroup>>, vector<8x30xf32>
  }
  return
}

// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: nvgpu.tma.create.descriptor
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.load
// CHECK: } else {
// CHECK: memref.store
// CHECK: nvvm.barrier
// CHECK: scf.if
// CHECK-NEXT: nvvm.mbarrier.arrive
// CHECK-NOT: nvvm.cp.async.bulk.tensor

// -----

// A semaphore wait: lane 0 spins on "subtract if at least the value",
// sleeping between tries, then fences.

#m = #mgpu.mesh<grid = [2], grid_names = ["g0"]>
func.func @semaphore(%o: memref<2xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<2xf32>) scratch [memref<1xi32>] {
  ^bb0(%oa: memref<2xf32>, %sem: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %sem[%c0], %one : memref<1xi32>
    mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
  }
  return
}

// CHECK-LABEL: func.func @semaphore
// CHECK: memref.atomic_rmw addi
// CHECK: scf.if
// CHECK-NEXT: scf.while
// CHECK: memref.generic_atomic_rmw
// CHECK: nvvm.nanosleep
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: nvvm.barrier
