// RUN: mgpu-opt %s --mgpu-profile-kernels -split-input-file -verify-diagnostics

// What --mgpu-profile-kernels refuses: a dynamic grid (the trace buffer is
// sized by it), a kernel still in tensor form.

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
