// RUN: mgpu-opt %s --mgpu-expand-pipelines -split-input-file -verify-diagnostics

#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>

func.func @tensor_form(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @below {{'mgpu.pallas_call' op must be bufferized before --mgpu-expand-pipelines (run --mgpu-bufferize)}}
  %r = mgpu.pallas_call grid [1] ins(%a : tensor<64xf32>) outs(%a : tensor<64xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>,
       %y: memref<64xf32, #gpu.address_space<workgroup>>):
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// The Pallas threads of a program share its blocks, so a block index may not
// depend on the thread axis.
#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i, t) -> (i * 2 + t)>>
func.func @per_thread_block(%x: memref<1024xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op stages a block whose index depends on the thread axis 'wg'; the Pallas threads of a program share its blocks}}
  // expected-note @below {{give the threads one block and let each work on its part (mgpu.axis_index)}}
  mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) in_specs [#b] out_specs [] mesh #mesh {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>):
  }
  return
}
