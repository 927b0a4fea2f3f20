// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// What lane layouts can hold: the wgmma layout only 2-D vectors of 8- to
// 32-bit integers or floats (JAX's Layout.WGMMA: i8, i32, f16, f32, ...) of
// whole 64-row tiles and 8-column groups up to 64 KiB; the splat layout
// only splat values; mgpu.out_layouts one #mgpu.layout per vector result;
// layout_cast only in kernels.

func.func @wgmma_rows() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<32x8xf32>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma layout holds a 2-D vector of 8- to 32-bit integers or floats, or of i1, with a multiple of 64 rows and of 8 columns, at most 64 KiB; got 'vector<32x8xf32>'}}
    %r = mgpu.layout_cast %z : vector<32x8xf32> to #mgpu.layout<wgmma>
  }
  return
}

// -----

func.func @wgmma_columns() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x12xf32>
    // expected-error @below {{got 'vector<64x12xf32>'}}
    %r = mgpu.layout_cast %z : vector<64x12xf32> to #mgpu.layout<wgmma>
  }
  return
}

// -----

func.func @wgmma_type() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x8xi64>
    // expected-error @below {{got 'vector<64x8xi64>'}}
    %r = mgpu.layout_cast %z : vector<64x8xi64> to #mgpu.layout<wgmma>
  }
  return
}

// -----

func.func @wgmma_too_big() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<128x256xf32>
    // expected-error @below {{got 'vector<128x256xf32>'}}
    %r = mgpu.layout_cast %z : vector<128x256xf32> to #mgpu.layout<wgmma>
  }
  return
}

// -----

func.func @splat_of_read(%m: memref<64x8xf32, #gpu.address_space<workgroup>>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<64x8xf32, #gpu.address_space<workgroup>>, vector<64x8xf32>
    // expected-error @below {{'mgpu.layout_cast' op only a splat value (a splat constant or a broadcast of a scalar) can be cast to the splat layout}}
    %r = mgpu.layout_cast %v : vector<64x8xf32> to #mgpu.layout<splat>
  }
  return
}

// -----

func.func @outside_kernel() {
  %z = arith.constant dense<0.0> : vector<64x8xf32>
  // expected-error @below {{'mgpu.layout_cast' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  %r = mgpu.layout_cast %z : vector<64x8xf32> to #mgpu.layout<wgmma>
  return
}

// -----

func.func @types_differ() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{'mgpu.layout_cast' op expects the result to have the source's type 'vector<64x8xf32>', got 'vector<64x16xf32>'}}
    %r = "mgpu.layout_cast"(%z) {layout = #mgpu.layout<wgmma>} : (vector<64x8xf32>) -> vector<64x16xf32>
  }
  return
}

// -----

func.func @unknown_kind() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x8xf32>
    // expected-error @below {{expected ::mlir::mgpu::LayoutKind to be one of: strided, wgmma, splat, wgmma_row}}
    // expected-error @below {{failed to parse MGPU_LayoutAttr parameter 'kind'}}
    %r = mgpu.layout_cast %z : vector<64x8xf32> to #mgpu.layout<tiled>
  }
  return
}

// -----

func.func @count() {
  // expected-error @below {{'mgpu.out_layouts' must list one #mgpu.layout per vector result (1)}}
  %z = arith.constant {mgpu.out_layouts = []} dense<0.0> : vector<64x8xf32>
  return
}

// -----

func.func @not_a_layout() {
  // expected-error @below {{'mgpu.out_layouts' must list one #mgpu.layout per vector result (1)}}
  %z = arith.constant {mgpu.out_layouts = [1]} dense<0.0> : vector<64x8xf32>
  return
}

// -----

func.func @out_layout_misfit() {
  // expected-error @below {{the wgmma layout holds a 2-D vector of 8- to 32-bit integers or floats, or of i1, with a multiple of 64 rows and of 8 columns, at most 64 KiB; got 'vector<64x8xf64>'}}
  %z = arith.constant {mgpu.out_layouts = [#mgpu.layout<wgmma>]} dense<0.0> : vector<64x8xf64>
  return
}

// -----

func.func @wgmma_sub_byte() {
  // expected-error @below {{the wgmma layout holds a 2-D vector of 8- to 32-bit integers or floats, or of i1, with a multiple of 64 rows and of 8 columns, at most 64 KiB; got 'vector<64x8xi4>'}}
  %z = arith.constant {mgpu.out_layouts = [#mgpu.layout<wgmma>]} dense<0> : vector<64x8xi4>
  return
}

// -----

func.func @wgmma_integers(%m: memref<64x8xi32>, %n: memref<64x8xi8>) {
  %c0 = arith.constant 0 : index
  // An i32 accumulator and an i8 block fit.
  %a = vector.load %m[%c0, %c0] {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : memref<64x8xi32>, vector<64x8xi32>
  %b = vector.load %n[%c0, %c0] {mgpu.out_layouts = [#mgpu.layout<wgmma>]} : memref<64x8xi8>, vector<64x8xi8>
  %z = arith.constant dense<0> : vector<64xi32>
  %r = vector.multi_reduction <add>, %a, %z {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} [1] : vector<64x8xi32> to vector<64xi32>
  %h = arith.constant dense<0> : vector<64xi16>
  // expected-error @below {{the wgmma_row layout holds an f32, i32 or index vector of M or M x 1 elements, M a multiple of 64; got 'vector<64xi16>'}}
  %t = arith.addi %h, %h {mgpu.out_layouts = [#mgpu.layout<wgmma_row>]} : vector<64xi16>
  return
}

// -----

func.func @out_layout_not_splat(%m: memref<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  // expected-error @below {{only a splat value (a splat constant or a broadcast of a scalar) can have the splat layout}}
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true], mgpu.out_layouts = [#mgpu.layout<splat>]}
      : memref<64x8xf32>, vector<64x8xf32>
  return
}

// -----

func.func @row_rows() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<32xf32>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_row layout holds an f32, i32 or index vector of M or M x 1 elements, M a multiple of 64; got 'vector<32xf32>'}}
    %r = mgpu.layout_cast %z : vector<32xf32> to #mgpu.layout<wgmma_row>
  }
  return
}

// -----

func.func @row_columns() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x2xf32>
    // expected-error @below {{got 'vector<64x2xf32>'}}
    %r = mgpu.layout_cast %z : vector<64x2xf32> to #mgpu.layout<wgmma_row>
  }
  return
}

// -----

// JAX's 8-bit and upcast layouts cut 64-row tiles into 16- and 32-column
// groups.
func.func @eight_bit_columns() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x8xi8>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_8bit layout holds a 2-D vector of 8- to 32-bit elements with a multiple of 64 rows and of 16 columns, at most 64 KiB; got 'vector<64x8xi8>'}}
    %r = mgpu.layout_cast %z : vector<64x8xi8> to #mgpu.layout<wgmma_8bit>
  }
  return
}

// -----

func.func @upcast_4x_columns() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<64x16xi8>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_upcast_4x layout holds a 2-D vector of 8- to 32-bit elements with a multiple of 64 rows and of 32 columns, at most 64 KiB; got 'vector<64x16xi8>'}}
    %r = mgpu.layout_cast %z : vector<64x16xi8> to #mgpu.layout<wgmma_upcast_4x>
  }
  return
}

// -----

func.func @transposed_rows() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<32x8xf32>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_transposed layout holds a 2-D vector of 8- to 32-bit elements with a multiple of 64 rows and of 8 columns, at most 64 KiB; got 'vector<32x8xf32>'}}
    %r = mgpu.layout_cast %z : vector<32x8xf32> to #mgpu.layout<wgmma_transposed>
  }
  return
}

// -----

func.func @upcast_2x_wide() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<64x16xf64>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_upcast_2x layout holds a 2-D vector of 8- to 32-bit elements with a multiple of 64 rows and of 16 columns, at most 64 KiB; got 'vector<64x16xf64>'}}
    %r = mgpu.layout_cast %z : vector<64x16xf64> to #mgpu.layout<wgmma_upcast_2x>
  }
  return
}

// -----

func.func @col_columns() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0.0> : vector<12xf32>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_col layout holds a 16- or 32-bit or index vector of N or 1 x N elements, N a multiple of 8; got 'vector<12xf32>'}}
    %r = mgpu.layout_cast %z : vector<12xf32> to #mgpu.layout<wgmma_col>
  }
  return
}

// -----

func.func @col_rank() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %z = arith.constant dense<0> : vector<2x64xi8>
    // expected-error @below {{'mgpu.layout_cast' op the wgmma_col layout holds a 16- or 32-bit or index vector of N or 1 x N elements, N a multiple of 8; got 'vector<2x64xi8>'}}
    %r = mgpu.layout_cast %z : vector<2x64xi8> to #mgpu.layout<wgmma_col>
  }
  return
}

// -----

// `mgpu.transforms` (--mgpu-propagate-transforms' mark of a lane access
// through a buffer's layout) takes only whole 2-d views at [0, 0].
func.func @access_transforms_part(%m: memref<64x64xf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  // expected-error @below {{'mgpu.transforms' must be the transforms of a vector.transfer_read or transfer_write of a whole 2-d view with contiguous rows, at [0, 0]}}
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true], mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]}
      : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8x64xf16>
  return
}

// -----

func.func @access_transforms_tile(%m: memref<64x64xf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  // expected-error @below {{'vector.transfer_read' op expects the tile of the accessed view to span the 128-byte swizzle in whole groups of 8 rows, got (8, 32) of 'f16'}}
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true], mgpu.transforms = [#mgpu.tile<[8, 32]>, #mgpu.swizzle<128>]}
      : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<64x64xf16>
  return
}
