// RUN: mgpu-opt %s --mgpu-pack-sub-byte -split-input-file -verify-diagnostics

// What --mgpu-pack-sub-byte refuses: 4-bit elements that cannot share
// bytes two by two (JAX: "Size is not a multiple of bytes", its
// test_lowering_error_context with 127 int4 elements), a scalar store in a
// kernel (lanes would race on the shared byte), transfers it cannot move
// in 2-byte pairs, and ops it does not rewrite.

// expected-error @+1 {{'func.func' op cannot store the 4-bit elements of 'memref<127xi4>' two to a byte: its innermost size must be static and even (two elements share a byte)}}
func.func @odd(%x: memref<127xi4>) {
  return
}

// -----

#blk = #mgpu.block_spec<shape = [8, 16], index_map = affine_map<(i) -> (i, 0)>>
func.func @store_in_kernel(%x: memref<64x16xi4>) {
  mgpu.pallas_call grid [8] ins(%x : memref<64x16xi4>) in_specs [#blk] out_specs [] {
  ^bb0(%xs: memref<8x16xi4, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i4
    // expected-error @+1 {{'memref.store' op cannot store one 4-bit element in a kernel: its byte is shared with the next element, which another lane may write; write a vector of them}}
    memref.store %v, %xs[%c0, %c0] : memref<8x16xi4, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @unaligned(%x: memref<8x16xi4>) -> vector<8xi4> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0 : i4
  // expected-error @+1 {{'vector.transfer_read' op moves 4-bit elements only as vectors whose innermost size, memref size and index are multiples of 4, without a permutation or a mask}}
  %v = vector.transfer_read %x[%c0, %c2], %pad {in_bounds = [true]} : memref<8x16xi4>, vector<8xi4>
  return %v : vector<8xi4>
}

// -----

func.func @subview(%x: memref<8x16xi4>) {
  // expected-error @+1 {{'memref.subview' op is not supported on memrefs of 4-bit elements (stored two to a byte); use vector.transfer_read/write}}
  %s = memref.subview %x[0, 0] [4, 16] [1, 1] : memref<8x16xi4> to memref<4x16xi4, strided<[16, 1]>>
  return
}

// -----

#t = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i) -> (0, 0)>, transforms = [#mgpu.transpose<[1, 0]>]>
func.func @transposed(%x: memref<16x16xi4>) {
  // expected-error @+1 {{'mgpu.pallas_call' op cannot store 4-bit elements two to a byte: a transposed block of 4-bit elements is not supported}}
  mgpu.pallas_call grid [1] ins(%x : memref<16x16xi4>) in_specs [#t] out_specs [] {
  ^bb0(%xs: memref<16x16xi4, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

// 6-bit elements: atomics and masked or gathered accesses are refused.
func.func @f6_atomic(%x: memref<16xf6E2M3FN>, %v: f6E2M3FN) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.atomic_rmw' op is not supported on memrefs of 6-bit elements (stored one to a byte); use memref.load/store, vector.load/store or vector.transfer_read/write}}
  %r = memref.atomic_rmw addf %v, %x[%c0] : (f6E2M3FN, memref<16xf6E2M3FN>) -> f6E2M3FN
  return
}
