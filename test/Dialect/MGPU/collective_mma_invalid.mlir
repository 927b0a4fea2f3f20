// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The rules of Blackwell's 2-CTA MMAs (lib/Dialect/MGPU/CollectiveMma.cpp):
// partitioned copies, collective tcgen05_mma and commits, and collective
// tensor memory, in JAX's words where JAX has them.

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @acc_not_collective(%a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x256xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op Accumulator Ref must be collective if collective_axis is set.}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x256xf32>, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @acc_shape(%a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x128xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x128xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op Accumulator and RHS have incompatible shapes. Expected RHS to have shape (k, n) and accumulator to have shape (m, n * 2) in collective mode. Accumulator: (128, 128). RHS: (64, 128).}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x128xf32, collective>, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @n_too_big(%a: memref<128x64xbf16, #s>, %b: memref<64x256xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x512xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x512xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op Only N <= 128 are supported for collective MMA}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x512xf32, collective>, memref<128x64xbf16, #s>, memref<64x256xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[8, 8]>, #mgpu.swizzle<128>]
func.func @n_not_16(%a: memref<128x64xbf16, #s>, %b: memref<64x40xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x80xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x80xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op In 2 CTA MMA, N must be a multiple of 16, got N=40}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x80xf32, collective>, memref<128x64xbf16, #s>, memref<64x40xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [1, 2], cluster_names = ["y", "x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @not_minormost(%a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x256xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op Can only perform collective MMA along minormost cluster axis. Got x, expected y.}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x256xf32, collective>, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @unknown_axis(%a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x256xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op collective axis 'c' is not a cluster axis of the mesh (cluster axes: ['x'])}}
    // expected-note @below {{a collective MMA runs on a pair of CTAs}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "c"
        : !mgpu.tmem<128x256xf32, collective>, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [4], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @cluster_of_4(%a: memref<128x64xbf16, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x256xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op runs on a pair of CTAs: a collective MMA needs a (2, 1, 1)-shaped cluster. Got cluster size (4, 1, 1).}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t collective_axis "x"
        : !mgpu.tmem<128x256xf32, collective>, memref<128x64xbf16, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @collective_acc_local_mma(%a: memref<128x64xbf16, #s>, %b: memref<64x256xbf16, #s>) {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.tmem<128x256xf32, collective>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32, collective>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects collective_axis: its accumulator is collective tensor memory}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x256xf32, collective>, memref<128x64xbf16, #s>, memref<64x256xbf16, #s>
  }
  return
}

// -----

func.func @mixed_tmem() {
  // expected-error @below {{'mgpu.pallas_call' op mixes collective and non-collective tensor memory}}
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!mgpu.tmem<128x128xf32, collective>, !mgpu.tmem<128x32xf32>] {
  ^bb0(%t0: !mgpu.tmem<128x128xf32, collective>, %t1: !mgpu.tmem<128x32xf32>):
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2, 2], cluster_names = ["x", "y"]>
func.func @commit_cluster_shape() {
  mgpu.mpmd_map meshes [#mesh] scratch [!mgpu.barrier<count = 1>] {
  ^bb0(%bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.tcgen05_commit_arrive' op Collective arrivals only support (2, 1, 1)-shaped clusters. Got cluster size (2, 2, 1).}}
    mgpu.tcgen05_commit_arrive %bar[%c0] collective_axis "x" : !mgpu.barrier<count = 1>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
func.func @partitioned_without_axes(%a: memref<256x64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<256x64xbf16>)
      scratch [memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>] {
  ^bb0(%ag: memref<256x64xbf16>, %dst: memref<128x64xbf16, #s>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op `collective_axes` must be specified when `leader_tracked` is set (partitioned 0)}}
    mgpu.copy_gmem_to_smem %ag[0, 0], %dst, %bar[%c0] partitioned 0
        : memref<256x64xbf16>, memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2, 1], cluster_names = ["x", "y"]>
#s = #gpu.address_space<workgroup>
func.func @partitioned_two_axes(%a: memref<256x64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<256x64xbf16>)
      scratch [memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>] {
  ^bb0(%ag: memref<256x64xbf16>, %dst: memref<128x64xbf16, #s>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op Expected exactly one collective axis, got collective_axes=('x', 'y')}}
    mgpu.copy_gmem_to_smem %ag[0, 0], %dst, %bar[%c0] collective_axes ["x", "y"] partitioned 0
        : memref<256x64xbf16>, memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
func.func @partitioned_source_shape(%a: memref<128x64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<128x64xbf16>)
      scratch [memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>] {
  ^bb0(%ag: memref<128x64xbf16>, %dst: memref<128x64xbf16, #s>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op Expected source shape to be (256, 64), but got (128, 64). Dim 0 is partitioned over an axis of size 2.}}
    mgpu.copy_gmem_to_smem %ag, %dst, %bar[%c0] collective_axes ["x"] partitioned 0
        : memref<128x64xbf16>, memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [4], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
func.func @partitioned_cluster_of_4(%a: memref<256x64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<256x64xbf16>)
      scratch [memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>] {
  ^bb0(%ag: memref<256x64xbf16>, %dst: memref<128x64xbf16, #s>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op Partitioned loads only supported for clusters of size 2. Got cluster size (4, 1, 1).}}
    mgpu.copy_gmem_to_smem %ag[0, 0], %dst, %bar[%c0] collective_axes ["x"] partitioned 0
        : memref<256x64xbf16>, memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["j"], cluster = [2], cluster_names = ["x"]>
#s = #gpu.address_space<workgroup>
func.func @partitioned_dim(%a: memref<256x64xbf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<256x64xbf16>)
      scratch [memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>] {
  ^bb0(%ag: memref<256x64xbf16>, %dst: memref<128x64xbf16, #s>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op partitions dimension 2 of a rank-2 window}}
    mgpu.copy_gmem_to_smem %ag[0, 0], %dst, %bar[%c0] collective_axes ["x"] partitioned 2
        : memref<256x64xbf16>, memref<128x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

// In the launch form, which has lost the mesh, a pair's op still needs its
// launch's cluster to be the pair.
func.func @launch_without_pair() {
  mgpu.launch grid [2] warpgroups 1 shared [!mgpu.barrier<count = 1>] at [0] {
  ^bb0(%i: index, %wg: index, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.tcgen05_commit_arrive' op runs on a pair of CTAs: its launch needs a (2, 1, 1)-shaped cluster, got ()}}
    mgpu.tcgen05_commit_arrive %bar[%c0] collective_axis "x" : !mgpu.barrier<count = 1>
    mgpu.yield
  }
  return
}
