// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused cluster ops (SPEC section 8): each gets a diagnostic at the op.

func.func @sync_outside() {
  // expected-error @below {{'mgpu.cluster_sync' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.cluster_sync
  return
}

// -----

// expected-error @+1 {{a cluster barrier names at least one cluster axis (axes = ["c"]); a CTA's own barriers are !mgpu.barrier}}
func.func @no_axes(%b: !mgpu.cluster_barrier<count = 1>) {
  return
}

// -----

// expected-error @+1 {{cluster barrier axis 'c' is listed twice}}
func.func @twice(%b: !mgpu.cluster_barrier<axes = ["c", "c"], count = 1>) {
  return
}

// -----

// expected-error @+1 {{barrier arrivals must be in [1, 1048575], got 0}}
func.func @no_arrivals(%b: !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 0>) {
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!bad = !mgpu.cluster_barrier<axes = ["i"], count = 1, arrivals = 2>

// The axes are the mesh's cluster axes, not its grid axes.
func.func @grid_axis(%o: memref<8xf32>) {
  // expected-error @+2 {{'mgpu.pallas_call' op uses '!mgpu.cluster_barrier<axes = ["i"], count = 1, arrivals = 2>', whose axis 'i' is not a cluster axis of the mesh (cluster axes: ['c'])}}
  // expected-note @+1 {{a cluster barrier's arrivals come from the CTAs along cluster axes}}
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!bad] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %bar: !bad):
  }
  return
}

// -----

#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>

// Without a mesh there are no cluster axes.
func.func @no_mesh(%o: memref<8xf32>) {
  // expected-error @+2 {{whose axis 'c' is not a cluster axis of the mesh (cluster axes: [])}}
  // expected-note @+1 {{give the mesh a cluster}}
  mgpu.pallas_call grid [4] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!cbar] {
  ^bb0(%g: memref<8xf32>, %bar: !cbar):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
!cbar = !mgpu.cluster_barrier<axes = ["d"], count = 1, arrivals = 2>

// In an mpmd_map the uses are checked against their region's mesh.
func.func @mpmd(%o: memref<8xf32>, %bar0: !cbar) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<8xf32>) scratch [!cbar] {
  ^bb0(%g: memref<8xf32>, %bar: !cbar):
    %c0 = arith.constant 0 : index
    // expected-note @+2 {{give the mesh a cluster}}
    // expected-error @+1 {{'mgpu.barrier_arrive' op uses '!mgpu.cluster_barrier<axes = ["d"], count = 1, arrivals = 2>', whose axis 'd' is not a cluster axis of the mesh (cluster axes: ['c'])}}
    mgpu.barrier_arrive %bar[%c0] : !cbar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!bar = !mgpu.barrier<count = 1>

// Multicast copies: collective axes are the mesh's cluster axes, listed
// once, and the group's size divides the window's leading dimension.
func.func @multicast_grid_axis(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [memref<8x64xf32, #gpu.address_space<workgroup>>, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %w: memref<8x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'mgpu.copy_gmem_to_smem' op collective axis 'i' is not a cluster axis of the mesh (cluster axes: ['c'])}}
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %w, %bar[%c0] collective_axes ["i"] : memref<32x64xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!bar = !mgpu.barrier<count = 1>

func.func @multicast_twice(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [memref<8x64xf32, #gpu.address_space<workgroup>>, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %w: memref<8x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'mgpu.copy_gmem_to_smem' op collective axis 'c' is listed twice}}
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %w, %bar[%c0] collective_axes ["c", "c"] : memref<32x64xf32>, memref<8x64xf32, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], cluster = [4], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!bar = !mgpu.barrier<count = 1>

func.func @multicast_uneven(%x: memref<32x64xf32>) {
  mgpu.pallas_call grid [2, 4] ins(%x : memref<32x64xf32>)
      in_specs [#x] out_specs [] scratch [memref<6x64xf32, #gpu.address_space<workgroup>>, !bar] mesh #mesh {
  ^bb0(%xg: memref<32x64xf32>, %w: memref<6x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'mgpu.copy_gmem_to_smem' op multicasts to 4 CTAs, each loading a share of the window's leading dimension, which must be a multiple of 4, got (6, 64)}}
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %w, %bar[%c0] collective_axes ["c"] : memref<32x64xf32>, memref<6x64xf32, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
!bar = !mgpu.barrier<count = 1>

func.func @multicast_transforms(%x: memref<128x64xf16>) {
  mgpu.pallas_call grid [4, 2] ins(%x : memref<128x64xf16>)
      in_specs [#x] out_specs [] scratch [memref<64x64xf16, #gpu.address_space<workgroup>>, !bar] mesh #mesh {
  ^bb0(%xg: memref<128x64xf16>, %w: memref<64x64xf16, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'mgpu.copy_gmem_to_smem' op multicasts 64 rows to 2 CTAs, which is not a whole number of 64-row tiles per CTA}}
    mgpu.copy_gmem_to_smem %xg[%c0, 0], %w, %bar[%c0] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>] collective_axes ["c"] : memref<128x64xf16>, memref<64x64xf16, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

!row = memref<64xf32, #gpu.address_space<workgroup>>
func.func @ref_outside(%a: !row, %c: index) {
  // expected-error @below {{'mgpu.cluster_ref' op must be inside a kernel}}
  %p = mgpu.cluster_ref %a[%c] along ["c"] : !row -> memref<64xf32>
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
func.func @ref_of_gmem(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] mesh #mesh {
  ^bb0(%g: memref<8xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.cluster_ref' op expects a buffer in shared memory (#gpu.address_space<workgroup>), got 'memref<8xf32>'}}
    %p = mgpu.cluster_ref %g[%c0] along ["c"] : memref<8xf32> -> memref<8xf32>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
func.func @ref_result(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.cluster_ref' op result must be 'memref<64xf32>' (the buffer's type without a memory space: a generic address of the peer's buffer)}}
    %p = mgpu.cluster_ref %a[%c0] along ["c"] : !row -> memref<64xf16>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
func.func @ref_grid_axis(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.cluster_ref' op axis 'i' is not a cluster axis of the mesh (cluster axes: ['c'])}}
    %p = mgpu.cluster_ref %a[%c0] along ["i"] : !row -> memref<64xf32>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
func.func @ref_counts(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.cluster_ref' op expects one index per cluster axis, got 2 for 1 axes}}
    %p = mgpu.cluster_ref %a[%c0, %c0] along ["c"] : !row -> memref<64xf32>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
func.func @ref_twice(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.cluster_ref' op cluster axis 'c' is listed twice}}
    %p = mgpu.cluster_ref %a[%c0, %c0] along ["c", "c"] : !row -> memref<64xf32>
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @store_not_remote(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row, !row, !bar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row, %b: !row, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.async_store_smem' op expects the destination to be a mgpu.cluster_ref of a peer CTA's buffer}}
    mgpu.async_store_smem %a, %b, %bar[%c0] : !row, !row, !bar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!row = memref<64xf32, #gpu.address_space<workgroup>>
!small = memref<2xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @store_mismatch(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!row, !small, !bar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !row, %b: !small, %bar: !bar):
    %c0 = arith.constant 0 : index
    %p = mgpu.cluster_ref %b[%c0] along ["c"] : !small -> memref<2xf32>
    // expected-error @below {{'mgpu.async_store_smem' op copies between buffers of the same shape and element type, got 'memref<64xf32, #gpu.address_space<workgroup>>' and 'memref<2xf32>'}}
    mgpu.async_store_smem %a, %p, %bar[%c0] : !row, memref<2xf32>, !bar
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#all = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, c) -> (0)>, memory_space = gmem>
!small = memref<2xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>
func.func @store_bytes(%o: memref<8xf32>) {
  mgpu.pallas_call grid [4, 2] outs(%o : memref<8xf32>)
      in_specs [] out_specs [#all] scratch [!small, !small, !bar] mesh #mesh {
  ^bb0(%g: memref<8xf32>, %a: !small, %b: !small, %bar: !bar):
    %c0 = arith.constant 0 : index
    %p = mgpu.cluster_ref %b[%c0] along ["c"] : !small -> memref<2xf32>
    // expected-error @below {{'mgpu.async_store_smem' op copies a multiple of 16 bytes, got 8 bytes}}
    mgpu.async_store_smem %a, %p, %bar[%c0] : !small, memref<2xf32>, !bar
  }
  return
}
