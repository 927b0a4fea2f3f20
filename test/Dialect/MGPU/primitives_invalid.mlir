// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused kernel-level ops (S32-S39): each gets a diagnostic at the op.

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S33: the destination of a copy in is shared memory.
func.func @copy_into_global(%a: memref<256xf32>, %o: memref<64xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) outs(%o : memref<64xf32>) scratch [!bar] {
  ^bb0(%a0: memref<256xf32>, %o0: memref<64xf32>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the destination in shared memory (#gpu.address_space<workgroup>), got 'memref<64xf32>'}}
    // expected-note @below {{stage blocks in a workgroup scratch buffer}}
    mgpu.copy_gmem_to_smem %a0[%c0], %o0, %bar[%c0] : memref<256xf32>, memref<64xf32>, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g1"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S33: the source of a copy in is global memory.
func.func @copy_from_shared() {
  mgpu.mpmd_map meshes [#m] scratch [!smem, !smem, !bar] {
  ^bb0(%s: !smem, %t: !smem, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the source in global memory, got 'memref<64xf32, #gpu.address_space<workgroup>>'}}
    mgpu.copy_gmem_to_smem %s, %t, %bar[%c0] : !smem, !smem, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g2"]>
!bar = !mgpu.barrier<count = 2>

// S33: the same elements on both sides.
func.func @element_types(%a: memref<256xf16>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf16>) scratch [memref<64xf32, #gpu.address_space<workgroup>>, !bar] {
  ^bb0(%a0: memref<256xf16>, %s: memref<64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op copies between different element types: the destination has 'f32', the source has 'f16'}}
    mgpu.copy_gmem_to_smem %a0[%c0], %s, %bar[%c0] : memref<256xf16>, memref<64xf32, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g3"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S34: the window and the array have the same rank.
func.func @offsets(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) scratch [!smem, !bar] {
  ^bb0(%a0: memref<256xf32>, %s: !smem, %bar: !bar):
    %c0 = arith.constant 0 : index
    %v = memref.expand_shape %a0 [[0, 1]] output_shape [4, 64] : memref<256xf32> into memref<4x64xf32>
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the destination and the source of the same rank, got 1 and 2}}
    mgpu.copy_gmem_to_smem %v[%c0, 0], %s, %bar[%c0] : memref<4x64xf32>, !smem, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g4"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S34: without offsets, the source is the window itself.
func.func @window_shape(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) scratch [!smem, !bar] {
  ^bb0(%a0: memref<256xf32>, %s: !smem, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op copies a window of shape (64,), but the source has shape (256,)}}
    // expected-note @below {{take a memref.subview of the window, or give its offsets: the source[...]}}
    mgpu.copy_gmem_to_smem %a0, %s, %bar[%c0] : memref<256xf32>, !smem, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g5"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S32: a constant barrier index inside the array.
func.func @barrier_index(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) scratch [!smem, !bar] {
  ^bb0(%a0: memref<256xf32>, %s: !smem, %bar: !bar):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op barrier index 2 is out of range for '!mgpu.barrier<count = 2>' (count 2)}}
    mgpu.copy_gmem_to_smem %a0[%c0], %s, %bar[%c2] : memref<256xf32>, !smem, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g6"]>
!bar = !mgpu.barrier<count = 2>

func.func @arrive_index() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c5 = arith.constant 5 : index
    // expected-error @below {{'mgpu.barrier_arrive' op barrier index 5 is out of range for '!mgpu.barrier<count = 2>' (count 2)}}
    mgpu.barrier_arrive %bar[%c5] : !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g7"]>
!bar = !mgpu.barrier<count = 2>

func.func @wait_index() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c = arith.constant -1 : index
    // expected-error @below {{'mgpu.barrier_wait' op barrier index -1 is out of range for '!mgpu.barrier<count = 2>' (count 2)}}
    mgpu.barrier_wait %bar[%c] : !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g7t"]>
!bar = !mgpu.barrier<count = 2>

func.func @test_index() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c = arith.constant 2 : index
    // expected-error @below {{'mgpu.barrier_test' op barrier index 2 is out of range for '!mgpu.barrier<count = 2>' (count 2)}}
    %done = mgpu.barrier_test %bar[%c] : !bar
  }
  return
}

// -----

// A test polls this CTA's barrier: cluster barriers are not tested.
#m = #mgpu.mesh<grid = [2], grid_names = ["g7c"], cluster = [2], cluster_names = ["c"]>
!cbar = !mgpu.cluster_barrier<axes = ["c"], count = 1, arrivals = 2>

func.func @test_cluster_barrier() {
  mgpu.mpmd_map meshes [#m] scratch [!cbar] {
  ^bb0(%bar: !cbar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.barrier_test' op operand #0 must be}}
    %done = mgpu.barrier_test %bar[%c0] : !cbar
  }
  return
}

// -----

func.func @test_outside(%bar: !mgpu.barrier<count = 1>) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'mgpu.barrier_test' op must be inside a kernel}}
  %done = mgpu.barrier_test %bar[%c0] : !mgpu.barrier<count = 1>
  return
}

// -----

// Kernel-level ops run inside kernels.
func.func @outside(%s: memref<64xf32, #gpu.address_space<workgroup>>, %a: memref<64xf32>) {
  // expected-error @below {{'mgpu.copy_smem_to_gmem' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.copy_smem_to_gmem %s, %a : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32>
  return
}

// -----

func.func @commit_outside() {
  // expected-error @below {{'mgpu.commit_smem' op must be inside a kernel}}
  mgpu.commit_smem
  return
}

// -----

func.func @commit_group_outside() {
  // expected-error @below {{'mgpu.commit_smem_to_gmem_group' op must be inside a kernel}}
  mgpu.commit_smem_to_gmem_group
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g8"]>

// cp.async.bulk.wait_group takes 0 to 63.
func.func @wait_groups() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @below {{'mgpu.wait_smem_to_gmem' op waits for at most 0 to 63 pending groups, got 64}}
    mgpu.wait_smem_to_gmem 64
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g9"]>

// S33: the source of a copy out is shared memory.
func.func @copy_out_from_global(%a: memref<64xf32>, %o: memref<64xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<64xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%a0: memref<64xf32>, %o0: memref<64xf32>):
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op expects the source in shared memory (#gpu.address_space<workgroup>), got 'memref<64xf32>'}}
    // expected-note @below {{stage blocks in a workgroup scratch buffer}}
    mgpu.copy_smem_to_gmem %a0, %o0 : memref<64xf32>, memref<64xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g9t"]>
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>

// A copy out reads its source through the transforms it names: a tiling
// with a swizzle that divides it, starting at a tile.
func.func @copy_out_transforms(%o: memref<64x64xf16>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64x64xf16>) scratch [!smem] {
  ^bb0(%o0: memref<64x64xf16>, %s: !smem):
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op applies only the layout [#mgpu.tile<[R, C]>, #mgpu.swizzle<S>] to the source, got [#mgpu.swizzle<64>]}}
    mgpu.copy_smem_to_gmem %s, %o0 transforms [#mgpu.swizzle<64>] : !smem, memref<64x64xf16>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g9u"]>
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>
!rows = memref<8x64xf16, strided<[64, 1], offset: 256>, #gpu.address_space<workgroup>>

func.func @copy_out_inside_a_tile(%o: memref<64x64xf16>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<64x64xf16>) scratch [!smem] {
  ^bb0(%o0: memref<64x64xf16>, %s: !smem):
    %v = memref.subview %s[4, 0] [8, 64] [1, 1] : !smem to !rows
    // expected-error @below {{'mgpu.copy_smem_to_gmem' op expects the source to start at a tile boundary of its buffer, got element (4, 0) with tiles of 8 x 64}}
    mgpu.copy_smem_to_gmem %v, %o0[0, 0] transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] : !rows, memref<64x64xf16>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g10"]>
!bar = !mgpu.barrier<count = 1>

// S29: elements no backend stages.
func.func @complex(%a: memref<64xcomplex<f32>>) {
  // expected-error @below {{'mgpu.mpmd_map' op operand #0 has elements of type 'complex<f32>', which no backend stages or computes on}}
  mgpu.mpmd_map meshes [#m] ins(%a : memref<64xcomplex<f32>>) scratch [memref<64xcomplex<f32>, #gpu.address_space<workgroup>>, !bar] {
  ^bb0(%a0: memref<64xcomplex<f32>>, %s: memref<64xcomplex<f32>, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    mgpu.copy_gmem_to_smem %a0, %s, %bar[%c0] : memref<64xcomplex<f32>>, memref<64xcomplex<f32>, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

// The barrier type.
// expected-error @below {{a barrier array holds at least 1 barrier, got count 0}}
func.func private @no_barriers(!mgpu.barrier<count = 0>)

// -----

// Bounded by shared memory (and far from overflowing its byte size: the
// fuzzer found 8 * count overflowing under UBSan).
// expected-error @below {{a barrier array holds at most 29056 barriers (8 bytes each in 227 KiB of shared memory), got count 9223372036854775807}}
func.func private @too_many_barriers(!mgpu.barrier<count = 9223372036854775807>)

// -----

// expected-error @below {{barrier arrivals must be in [1, 1048575], got 0}}
func.func private @no_arrivals(!mgpu.barrier<count = 1, arrivals = 0>)

// -----

// expected-error @below {{struct is missing required parameter: count}}
func.func private @count_required(!mgpu.barrier<arrivals = 2>)

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g11"]>
!smem = memref<64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 2>

// S34: one offset per dimension.
func.func @offset_count(%a: memref<4x64xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<4x64xf32>) scratch [memref<1x64xf32, #gpu.address_space<workgroup>>, !bar] {
  ^bb0(%a0: memref<4x64xf32>, %s: memref<1x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects 2 window offsets into the source, got 1}}
    mgpu.copy_gmem_to_smem %a0[%c0], %s, %bar[%c0] : memref<4x64xf32>, memref<1x64xf32, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

// emit_pipeline: inside a kernel, over global refs, one spec per operand,
// index maps over its own grid, no dimension semantics, and region
// arguments that are the grid indices then the blocks.

#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
func.func @pipeline_outside(%a: memref<256xf32>) {
  // expected-error @below {{'mgpu.emit_pipeline' op must be inside a kernel}}
  mgpu.emit_pipeline grid [4] ins(%a : memref<256xf32>) in_specs [#s] out_specs [] {
  ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// An index map's symbols are the values index_map_symbols binds: no more
// than it binds.
#m = #mgpu.mesh<grid = [1], grid_names = ["g13"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k)[s0, s1] -> (k + s1)>>
func.func @pipeline_unbound_symbol(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%ag: memref<256xf32>):
    %c1 = arith.constant 1 : index
    // expected-error @below {{'mgpu.emit_pipeline' op expects the index map of ins[0] to have at most 1 symbols (index_map_symbols), got affine_map<(d0)[s0, s1] -> (d0 + s1)>}}
    mgpu.emit_pipeline grid [2] ins(%ag : memref<256xf32>) in_specs [#s] out_specs [] index_map_symbols(%c1) {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g12"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
func.func @pipeline_shared_operand() {
  mgpu.mpmd_map meshes [#m] scratch [memref<256xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%sa: memref<256xf32, #gpu.address_space<workgroup>>):
    // expected-error @below {{'mgpu.emit_pipeline' op pipelines global-memory refs, but operand #0 is in shared memory}}
    // expected-note @below {{pass the kernel's global refs (or subviews of them); the pipeline stages their blocks itself}}
    mgpu.emit_pipeline grid [4] ins(%sa : memref<256xf32, #gpu.address_space<workgroup>>) in_specs [#s] out_specs [] {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g13"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
func.func @pipeline_specs(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%a0: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op expects one in_spec per input: got 0 in_specs for 1 inputs}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<256xf32>) in_specs [] out_specs [] {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g14"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(i, k) -> (k)>>
func.func @pipeline_index_map(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%a0: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op index_map of ins[0] takes 2 grid indices, but the grid has rank 1}}
    // expected-note @below {{an index map takes one dimension per grid axis}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<256xf32>) in_specs [#s] out_specs [] {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g15"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
#p = #mgpu.compiler_params<dimension_semantics = [sequential]>
func.func @pipeline_semantics(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%a0: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op runs its steps in order: dimension_semantics does not apply}}
    // expected-note @below {{remove dimension_semantics from params}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<256xf32>) in_specs [#s] out_specs [] params #p {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g16"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>
func.func @pipeline_arguments(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%a0: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op body argument #0 (for grid index 0) has type 'memref<64xf32, #gpu.address_space<workgroup>>', expected 'index'}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<256xf32>) in_specs [#s] out_specs [] {
    ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>, %k: index):
    }
  }
  return
}

// -----

// Block transforms (S35-S39).

// expected-error @below {{#mgpu.tile<(48, 64)> does not divide the block (128, 64)}}
#bad_tile = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.tile<[48, 64]>]>

// -----

// expected-error @below {{#mgpu.swizzle<48> must swizzle 32, 64 or 128 bytes}}
#bad_swizzle = #mgpu.swizzle<48>

// -----

// expected-error @below {{#mgpu.transpose<(0, 0)> is not a permutation of the 2 dimensions of (128, 64)}}
#bad_transpose = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.transpose<[0, 0]>]>

// -----

// expected-error @below {{#mgpu.swizzle must be the last block transform}}
#swizzle_first = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.swizzle<128>, #mgpu.tile<[64, 64]>]>

// -----

// expected-error @below {{transforms describe the shared-memory layout of a staged block; a gmem block has none}}
#gmem = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem, transforms = [#mgpu.tile<[64, 64]>]>

// -----

// expected-error @below {{expected a block transform (#mgpu.tile, #mgpu.swizzle or #mgpu.transpose), got #mgpu.compiler_params<>}}
// expected-error @below {{failed to parse MGPU_BlockSpecAttr parameter 'transforms'}}
#not_a_transform = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.compiler_params<>]>

// -----

// A swizzle spans the rows of the (tiled) block exactly: 64 f32 are 256
// bytes, not 128.
#spec = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.swizzle<128>]>
func.func @swizzle_bytes(%a: memref<256x64xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op block of ins[0] is swizzled by 128 bytes, but its rows hold 256 bytes}}
  // expected-note @below {{the innermost (tiled) dimension must span exactly the swizzle: tile it with #mgpu.tile}}
  mgpu.pallas_call grid [2] ins(%a : memref<256x64xf32>) in_specs [#spec] out_specs [] {
  ^bb0(%x: memref<128x64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// Tiled to 32 columns, the same block swizzles 128 bytes.
#spec = #mgpu.block_spec<shape = [128, 64], index_map = affine_map<(i) -> (i, 0)>, transforms = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]>
func.func @swizzle_tiled(%a: memref<256x64xf32>) {
  mgpu.pallas_call grid [2] ins(%a : memref<256x64xf32>) in_specs [#spec] out_specs [] {
  ^bb0(%x: memref<128x64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g9"]>
!bar = !mgpu.barrier<count = 2>

// S33: a slot view (`.at[slot]`) is a buffer; a column slice, whose rows
// are not contiguous, is not.
func.func @copy_into_column_slice(%a: memref<64x64xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<64x64xf32>) scratch [memref<2x64x64xf32, #gpu.address_space<workgroup>>, !bar] {
  ^bb0(%a0: memref<64x64xf32>, %buf: memref<2x64x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
    %c1 = arith.constant 1 : index
    %slot = memref.subview %buf[%c1, 0, 0] [1, 64, 64] [1, 1, 1]
        : memref<2x64x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    mgpu.copy_gmem_to_smem %a0[0, 0], %slot, %bar[%c1]
        : memref<64x64xf32>, memref<64x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !bar
    %cols = memref.subview %slot[0, 0] [64, 32] [1, 1]
        : memref<64x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<64x32xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the destination to be a statically shaped, contiguous buffer or view, got 'memref<64x32xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>'}}
    mgpu.copy_gmem_to_smem %a0[0, 0], %cols, %bar[%c1]
        : memref<64x64xf32>, memref<64x32xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !bar
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], cluster = [2], grid_names = ["g"], cluster_names = ["c"]>
func.func @predicated_multicast(%x: memref<256xf32>, %p: i1) {
  mgpu.mpmd_map meshes [#m] ins(%x : memref<256xf32>)
      scratch [memref<256xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>] {
  ^bb0(%xg: memref<256xf32>, %s: memref<256xf32, #gpu.address_space<workgroup>>, %b: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    %t = arith.constant true
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op takes a predicate or collective_axes, not both}}
    mgpu.copy_gmem_to_smem %xg, %s, %b[%c0] predicate %t collective_axes ["c"]
        : memref<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

func.func @predicate_not_i1(%x: memref<256xf32>, %s: memref<256xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'mgpu.copy_smem_to_gmem' op operand #2 must be 1-bit signless integer, but got 'index'}}
  "mgpu.copy_smem_to_gmem"(%s, %x, %c0) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, static_offsets = array<i64>}> : (memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32>, index) -> ()
  return
}
