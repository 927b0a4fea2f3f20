// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s
// Interpret mode lowers every kernel here: a top-level cluster_ref followed
// by an async_store_smem into it once made the CPU lowering clone the store
// with the erased cluster_ref's result (a fuzz finding, SIGSEGV).
// RUN: mgpu-opt %s --mgpu-to-cpu -o /dev/null

// The cluster ops (SPEC section 8) round trip: cluster_sync in a kernel
// whose mesh has a cluster; a cluster barrier as scratch, arrived on and
// waited for (with and without a parity), and an arrival with the
// cluster_dims --mgpu-form-launches gives it.

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>

// CHECK-LABEL: func.func @sync
func.func @sync(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    // CHECK: mgpu.cluster_sync
    mgpu.cluster_sync
  }
  return
}

!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
#mesh2 = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2, 2], cluster_names = ["x", "y"]>
#all2 = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, x, y) -> (0)>, memory_space = gmem>

// CHECK-LABEL: func.func @cluster_barrier
// CHECK: scratch [!mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>]
// CHECK: mgpu.barrier_arrive %{{.*}}[%{{.*}}] : !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
// CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] : !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
// CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] parity %{{.*}} : !mgpu.cluster_barrier<axes = ["c"], count = 2, arrivals = 2>
func.func @cluster_barrier(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!cbar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %bar: !cbar):
    %c1 = arith.constant 1 : index
    %p = arith.constant true
    mgpu.barrier_arrive %bar[%c1] : !cbar
    mgpu.barrier_wait %bar[%c1] : !cbar
    mgpu.barrier_wait %bar[%c1] parity %p : !cbar
  }
  return
}

// CHECK-LABEL: func.func @two_axes
// CHECK: mgpu.barrier_arrive %{{.*}}[%{{.*}}] cluster_dims [1, 0] : !mgpu.cluster_barrier<axes = ["y", "x"], count = 1, arrivals = 4>
func.func @two_axes(%o: memref<8xf32>) {
  mgpu.pallas_call grid [2, 2, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all2]
      scratch [!mgpu.cluster_barrier<axes = ["y", "x"], count = 1, arrivals = 4>]
      mesh #mesh2 {
  ^bb0(%g: memref<8xf32>, %bar: !mgpu.cluster_barrier<axes = ["y", "x"], count = 1, arrivals = 4>):
    %c0 = arith.constant 0 : index
    mgpu.barrier_arrive %bar[%c0] cluster_dims [1, 0] : !mgpu.cluster_barrier<axes = ["y", "x"], count = 1, arrivals = 4>
  }
  return
}

#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!buf = memref<8x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

// CHECK-LABEL: func.func @multicast
// CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}, 0], %{{.*}}, %{{.*}}[%{{.*}}] collective_axes ["c"] : memref<32x64xf32>
// CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}, 0], %{{.*}}, %{{.*}}[%{{.*}}] collective_axes ["c"] cluster_dims [0] : memref<32x64xf32>
func.func @multicast(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [!buf, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %window: !buf, %bar: !bar):
    %c0 = arith.constant 0 : index
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %window, %bar[%c0]
        collective_axes ["c"] : memref<32x64xf32>, !buf, !bar
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %window, %bar[%c0]
        collective_axes ["c"] cluster_dims [0] : memref<32x64xf32>, !buf, !bar
  }
  return
}

// Distributed shared memory: a view of a buffer in the peer CTA, before
// and after --mgpu-form-launches sets its cluster_dims, and a bulk copy
// into it counted on the peer's barrier.
!row = memref<64xf32, #gpu.address_space<workgroup>>
!sub = memref<32xf32, strided<[1], offset: 32>, #gpu.address_space<workgroup>>
!dbar = !mgpu.barrier<count = 1>

// CHECK-LABEL: func.func @dsmem
// CHECK: %[[P:.*]] = mgpu.cluster_ref %{{.*}}[%{{.*}}] along ["c"] : memref<64xf32, #gpu.address_space<workgroup>> -> memref<64xf32>
// CHECK: mgpu.async_store_smem %{{.*}}, %[[P]], %{{.*}}[%{{.*}}] : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32>, !mgpu.barrier<count = 1>
func.func @dsmem(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row, !row, !dbar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row, %b: !row, %bar: !dbar):
    %c0 = arith.constant 0 : index
    %c = mgpu.axis_index "c"
    %p = mgpu.cluster_ref %b[%c] along ["c"] : !row -> memref<64xf32>
    mgpu.async_store_smem %a, %p, %bar[%c0] : !row, memref<64xf32>, !dbar
  }
  return
}

// CHECK-LABEL: func.func @dsmem_2d
// CHECK: mgpu.cluster_ref %{{.*}}[%{{.*}}, %{{.*}}] along ["y", "x"] cluster_dims [1, 0] : memref<32xf32, strided<[1], offset: 32>, #gpu.address_space<workgroup>> -> memref<32xf32, strided<[1], offset: 32>>
func.func @dsmem_2d(%o: memref<8xf32>) {
  mgpu.pallas_call grid [2, 2, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all2] scratch [!row] mesh #mesh2 {
  ^bb0(%g: memref<8xf32>, %a: !row):
    %c0 = arith.constant 0 : index
    %x = mgpu.axis_index "x"
    %s = memref.subview %a[32] [32] [1] : !row to !sub
    %q = mgpu.cluster_ref %s[%c0, %x] along ["y", "x"] cluster_dims [1, 0]
        : !sub -> memref<32xf32, strided<[1], offset: 32>>
  }
  return
}
