// RUN: mgpu-opt %s --mgpu-profile-kernels -split-input-file -verify-diagnostics

// What --mgpu-profile-kernels refuses: a dynamic grid (the trace buffer is
// sized by it), a kernel still in tensor form, a trace buffer too large
// (profile_space near INT64_MAX overflowed its size: found by
// utils/fuzz.py under UBSan).

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#p = #mgpu.compiler_params<profile_space = 2, profile_dir = "traces">
func.func @dynamic(%n: index, %x: memref<?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op cannot be profiled with a dynamic grid: the trace buffer is sized by the grid}}
  mgpu.pallas_call grid [%n] ins(%x : memref<?xf32>) outs(%o : memref<?xf32>)
      in_specs [#blk] out_specs [#blk] params #p {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#p = #mgpu.compiler_params<profile_space = 2, profile_dir = "traces">
func.func @tensors(%x: tensor<512xf32>, %o: tensor<512xf32>) -> tensor<512xf32> {
  // expected-error @+1 {{'mgpu.pallas_call' op must be bufferized before it is profiled (run --mgpu-bufferize)}}
  %r = mgpu.pallas_call grid [4] ins(%x : tensor<512xf32>) outs(%o : tensor<512xf32>)
      in_specs [#blk] out_specs [#blk] params #p {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}

// -----

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#p = #mgpu.compiler_params<profile_space = 9223372036854775807, profile_dir = "traces">
func.func @huge(%x: memref<512xf32>, %o: memref<512xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op cannot be profiled: profile_space = 9223372036854775807 for each of 4 Pallas threads needs a trace buffer of more than 2^32 8-byte words}}
  mgpu.pallas_call grid [4] ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
      in_specs [#blk] out_specs [#blk] params #p {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#p = #mgpu.compiler_params<profile_space = 1048576, profile_dir = "traces">
func.func @large(%x: memref<512xf32>, %o: memref<512xf32>) {
  // expected-error @+1 {{'mgpu.pallas_call' op cannot be profiled: profile_space = 1048576 for each of 4096 Pallas threads needs a trace buffer of more than 2^32 8-byte words}}
  mgpu.pallas_call grid [4096] ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
      in_specs [#blk] out_specs [#blk] params #p {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
       %os: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}
