// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups -split-input-file -verify-diagnostics

// What the warpgroup distribution refuses, each at its op.
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @alloca(%x: memref<256xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%x : memref<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    // expected-error @below {{'memref.alloca' op cannot be lowered to the GPU: a kernel body cannot allocate memory on the GPU (each lane would get its own buffer); use a scratch operand}}
    %t = memref.alloca() : memref<128xf32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @unknown_vector_op(%x: memref<256xi32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xi32>) outs(%x : memref<256xi32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xi32, #gpu.address_space<workgroup>>, %os: memref<128xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %a = arith.constant dense<1> : vector<64xi32>
    // expected-error @below {{'vector.interleave' op cannot be lowered to the GPU: no distribution of this vector op over the 128 lanes of a warpgroup}}
    %v = vector.interleave %a, %a : vector<64xi32> -> vector<128xi32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [256, 128], index_map = affine_map<(i) -> (i, 0)>>
// The 128 KiB block and the 128 KiB a transpose exchanges between lanes do
// not fit together.
func.func @too_much_shared_memory(%x: memref<512x128xf32>, %o: memref<128xf32>) {
  // expected-error @below {{'mgpu.launch' op needs 263296 bytes of shared memory on the GPU (131200 for staged blocks and scratch, 132096 per warpgroup for data exchanged between lanes), more than sm_90a has (232448)}}
  // expected-note @below {{use smaller blocks or vectors}}
  mgpu.pallas_call grid [2] ins(%x : memref<512x128xf32>) outs(%o : memref<128xf32>)
      in_specs [#b] out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] {
  ^bb0(%xs: memref<256x128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<128xf32>
    %v = vector.load %xs[%c0, %c0] : memref<256x128xf32, #gpu.address_space<workgroup>>, vector<256x128xf32>
    %t = vector.transpose %v, [1, 0] : vector<256x128xf32> to vector<128x256xf32>
    %r = vector.multi_reduction <add>, %t, %zero [1] : vector<128x256xf32> to vector<128xf32>
    vector.store %r, %os[%c0] : memref<128xf32>, vector<128xf32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (i, 0)>>
// S31: a vector too large to live in registers, refused before any backend.
func.func @too_large_for_registers(%x: memref<256x128xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256x128xf32>)
      in_specs [#b] out_specs [] {
  ^bb0(%xs: memref<128x128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<128x128xf32>
    // expected-error @below {{'vector.broadcast' op holds 'vector<3x128x128xf32>', 384 32-bit registers per lane across a warpgroup's 128 lanes; at most 256 fit}}
    // expected-note @below {{work on smaller vectors (a loop over slices of the block)}}
    %b = vector.broadcast %v : vector<128x128xf32> to vector<3x128x128xf32>
  }
  return
}
