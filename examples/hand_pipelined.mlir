// A hand-pipelined kernel, as JAX users write them with plgpu.emit_pipeline:
// an mpmd_map of 4 programs, each taking its 16 rows of x (a memref.subview
// at its program id) and summing them over 4 steps of 64 columns with a
// 2-deep pipeline: the next step's block is in flight (TMA on the GPU) while
// the body reduces the current one; the output block (the program's 16
// sums) stays the same at every step and is written back once.
// out[r] = x[r][0] + ... + x[r][255]. Run test:
// test/Integration/Kernels/hand_pipelined.mlir.
//
// Summary: `emit_pipeline` inside a kernel, over each program's subview

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#cols = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(k) -> (0, k)>>
#sums = #mgpu.block_spec<shape = [16], index_map = affine_map<(k) -> (0)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>

func.func @row_sums(%x: memref<64x256xf32>, %o: memref<64xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<64x256xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%xa: memref<64x256xf32>, %oa: memref<64xf32>):
    %c16 = arith.constant 16 : index
    %i = mgpu.program_id 0
    %row = arith.muli %i, %c16 : index
    %rows = memref.subview %xa[%row, 0] [16, 256] [1, 1]
        : memref<64x256xf32> to memref<16x256xf32, strided<[256, 1], offset: ?>>
    %outs = memref.subview %oa[%row] [16] [1]
        : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
    mgpu.emit_pipeline grid [4]
        ins(%rows : memref<16x256xf32, strided<[256, 1], offset: ?>>)
        outs(%outs : memref<16xf32, strided<[1], offset: ?>>)
        in_specs [#cols] out_specs [#sums] params #two {
    ^bb0(%k: index, %xs: memref<16x64xf32, #gpu.address_space<workgroup>>,
         %acc: memref<16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<16xf32>
        vector.transfer_write %zero, %acc[%c0] {in_bounds = [true]}
            : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
      }
      %partial = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<16x64xf32>
      %sum = vector.multi_reduction <add>, %v, %partial [1]
          : vector<16x64xf32> to vector<16xf32>
      vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}
