// Clusters of two CTAs: out = x * (c + 1) + b over 1024 f32 elements, where
// c is the CTA's index in its cluster and b the number of its block.
//
// The mesh has a grid of 4 clusters of 2 CTAs each (cluster axis "c"); the
// pallas_call's grid is the mesh shape, grid then cluster sizes: [4, 2].
// CTA c of cluster i works on 128-element block b = i * 2 + c (the index
// map), and reads its position in the cluster with mgpu.axis_index "c".
//
// Summary: a mesh with a cluster axis

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i, c) -> (i * 2 + c)>>

module {
  func.func @cluster(%x: tensor<1024xf32>, %init: tensor<1024xf32>)
      -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4, 2]
        ins(%x : tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block] out_specs [#block]
        mesh #mesh {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant 0.0 : f32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %cluster_size = mgpu.axis_size "c"
      // The scale c + 1 and the block number i * 2 + c, as f32 vectors.
      %c_plus_1 = arith.addi %c, %c1 : index
      %first = arith.muli %i, %cluster_size : index
      %block = arith.addi %first, %c : index
      %scale_i = arith.index_cast %c_plus_1 : index to i32
      %scale_f = arith.sitofp %scale_i : i32 to f32
      %block_i = arith.index_cast %block : index to i32
      %block_f = arith.sitofp %block_i : i32 to f32
      %scale = vector.broadcast %scale_f : f32 to vector<128xf32>
      %offset = vector.broadcast %block_f : f32 to vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %scale : vector<128xf32>
      %r = arith.addf %scaled, %offset : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }
}
