// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The Blackwell ops of SPEC section 8 round trip: TMEM scratch, tcgen05_mma
// with and without `accumulate`, tcgen05_commit_arrive, the TMEM moves, and
// the ops the lowering emits (tmem_alloc / tmem_ref / tmem_dealloc and the
// lane moves).

#s = #gpu.address_space<workgroup>
!acc = !mgpu.tmem<128x256xf32>
!bar = !mgpu.barrier<count = 2>

// CHECK-LABEL: func.func @blackwell
func.func @blackwell() {
  // CHECK: scratch [!mgpu.tmem<128x256xf32>, !mgpu.tmem<128x32xf32>, !mgpu.barrier<count = 2>,
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!acc, !mgpu.tmem<128x32xf32>, !bar,
               memref<128x64xf16, #s>, memref<64x256xf16, #s>] {
  ^bb0(%acc: !acc, %small: !mgpu.tmem<128x32xf32>, %bar: !bar,
       %a: memref<128x64xf16, #s>, %b: memref<64x256xf16, #s>):
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    // CHECK: mgpu.tcgen05_mma %{{.*}}, %{{.*}}, %{{.*}} accumulate(%{{.*}}) a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] : !mgpu.tmem<128x256xf32>, memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>
    mgpu.tcgen05_mma %acc, %a, %b accumulate(%false)
        a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : !acc, memref<128x64xf16, #s>, memref<64x256xf16, #s>
    // CHECK: mgpu.tcgen05_mma %{{.*}}, %{{.*}}, %{{.*}} a_transforms
    mgpu.tcgen05_mma %acc, %a, %b
        a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : !acc, memref<128x64xf16, #s>, memref<64x256xf16, #s>
    // CHECK: mgpu.tcgen05_commit_arrive %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 2>
    mgpu.tcgen05_commit_arrive %bar[%c1] : !bar
    // CHECK: %[[V:.*]] = mgpu.async_load_tmem %{{.*}} : !mgpu.tmem<128x32xf32> -> vector<128x32xf32>
    %v = mgpu.async_load_tmem %small : !mgpu.tmem<128x32xf32> -> vector<128x32xf32>
    // CHECK: mgpu.wait_load_tmem
    mgpu.wait_load_tmem
    // CHECK: mgpu.async_store_tmem %[[V]], %{{.*}} : vector<128x32xf32>, !mgpu.tmem<128x32xf32>
    mgpu.async_store_tmem %v, %small : vector<128x32xf32>, !mgpu.tmem<128x32xf32>
    // CHECK: mgpu.commit_tmem
    mgpu.commit_tmem
  }
  return
}

// CHECK-LABEL: func.func @slices
func.func @slices() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!acc] {
  ^bb0(%t: !acc):
    %col = mgpu.program_id 0
    // CHECK: %[[S:.*]] = mgpu.tmem_slice %{{.*}}[%{{.*}}] : !mgpu.tmem<128x256xf32> -> !mgpu.tmem<128x128xf32>
    %s = mgpu.tmem_slice %t[%col] : !acc -> !mgpu.tmem<128x128xf32>
    // CHECK: mgpu.tmem_slice %[[S]][%{{.*}}] : !mgpu.tmem<128x128xf32> -> !mgpu.tmem<128x64xf32>
    %c64 = arith.constant 64 : index
    %u = mgpu.tmem_slice %s[%c64] : !mgpu.tmem<128x128xf32> -> !mgpu.tmem<128x64xf32>
  }
  return
}

// CHECK-LABEL: func.func @lowering_ops
func.func @lowering_ops(%slot: memref<1xi32, #s>, %row: index) {
  // CHECK: mgpu.tmem_alloc %{{.*}} columns 512 : memref<1xi32, #gpu.address_space<workgroup>>
  mgpu.tmem_alloc %slot columns 512 : memref<1xi32, #s>
  // CHECK: %[[T:.*]] = mgpu.tmem_ref %{{.*}}[256] : memref<1xi32, #gpu.address_space<workgroup>> -> !mgpu.tmem<128x256xf32>
  %t = mgpu.tmem_ref %slot [256] : memref<1xi32, #s> -> !acc
  // CHECK: %[[R:.*]] = mgpu.tmem_lane_load %[[T]][%{{.*}}] : !mgpu.tmem<128x256xf32> -> vector<256xf32>
  %r = mgpu.tmem_lane_load %t[%row] : !acc -> vector<256xf32>
  // CHECK: mgpu.tmem_lane_store %[[R]], %[[T]][%{{.*}}] : vector<256xf32>, !mgpu.tmem<128x256xf32>
  mgpu.tmem_lane_store %r, %t[%row] : vector<256xf32>, !acc
  // CHECK: mgpu.tmem_lane_load %[[T]][%{{.*}}] column 224 : !mgpu.tmem<128x256xf32> -> vector<32xf32>
  %p = mgpu.tmem_lane_load %t[%row] column 224 : !acc -> vector<32xf32>
  // CHECK: mgpu.tmem_dealloc %{{.*}} columns 512
  mgpu.tmem_dealloc %slot columns 512 : memref<1xi32, #s>
  return
}

// A pair's ops (Blackwell's 2-CTA MMAs): collective TMEM, partitioned
// copies, collective MMAs and commits, and the collective allocation the
// lowering emits.
#pair = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
!pacc = !mgpu.tmem<128x256xf32, collective>

// CHECK-LABEL: func.func @pair
func.func @pair(%ag: memref<256x64xbf16>, %bg: memref<64x256xbf16>) {
  // CHECK: scratch [!mgpu.tmem<128x256xf32, collective>,
  mgpu.mpmd_map meshes [#pair] ins(%ag, %bg : memref<256x64xbf16>, memref<64x256xbf16>)
      scratch [!pacc, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>, !bar] {
  ^bb0(%a_g: memref<256x64xbf16>, %b_g: memref<64x256xbf16>, %acc: !pacc,
       %a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // CHECK: mgpu.copy_gmem_to_smem %{{.*}}[0, 0], %{{.*}}, %{{.*}}[%{{.*}}] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] collective_axes ["x"] partitioned 0 :
    mgpu.copy_gmem_to_smem %a_g[0, 0], %a, %bar[%c0]
        transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        collective_axes ["x"] partitioned 0
        : memref<256x64xbf16>, memref<128x64xbf16, #s>, !bar
    // CHECK: mgpu.copy_gmem_to_smem %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] collective_axes ["x"] partitioned 1 :
    mgpu.copy_gmem_to_smem %b_g, %b, %bar[%c0] collective_axes ["x"] partitioned 1
        : memref<64x256xbf16>, memref<64x128xbf16, #s>, !bar
    // CHECK: mgpu.tcgen05_mma %{{.*}}, %{{.*}}, %{{.*}} a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] collective_axis "x" : !mgpu.tmem<128x256xf32, collective>
    mgpu.tcgen05_mma %acc, %a, %b
        a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        b_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        collective_axis "x" : !pacc, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
    // CHECK: mgpu.tcgen05_commit_arrive %{{.*}}[%{{.*}}] collective_axis "x" : !mgpu.barrier<count = 2>
    mgpu.tcgen05_commit_arrive %bar[%c0] collective_axis "x" : !bar
  }
  return
}

// CHECK-LABEL: func.func @pair_lowering_ops
func.func @pair_lowering_ops(%slot: memref<1xi32, #s>) {
  // CHECK: mgpu.tmem_alloc %{{.*}} columns 256 collective : memref<1xi32, #gpu.address_space<workgroup>>
  mgpu.tmem_alloc %slot columns 256 collective : memref<1xi32, #s>
  // CHECK: mgpu.tmem_dealloc %{{.*}} columns 256 collective
  mgpu.tmem_dealloc %slot columns 256 collective : memref<1xi32, #s>
  return
}
