// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused pre-Hopper copies: JAX's words where it has them
// (jax/_src/pallas/mosaic_gpu/primitives.py:990-1012, 1319-1322;
// jax/experimental/mosaic/gpu/launch_context.py:1333-1337, 1403-1404).

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>

// On sm_90a (the default chip) copies into shared memory are TMA copies
// counted on a barrier.
func.func @no_barrier_on_hopper(%x: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>) scratch [!smem] {
  ^bb0(%xg: memref<256xf32>, %s: !smem):
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation}}
    mgpu.copy_gmem_to_smem %xg[0], %s : memref<256xf32>, !smem
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g1"]>

func.func @wait_on_hopper() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @below {{'mgpu.wait_gmem_to_smem' op wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.}}
    mgpu.wait_gmem_to_smem 0
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g2"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @predicated(%x: memref<256xf32>, %p: i1) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>) scratch [!smem] {
    ^bb0(%xg: memref<256xf32>, %s: !smem):
      // expected-error @below {{'mgpu.copy_gmem_to_smem' op CP_ASYNC needs to be performed by the whole warpgroup and does not support the predicate argument}}
      mgpu.copy_gmem_to_smem %xg[0], %s predicate %p : memref<256xf32>, !smem
    }
    return
  }
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["g3"], cluster = [2], cluster_names = ["c"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @collective(%x: memref<256xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>) scratch [!smem] {
    ^bb0(%xg: memref<256xf32>, %s: !smem):
      // expected-error @below {{'mgpu.copy_gmem_to_smem' op Only the TMA implementation supports collective copies}}
      mgpu.copy_gmem_to_smem %xg[0], %s collective_axes ["c"] : memref<256xf32>, !smem
    }
    return
  }
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g4"]>
!narrow = memref<64x1xf16, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @two_byte_rows(%x: memref<64x1xf16>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<64x1xf16>) scratch [!narrow] {
    ^bb0(%xg: memref<64x1xf16>, %s: !narrow):
      // expected-error @below {{'mgpu.copy_gmem_to_smem' op CP_ASYNC requires at least 4 bytes per transfer: the window's rows must be whole 4-byte pieces, got 'memref<64x1xf16, #gpu.address_space<workgroup>>'}}
      mgpu.copy_gmem_to_smem %xg, %s : memref<64x1xf16>, !narrow
    }
    return
  }
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g5"]>
!col = memref<8xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @strided_source(%x: memref<8x8xf32>) {
    mgpu.mpmd_map meshes [#m] ins(%x : memref<8x8xf32>) scratch [!col] {
    ^bb0(%xg: memref<8x8xf32>, %s: !col):
      %column = memref.subview %xg[0, 0] [8, 1] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[8]>>
      // expected-error @below {{'mgpu.copy_gmem_to_smem' op copies with cp.async only from a source whose last dimension has unit stride, got 'memref<8xf32, strided<[8]>>'}}
      mgpu.copy_gmem_to_smem %column, %s : memref<8xf32, strided<[8]>>, !col
    }
    return
  }
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g6"]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @too_many_groups() {
    mgpu.mpmd_map meshes [#m] {
      // expected-error @below {{'mgpu.wait_gmem_to_smem' op waits for at most 0 to 63 pending copy groups, got 64}}
      mgpu.wait_gmem_to_smem 64
    }
    return
  }
}
