// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The rules of the Blackwell ops (SPEC section 8, docs/SPEC-additions.md):
// TMEM buffers and their columns (JAX's words for the allocation), the
// shapes and types of tcgen05_mma, its operands read in place, barrier
// indices, whole-buffer TMEM moves, and all of them only in kernels.

// expected-error @below {{tensor memory holds 128 rows (its lanes) of columns: expects a 128 x N buffer, got (64, 128)}}
func.func private @rows(!mgpu.tmem<64x128xf32>)

// -----

// expected-error @below {{tensor memory buffers hold f32 (the accumulators of tcgen05 MMAs) or f16 / bf16 (an MMA's a, two to a column), got 'i32'}}
func.func private @element(!mgpu.tmem<128x128xi32>)

// -----

// expected-error @below {{a tensor memory buffer of 'bf16' packs two elements to a 32-bit column: expects an even number per row, got 63}}
func.func private @odd_packed(!mgpu.tmem<128x63xbf16>)

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @a_tmem_transforms(%b: memref<64x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!mgpu.tmem<128x64xf32>, !mgpu.tmem<128x64xbf16>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>, %p: !mgpu.tmem<128x64xbf16>):
    // expected-error @below {{'mgpu.tcgen05_mma' op reads a from tensor memory, which takes no a_transforms}}
    mgpu.tcgen05_mma %acc, %p, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, !mgpu.tmem<128x64xbf16>, memref<64x64xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @a_tmem_f32(%b: memref<64x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!mgpu.tmem<128x64xf32>, !mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>, %p: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects a and b of the same element type, got 'f32' and 'bf16'}}
    mgpu.tcgen05_mma %acc, %p, %b b_transforms #t
        : !mgpu.tmem<128x64xf32>, !mgpu.tmem<128x64xf32>, memref<64x64xbf16, #s>
  }
  return
}

// -----

// expected-error @below {{a tensor memory buffer has 1 to 512 columns, got 1024}}
func.func private @columns(!mgpu.tmem<128x1024xf32>)

// -----

func.func @too_much_tmem() {
  // expected-error @below {{'mgpu.pallas_call' op After rounding up, got 1024 columns, exceeding the limit of 512}}
  mgpu.pallas_call grid [1] in_specs [] out_specs []
      scratch [!mgpu.tmem<128x512xf32>, !mgpu.tmem<128x32xf32>] {
  ^bb0(%t0: !mgpu.tmem<128x512xf32>, %t1: !mgpu.tmem<128x32xf32>):
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @n_not_16(%a: memref<128x64xf16, #s>, %b: memref<64x24xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x24xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x24xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects N to be a multiple of 16 up to 256, got 24}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x24xf32>, memref<128x64xf16, #s>, memref<64x24xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
func.func @k_not_16(%a: memref<128x8xf16, #s>, %b: memref<8x64xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects K to be a multiple of 16 for 'f16' inputs, got 8}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, memref<128x8xf16, #s>, memref<8x64xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
func.func @no_transforms(%a: memref<128x64xbf16, #s>, %b: memref<64x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects a_transforms: the tensor cores read a in place, in a tiled, swizzled buffer ([#mgpu.tile<[R, C]>, #mgpu.swizzle<S>])}}
    mgpu.tcgen05_mma %acc, %a, %b
        : !mgpu.tmem<128x64xf32>, memref<128x64xbf16, #s>, memref<64x64xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @mixed_types(%a: memref<128x64xbf16, #s>, %b: memref<64x64xf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects a and b of the same element type, got 'bf16' and 'f16'}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, memref<128x64xbf16, #s>, memref<64x64xf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @shapes(%a: memref<128x64xbf16, #s>, %b: memref<64x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x128xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x128xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects a (M x K) x b (K x N) + acc (M x N), got a (128, 64), b (64, 64), acc (128, 128)}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x128xf32>, memref<128x64xbf16, #s>, memref<64x64xbf16, #s>
  }
  return
}

// -----

#t = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]
func.func @global_a(%a: memref<128x64xbf16>, %b: memref<64x64xbf16, #gpu.address_space<workgroup>>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects a and b in shared memory (#gpu.address_space<workgroup>)}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, memref<128x64xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @commit_index() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.barrier<count = 2>] {
  ^bb0(%bar: !mgpu.barrier<count = 2>):
    %c2 = arith.constant 2 : index
    // expected-error @below {{'mgpu.tcgen05_commit_arrive' op barrier index 2 is out of range for '!mgpu.barrier<count = 2>' (count 2)}}
    mgpu.tcgen05_commit_arrive %bar[%c2] : !mgpu.barrier<count = 2>
  }
  return
}

// -----

func.func @load_shape() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.async_load_tmem' op moves a whole tensor memory buffer: expects 'vector<128x32xf32>' to be 'vector<128x64xf32>'}}
    %v = mgpu.async_load_tmem %acc : !mgpu.tmem<128x64xf32> -> vector<128x32xf32>
  }
  return
}

// -----

func.func @outside(%v: vector<128x64xf32>, %acc: !mgpu.tmem<128x64xf32>) {
  // expected-error @below {{'mgpu.async_store_tmem' op must be inside}}
  mgpu.async_store_tmem %v, %acc : vector<128x64xf32>, !mgpu.tmem<128x64xf32>
  return
}

// -----

func.func @alloc_columns(%slot: memref<1xi32, #gpu.address_space<workgroup>>) {
  // expected-error @below {{'mgpu.tmem_alloc' op ncols must be a power of 2 and within [32, 512], got: 48}}
  mgpu.tmem_alloc %slot columns 48 : memref<1xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @lane_load_columns(%t: !mgpu.tmem<128x64xf32>, %row: index) {
  // expected-error @below {{'mgpu.tmem_lane_load' op reads columns [48, 80) of a buffer of 64 columns}}
  %p = mgpu.tmem_lane_load %t[%row] column 48 : !mgpu.tmem<128x64xf32> -> vector<32xf32>
  return
}

// -----

// A column near INT64_MAX: the end of the read must not wrap around into
// range (a signed overflow in the verifier, found by utils/fuzz.py under
// UBSan).
func.func @lane_load_column_wraps(%t: !mgpu.tmem<128x64xf32>, %row: index) {
  // expected-error @below {{'mgpu.tmem_lane_load' op reads columns [9223372036854775807, 9223372036854775807 + 32) of a buffer of 64 columns}}
  %p = mgpu.tmem_lane_load %t[%row] column 9223372036854775807 : !mgpu.tmem<128x64xf32> -> vector<32xf32>
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[64, 128]>, #mgpu.swizzle<128>]
func.func @f8_with_bf16(%a: memref<128x128xf8E4M3FN, #s>, %b: memref<128x64xbf16, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op MMA requires A and B to have the same element type, except that FP8 types (f8E4M3FN and f8E5M2) may be mixed; got: 'f8E4M3FN' and 'bf16'}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, memref<128x128xf8E4M3FN, #s>, memref<128x64xbf16, #s>
  }
  return
}

// -----

#s = #gpu.address_space<workgroup>
#t = [#mgpu.tile<[8, 16]>, #mgpu.swizzle<128>]
func.func @f8_k_not_32(%a: memref<128x16xf8E4M3FN, #s>, %b: memref<16x64xf8E5M2, #s>) {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x64xf32>):
    // expected-error @below {{'mgpu.tcgen05_mma' op expects K to be a multiple of 32 for 'f8E4M3FN' inputs, got 16}}
    mgpu.tcgen05_mma %acc, %a, %b a_transforms #t b_transforms #t
        : !mgpu.tmem<128x64xf32>, memref<128x16xf8E4M3FN, #s>, memref<16x64xf8E5M2, #s>
  }
  return
}

// -----

func.func @slice_out_of_range() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x256xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32>):
    %c192 = arith.constant 192 : index
    // expected-error @below {{'mgpu.tmem_slice' op takes columns [192, 320) of a buffer of 256}}
    %s = mgpu.tmem_slice %acc[%c192] : !mgpu.tmem<128x256xf32> -> !mgpu.tmem<128x128xf32>
  }
  return
}

// -----

// A start near the index range's end: the message saturates (a fuzz
// finding: the end overflowed under UBSan).
func.func @slice_far_out_of_range() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x256xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32>):
    %far = arith.constant 9223372036854775807 : index
    // expected-error @below {{'mgpu.tmem_slice' op takes columns [9223372036854775807, 9223372036854775807) of a buffer of 256}}
    %s = mgpu.tmem_slice %acc[%far] : !mgpu.tmem<128x256xf32> -> !mgpu.tmem<128x128xf32>
  }
  return
}

// -----

func.func @slice_odd_packed() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x64xbf16>] {
  ^bb0(%p: !mgpu.tmem<128x64xbf16>):
    %c1 = arith.constant 1 : index
    // expected-error @below {{'mgpu.tmem_slice' op starts at element 1 of a buffer of 'bf16', which packs two to a column: expects an even start}}
    %s = mgpu.tmem_slice %p[%c1] : !mgpu.tmem<128x64xbf16> -> !mgpu.tmem<128x32xbf16>
  }
  return
}

// -----

func.func @slice_type() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [!mgpu.tmem<128x256xf32>] {
  ^bb0(%acc: !mgpu.tmem<128x256xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.tmem_slice' op expects the result to keep the buffer's rows, element type and collective flag, got '!mgpu.tmem<128x256xf32>' -> '!mgpu.tmem<128x128xf32, collective>'}}
    %s = mgpu.tmem_slice %acc[%c0] : !mgpu.tmem<128x256xf32> -> !mgpu.tmem<128x128xf32, collective>
  }
  return
}

// -----

// A Pallas-thread primitive (here plgpu.commit_tmem) outside a kernel.
func.func @commit_outside() {
  // expected-error @below {{'mgpu.commit_tmem' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.commit_tmem
  return
}

// -----

func.func @wait_load_outside() {
  // expected-error @below {{'mgpu.wait_load_tmem' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.wait_load_tmem
  return
}
