// A persistent kernel (3 CTAs over 12 tiles): nd_loop and planar_snake
// become a loop over the CTA's tiles and index arithmetic on the CTA id
// before the GPU lowering, and the kernel assembles for sm_90a without
// spills.
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTX-LABEL: .entry snake_kernel
// PTX: mov.u32 {{.*}}%ctaid.x

#mesh = #mgpu.mesh<grid = [3], grid_names = ["p"]>
#whole_a = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [32, 48], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_c = #mgpu.block_spec<shape = [64, 48], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#whole_w = #mgpu.block_spec<shape = [4, 3], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
#mm = {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                        affine_map<(m, n, k) -> (k, n)>,
                        affine_map<(m, n, k) -> (m, n)>],
       iterator_types = ["parallel", "parallel", "reduction"],
       kind = #vector.kind<add>}

module {
  func.func @snake(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                        %init: tensor<64x48xf32>, %winit: tensor<4x3xf32>)
      -> (tensor<64x48xf32>, tensor<4x3xf32>) {
    %c, %who = mgpu.pallas_call grid [3]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init, %winit : tensor<64x48xf32>, tensor<4x3xf32>)
        in_specs [#whole_a, #whole_b] out_specs [#whole_c, #whole_w] mesh #mesh {
    ^bb0(%ag: memref<64x32xf32>, %bg: memref<32x48xf32>,
         %cg: memref<64x48xf32>, %wg: memref<4x3xf32>):
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %p = mgpu.axis_index "p"
      // Linear steps (program p: p, p + 3, p + 6, p + 9), each mapped to a
      // tile in planar-snake order.
      mgpu.nd_loop [%c12] collective_axes ["p"] {
      ^bb0(%lin: index, %step: index):
        %i, %j = mgpu.planar_snake %lin in [%c4, %c3] minor_dim 0 tile_width 2
        %row = arith.muli %i, %c16 : index
        %col = arith.muli %j, %c16 : index
        %va = vector.transfer_read %ag[%row, %c0], %pad {in_bounds = [true, true]}
            : memref<64x32xf32>, vector<16x32xf32>
        %vb = vector.transfer_read %bg[%c0, %col], %pad {in_bounds = [true, true]}
            : memref<32x48xf32>, vector<32x16xf32>
        %r = vector.contract #mm %va, %vb, %zero
            : vector<16x32xf32>, vector<32x16xf32> into vector<16x16xf32>
        vector.transfer_write %r, %cg[%row, %col] {in_bounds = [true, true]}
            : vector<16x16xf32>, memref<64x48xf32>
        %p100 = arith.muli %p, %c100 : index
        %w = arith.addi %p100, %step : index
        %wi = arith.index_cast %w : index to i32
        %wf = arith.sitofp %wi : i32 to f32
        memref.store %wf, %wg[%i, %j] : memref<4x3xf32>
      }
    } -> tensor<64x48xf32>, tensor<4x3xf32>
    return %c, %who : tensor<64x48xf32>, tensor<4x3xf32>
  }
}
