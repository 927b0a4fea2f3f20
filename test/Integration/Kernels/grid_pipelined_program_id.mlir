// JAX's test_add_one_grid_pipelined_program_id (tests/pallas/mosaic_gpu_test.py):
// a 16x64 output in 16x16 blocks over grid (4, 4), the second axis
// sequential and pipelined with two buffers. The index map (i, j) -> (i, j)
// names block rows 1 to 3, wholly past the array's one block row; as with
// TMA, their writes are dropped, so o[r][c] = c // 16 on every backend.
// RUN: %run_on_backends %s --match-full-lines

#spec = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i, j) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>

module {
  // o_ref[...] = jnp.broadcast_to(pl.program_id(1), o_ref.shape)
  func.func @kernel() -> tensor<16x64xi32> {
    %init = tensor.empty() : tensor<16x64xi32>
    %o = mgpu.pallas_call grid [4, 4] outs(%init : tensor<16x64xi32>)
        in_specs [] out_specs [#spec] params #params {
    ^bb0(%o_ref: memref<16x16xi32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %j = mgpu.program_id 1
      %ji = arith.index_cast %j : index to i32
      %v = vector.broadcast %ji : i32 to vector<16x16xi32>
      vector.transfer_write %v, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x16xi32>, memref<16x16xi32, #gpu.address_space<workgroup>>
    } -> tensor<16x64xi32>
    return %o : tensor<16x64xi32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %ot = func.call @kernel() : () -> tensor<16x64xi32>
    %o = bufferization.to_buffer %ot read_only : tensor<16x64xi32> to memref<16x64xi32>
    // The reference: jnp.repeat(jnp.repeat(jnp.arange(4), 16)[None], 16, axis=0).
    %bad = scf.for %r = %c0 to %c16 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %c = %c0 to %c64 step %c1 iter_args(%m = %n) -> index {
        %got = memref.load %o[%r, %c] : memref<16x64xi32>
        %w = arith.divui %c, %c16 : index
        %want = arith.index_cast %w : index to i32
        %ne = arith.cmpi ne, %got, %want : i32
        %inc = arith.select %ne, %c1, %c0 : index
        %next = arith.addi %m, %inc : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : index
    // CHECK-NEXT: ( 0, 1, 2, 3 )
    %c15 = arith.constant 15 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %e0 = memref.load %o[%c15, %c0] : memref<16x64xi32>
    %e1 = memref.load %o[%c15, %c16] : memref<16x64xi32>
    %e2 = memref.load %o[%c15, %c32] : memref<16x64xi32>
    %e3 = memref.load %o[%c15, %c48] : memref<16x64xi32>
    %v0 = vector.broadcast %e0 : i32 to vector<4xi32>
    %v1 = vector.insert %e1, %v0 [1] : i32 into vector<4xi32>
    %v2 = vector.insert %e2, %v1 [2] : i32 into vector<4xi32>
    %v3 = vector.insert %e3, %v2 [3] : i32 into vector<4xi32>
    vector.print %v3 : vector<4xi32>
    return
  }
}
