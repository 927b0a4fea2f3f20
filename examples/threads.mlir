// Two Pallas threads per program: out = x * x + 1 over 1024 f32 elements.
//
// The mesh has 4 programs (CTAs) of num_threads = 2 Pallas threads each
// (two warpgroups, axis "wg"). A pallas_call with a mesh has the mesh's
// shape as its grid, (grid, cluster, thread sizes in order): here [4, 2].
// Both threads of program i see the same 256-element block (the index map
// ignores the thread axis) and each computes one half of it, chosen with
// mgpu.axis_index "wg".
//
// Summary: a mesh with `num_threads = 2`, split by `axis_index "wg"`

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>

module {
  func.func @threads(%x: tensor<1024xf32>, %init: tensor<1024xf32>)
      -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4, 2]
        ins(%x : tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block] out_specs [#block]
        mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      // This thread's half of the block: elements [128 * wg, 128 * wg + 128).
      %wg = mgpu.axis_index "wg"
      %half = mgpu.axis_size "wg"
      %c256 = arith.constant 256 : index
      %width = arith.divui %c256, %half : index
      %start = arith.muli %wg, %width : index
      %v = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %sq = arith.mulf %v, %v : vector<128xf32>
      %r = arith.addf %sq, %one : vector<128xf32>
      vector.transfer_write %r, %os[%start] {in_bounds = [true]}
          : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }
}
