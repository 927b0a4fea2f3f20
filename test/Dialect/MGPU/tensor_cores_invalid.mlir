// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// S32-S39 for the tensor-core ops: wgmma shapes, types and memory spaces,
// wgmma_wait counts, set_max_registers budgets, and all of them only in
// kernels.

#s = #gpu.address_space<workgroup>
func.func @m_not_64(%a: memref<32x16xf16, #s>, %b: memref<16x8xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<32x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects M to be a multiple of 64 (the rows of one warpgroup's MMA), got 32}}
    %r = mgpu.wgmma %z, %a, %b : vector<32x8xf32>, memref<32x16xf16, #s>, memref<16x8xf16, #s>
  }
  return
}

// -----

// Generic form, where the result type is written apart from the accumulator's.
#s = #gpu.address_space<workgroup>
func.func @result_not_acc(%a: memref<64x16xbf16, #s>, %b: memref<16x8xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects the result to have the accumulator's type 'vector<64x8xf32>', got 'vector<64x16xf32>'}}
    %r = "mgpu.wgmma"(%z, %a, %b) : (vector<64x8xf32>, memref<64x16xbf16, #s>, memref<16x8xbf16, #s>) -> vector<64x16xf32>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @n_too_big(%a: memref<64x16xf16, #s>, %b: memref<16x264xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x264xf32>
    // expected-error @below {{'mgpu.wgmma' op expects N to be a multiple of 8 up to 256, got 264}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x264xf32>, memref<64x16xf16, #s>, memref<16x264xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @n_not_8(%a: memref<64x16xf16, #s>, %b: memref<16x12xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x12xf32>
    // expected-error @below {{expects N to be a multiple of 8 up to 256, got 12}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x12xf32>, memref<64x16xf16, #s>, memref<16x12xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @k_step_f8(%a: memref<64x16xf8E5M2, #s>, %b: memref<16x8xf8E5M2, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects K to be a multiple of 32 for 'f8E5M2' inputs, got 16}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf8E5M2, #s>, memref<16x8xf8E5M2, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @k_step_bf16(%a: memref<64x8xbf16, #s>, %b: memref<8x8xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{expects K to be a multiple of 16 for 'bf16' inputs, got 8}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x8xbf16, #s>, memref<8x8xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @shapes(%a: memref<64x32xf16, #s>, %b: memref<16x8xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects a (M x K) x b (K x N) + acc (M x N), got a (64, 32), b (16, 8), acc (64, 8)}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x32xf16, #s>, memref<16x8xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @mixed_types(%a: memref<64x16xf16, #s>, %b: memref<16x8xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op WGMMA requires A and B to have the same element type (or be a mix of the e4m3/e5m2 FP8 types), got: 'f16' and 'bf16'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf16, #s>, memref<16x8xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @f64_inputs(%a: memref<64x16xf64, #s>, %b: memref<16x8xf64, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op multiplies f16, bf16, f8E4M3FN, f8E5M2, i8 or f32 (as tf32) matrices, got 'f64'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf64, #s>, memref<16x8xf64, #s>
  }
  return
}

// -----

// An f8 type mixes only with the other f8 type.
#s = #gpu.address_space<workgroup>
func.func @f8_with_i8(%a: memref<64x32xf8E4M3FN, #s>, %b: memref<32x8xi8, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x8xi32>
    // expected-error @below {{'mgpu.wgmma' op WGMMA requires A and B to have the same element type (or be a mix of the e4m3/e5m2 FP8 types), got: 'f8E4M3FN' and 'i8'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xi32>, memref<64x32xf8E4M3FN, #s>, memref<32x8xi8, #s>
  }
  return
}

// -----

// s8 products sum in s32 only (JAX's words), and s32 holds nothing else.
#s = #gpu.address_space<workgroup>
func.func @i8_f32_acc(%a: memref<64x32xi8, #s>, %b: memref<32x8xi8, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op WGMMA with element type 'i8' only supports accumulators of type s32, but got: 'f32'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x32xi8, #s>, memref<32x8xi8, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @f16_i32_acc(%a: memref<64x16xf16, #s>, %b: memref<16x8xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x8xi32>
    // expected-error @below {{'mgpu.wgmma' op accumulates 'f16' products in f32 or f16 only, got an i32 accumulator}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xi32>, memref<64x16xf16, #s>, memref<16x8xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @i8_k_step(%a: memref<64x16xi8, #s>, %b: memref<16x8xi8, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x8xi32>
    // expected-error @below {{'mgpu.wgmma' op expects K to be a multiple of 32 for 'i8' inputs, got 16}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xi32>, memref<64x16xi8, #s>, memref<16x8xi8, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @bf16_f16_acc(%a: memref<64x16xbf16, #s>, %b: memref<16x8xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf16>
    // expected-error @below {{'mgpu.wgmma' op accumulates 'bf16' products in f32 only, got an f16 accumulator}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf16>, memref<64x16xbf16, #s>, memref<16x8xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @b_in_global(%a: memref<64x16xf16, #s>, %b: memref<16x8xf16>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects b in shared memory (#gpu.address_space<workgroup>), got 'memref<16x8xf16>'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf16, #s>, memref<16x8xf16>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @a_in_global(%a: memref<64x16xf16>, %b: memref<16x8xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.wgmma' op expects a in shared memory (#gpu.address_space<workgroup>) or in registers, got 'memref<64x16xf16>'}}
    %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf16>, memref<16x8xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @outside(%a: memref<64x16xf16, #s>, %b: memref<16x8xf16, #s>) {
  %z = arith.constant dense<0.0> : vector<64x8xf32>
  // expected-error @below {{'mgpu.wgmma' op must be inside a kernel}}
  %r = mgpu.wgmma %z, %a, %b : vector<64x8xf32>, memref<64x16xf16, #s>, memref<16x8xf16, #s>
  return
}

// -----

func.func @wait_count() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    // expected-error @below {{'mgpu.wgmma_wait' op waits for at most 0 to 7 pending wgmma groups, got 8}}
    mgpu.wgmma_wait 8
  }
  return
}

// -----

func.func @registers() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    // expected-error @below {{'mgpu.set_max_registers' op sets a register budget that is a multiple of 8 in [24, 256] (setmaxnreg), got 100}}
    mgpu.set_max_registers 100 increase
  }
  return
}

// -----

func.func @registers_low() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    // expected-error @below {{got 16}}
    mgpu.set_max_registers 16 decrease
  }
  return
}

// -----

func.func @registers_keyword() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'change' [increase, decrease]}}
    mgpu.set_max_registers 64 grow
  }
  return
}

// -----

// Tiled, swizzled operands and copies: only [tile, swizzle<S>] with tiles
// spanning the swizzle, views starting at a tile boundary, tiles whole for the MMA steps, 16-bit inputs, a in shared
// memory.

#s = #gpu.address_space<workgroup>
func.func @copy_tile_not_64_bytes(%g: memref<256x256xbf16>, %buf: memref<64x64xbf16, #s>,
                                  %bar: !mgpu.barrier<count = 1>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the tile of the destination to span the 64-byte swizzle in whole groups of 8 rows, got (64, 64) of 'bf16'}}
    mgpu.copy_gmem_to_smem %g[%c0, 0], %buf, %bar[%c0] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<64>]
        : memref<256x256xbf16>, memref<64x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @copy_tile_only(%g: memref<256x256xbf16>, %buf: memref<64x64xbf16, #s>,
                          %bar: !mgpu.barrier<count = 1>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op applies only the layout [#mgpu.tile<[R, C]>, #mgpu.swizzle<S>] to the destination, got [#mgpu.tile<[64, 64]>]}}
    mgpu.copy_gmem_to_smem %g[%c0, 0], %buf, %bar[%c0] transforms [#mgpu.tile<[64, 64]>]
        : memref<256x256xbf16>, memref<64x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @copy_tile_not_128_bytes(%g: memref<256x256xbf16>, %buf: memref<64x128xbf16, #s>,
                                   %bar: !mgpu.barrier<count = 1>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the tile of the destination to span the 128-byte swizzle in whole groups of 8 rows, got (64, 128) of 'bf16'}}
    mgpu.copy_gmem_to_smem %g[%c0, 0], %buf, %bar[%c0] transforms [#mgpu.tile<[64, 128]>, #mgpu.swizzle<128>]
        : memref<256x256xbf16>, memref<64x128xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @copy_tile_not_dividing(%g: memref<256x256xbf16>, %buf: memref<96x64xbf16, #s>,
                                  %bar: !mgpu.barrier<count = 1>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.copy_gmem_to_smem' op expects the destination to be a static 2-d buffer divided by its tile (64, 64), got 'memref<96x64xbf16, #gpu.address_space<workgroup>>'}}
    mgpu.copy_gmem_to_smem %g[%c0, 0], %buf, %bar[%c0] transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : memref<256x256xbf16>, memref<96x64xbf16, #s>, !mgpu.barrier<count = 1>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @a_view_off_tile(%a: memref<64x64xbf16, strided<[64, 1], offset: 2048>, #s>,
                           %b: memref<64x128xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x128xf32>
    // expected-error @below {{'mgpu.wgmma' op expects a to start at a tile boundary of its buffer, got element (32, 0) with tiles of 64 x 64}}
    %r = mgpu.wgmma %z, %a, %b a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, memref<64x64xbf16, strided<[64, 1], offset: 2048>, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @a_dynamic_row_stride(%a: memref<64x64xbf16, strided<[?, 1], offset: ?>, #s>,
                                %b: memref<64x128xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x128xf32>
    // A view at a run-time offset is read in place (a ring's slot, a
    // warpgroup's rows); its row stride must be known.
    // expected-error @below {{'mgpu.wgmma' op expects a with transforms to be a row-major view and a row stride that is a multiple of its tile's columns, or the transpose of one, got 'memref<64x64xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>'}}
    %r = mgpu.wgmma %z, %a, %b a_transforms [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, memref<64x64xbf16, strided<[?, 1], offset: ?>, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
// Tiles of 32 rows, two per row of tiles: the 8-row groups of a 64-row MMA
// are 1024 bytes apart inside a tile and 4096 between tiles, which one
// descriptor stride cannot say.
func.func @a_tiles_too_short(%a: memref<64x64xbf16, strided<[128, 1]>, #s>, %b: memref<64x128xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x128xf32>
    // expected-error @below {{'mgpu.wgmma' op expects the 8-row groups each MMA reads of a to be evenly spaced: tiles of 8 rows, of a multiple of 64 rows, or one tile per row of tiles; got tiles of 32 rows, 2 per row}}
    %r = mgpu.wgmma %z, %a, %b a_transforms [#mgpu.tile<[32, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, memref<64x64xbf16, strided<[128, 1]>, #s>, memref<64x128xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @a_in_registers(%a: vector<64x16xf16>, %b: memref<16x64xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @below {{'mgpu.wgmma' op has a_transforms, but a is in registers}}
    %r = mgpu.wgmma %z, %a, %b a_transforms [#mgpu.tile<[64, 8]>, #mgpu.swizzle<128>]
        : vector<64x64xf32>, vector<64x16xf16>, memref<16x64xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
// tf32 operands are read K-major only, as 8-bit ones.
func.func @tf32_tiled(%a: memref<64x32xf32, #s>, %b: memref<32x64xf32, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @below {{'mgpu.wgmma' op reads a tiled 32-bit b K-major only (PTX's wgmma): b must be a transposed view of a buffer of N rows of K (plgpu.transpose_ref)}}
    %r = mgpu.wgmma %z, %a, %b b_transforms [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]
        : vector<64x64xf32>, memref<64x32xf32, #s>, memref<32x64xf32, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @i8_tiled(%a: memref<64x64xi8, #s>, %b: memref<64x64xi8, strided<[1, 64]>, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x64xi32>
    // expected-error @below {{'mgpu.wgmma' op reads tiled operands of f16, bf16, f8E4M3FN, f8E5M2 or f32 (as tf32) only, got 'i8'}}
    %r = mgpu.wgmma %z, %a, %b b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<64>]
        : vector<64x64xi32>, memref<64x64xi8, #s>, memref<64x64xi8, strided<[1, 64]>, #s>
  }
  return
}

// -----

// The mark of --mgpu-select-tensor-cores belongs on mgpu.wgmma alone.
func.func @tensor_cores_mark_elsewhere() {
  // expected-error @below {{'mgpu.tensor_cores' must be a unit attribute of an mgpu.wgmma}}
  %c0 = arith.constant {mgpu.tensor_cores} 0 : index
  return
}

// -----

#s = #gpu.address_space<workgroup>
// A transposed b whose 8-row groups (of its N rows) are not evenly spaced:
// tiles of 32 rows, two per row of tiles.
func.func @b_transposed_uneven(%bb: memref<128x128xbf16, #s>, %a: memref<64x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %v = memref.subview %bb[0, 0] [128, 64] [1, 1] : memref<128x128xbf16, #s> to memref<128x64xbf16, strided<[128, 1]>, #s>
    %b = memref.transpose %v (d0, d1) -> (d1, d0) : memref<128x64xbf16, strided<[128, 1]>, #s> to memref<64x128xbf16, strided<[1, 128]>, #s>
    %z = arith.constant dense<0.0> : vector<64x128xf32>
    // expected-error @below {{'mgpu.wgmma' op expects the 8-row groups each MMA reads of b to be evenly spaced: tiles of 8 rows, of a multiple of 128 rows, or one tile per row of tiles; got tiles of 32 rows, 2 per row}}
    %r = mgpu.wgmma %z, %a, %b b_transforms [#mgpu.tile<[32, 64]>, #mgpu.swizzle<128>]
        : vector<64x128xf32>, memref<64x64xbf16, #s>, memref<64x128xbf16, strided<[1, 128]>, #s>
  }
  return
}

// -----

func.func @wgmma_register_a_elements(%acc: vector<64xf32>, %a: vector<4xbf16>, %desc: i64) {
  // expected-error @below {{'mgpu.wgmma_register_a' op takes a lane's 8 elements of a 64 x 16 a tile, got 'vector<4xbf16>'}}
  %d = mgpu.wgmma_register_a %acc, %a, %desc : vector<4xbf16>, vector<64xf32>
  return
}

// -----

func.func @wgmma_register_a_accumulator(%acc: vector<66xf32>, %a: vector<8xbf16>, %desc: i64) {
  // expected-error @below {{'mgpu.wgmma_register_a' op takes N / 2 accumulator registers for N a multiple of 8 up to 256, got 'vector<66xf32>'}}
  %d = mgpu.wgmma_register_a %acc, %a, %desc : vector<8xbf16>, vector<66xf32>
  return
}

// -----

// PTX's wgmma reads 8-bit operands K-major only: a tiled b must be the
// transpose of a buffer of N rows of K.
#s = #gpu.address_space<workgroup>
func.func @f8_tiled_b_not_k_major(%a: memref<64x128xf8E4M3FN, #s>, %b: memref<128x64xf8E5M2, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x64xf32>
    // expected-error @below {{'mgpu.wgmma' op reads a tiled 8-bit b K-major only (PTX's wgmma): b must be a transposed view of a buffer of N rows of K (plgpu.transpose_ref)}}
    %r = mgpu.wgmma %z, %a, %b b_transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<64>]
        : vector<64x64xf32>, memref<64x128xf8E4M3FN, #s>, memref<128x64xf8E5M2, #s>
  }
  return
}

// -----

func.func @wgmma_shared_accumulator(%acc: vector<66xf32>, %da: i64, %db: i64) {
  // expected-error @below {{'mgpu.wgmma_shared' op takes N / 2 accumulator registers for N a multiple of 8 up to 256, got 'vector<66xf32>'}}
  %d = mgpu.wgmma_shared %acc, %da, %db {a_type = bf16, b_type = bf16} : vector<66xf32>
  return
}

// -----

func.func @wgmma_shared_types(%acc: vector<64xf32>, %da: i64, %db: i64) {
  // expected-error @below {{'mgpu.wgmma_shared' op takes f16, bf16 or f32 (tf32) inputs of one type, or two 8-bit floats, got 'f16' and 'bf16'}}
  %d = mgpu.wgmma_shared %acc, %da, %db {a_type = f16, b_type = bf16} : vector<64xf32>
  return
}

// -----

func.func @wgmma_shared_mn_major(%acc: vector<64xf32>, %da: i64, %db: i64) {
  // expected-error @below {{'mgpu.wgmma_shared' op reads 'f8E4M3FN' inputs K-major only}}
  %d = mgpu.wgmma_shared %acc, %da, %db b_mn_major {a_type = f8E4M3FN, b_type = f8E4M3FN} : vector<64xf32>
  return
}

// -----

func.func @wgmma_wait_group_negative() {
  // expected-error @below {{'mgpu.wgmma_wait_group' op attribute 'pending' failed to satisfy constraint}}
  mgpu.wgmma_wait_group -1
  return
}

// -----

// mma_sync's fragments: 8 elements of a and 4 of b, of one 16-bit type.
func.func @mma_sync_types(%acc: vector<4xf32>, %a: vector<8xf16>, %b: vector<4xbf16>) {
  // expected-error @below {{'mgpu.mma_sync' op failed to verify that all of {a, b} have same element type}}
  %d = mgpu.mma_sync %acc, %a, %b : vector<8xf16>, vector<4xbf16>
  return
}

// -----

func.func @mma_sync_fragment(%acc: vector<4xf32>, %a: vector<2x4xf16>, %b: vector<4xf16>) {
  // expected-error @below {{'mgpu.mma_sync' op operand #1 must be a lane's fragment of 8 elements: vector of 16-bit float or bfloat16 type values of ranks 1, but got 'vector<2x4xf16>'}}
  %d = mgpu.mma_sync %acc, %a, %b : vector<2x4xf16>, vector<4xf16>
  return
}
