// JAX's test_program_id_in_block_spec (tests/pallas/mosaic_gpu_test.py):
// the index map (i) -> (i, i) puts program 1's 2x128 block wholly past a
// 2x128 array. As with TMA, its reads are zeros and its writes are dropped,
// on every backend, so o == x. A second kernel does the same before the
// array: (i) -> (i - 1, i - 1) over grid [3] names block (-1, -1) for
// program 0, block (1, 1) for program 2; only program 1's block is the
// array. Neither is an error: an access outside a block is
// (test/Integration/Kernels/bounds_checks.mlir).
// RUN: %run_on_backends %s --match-full-lines

#spec = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (i, i)>>
#before = #mgpu.block_spec<shape = [2, 128], index_map = affine_map<(i) -> (i - 1, i - 1)>>

module {
  // o_ref[...] = x_ref[...]
  func.func @kernel(%x: tensor<2x128xi32>) -> tensor<2x128xi32> {
    %init = tensor.empty() : tensor<2x128xi32>
    %o = mgpu.pallas_call grid [2]
        ins(%x : tensor<2x128xi32>) outs(%init : tensor<2x128xi32>)
        in_specs [#spec] out_specs [#spec] {
    ^bb0(%x_ref: memref<2x128xi32, #gpu.address_space<workgroup>>,
         %o_ref: memref<2x128xi32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i32
      %v = vector.transfer_read %x_ref[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<2x128xi32, #gpu.address_space<workgroup>>, vector<2x128xi32>
      vector.transfer_write %v, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<2x128xi32>, memref<2x128xi32, #gpu.address_space<workgroup>>
    } -> tensor<2x128xi32>
    return %o : tensor<2x128xi32>
  }

  // o_ref[...] = x_ref[...] + 1; each program also counts the nonzero
  // elements of its input block (a zero-filled block has none).
  func.func @kernel_before(%x: tensor<2x128xi32>)
      -> (tensor<2x128xi32>, tensor<3xi32>) {
    %init = tensor.empty() : tensor<2x128xi32>
    %counts_init = tensor.empty() : tensor<3xi32>
    %o, %counts = mgpu.pallas_call grid [3]
        ins(%x : tensor<2x128xi32>) outs(%init, %counts_init : tensor<2x128xi32>, tensor<3xi32>)
        in_specs [#before]
        out_specs [#before, #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>>] {
    ^bb0(%x_ref: memref<2x128xi32, #gpu.address_space<workgroup>>,
         %o_ref: memref<2x128xi32, #gpu.address_space<workgroup>>,
         %c_ref: memref<1xi32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i32
      %ones = arith.constant dense<1> : vector<2x128xi32>
      %zeros = arith.constant dense<0> : vector<2x128xi32>
      %v = vector.transfer_read %x_ref[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<2x128xi32, #gpu.address_space<workgroup>>, vector<2x128xi32>
      %r = arith.addi %v, %ones : vector<2x128xi32>
      vector.transfer_write %r, %o_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<2x128xi32>, memref<2x128xi32, #gpu.address_space<workgroup>>
      %nz = arith.cmpi ne, %v, %zeros : vector<2x128xi32>
      %nzi = arith.select %nz, %ones, %zeros : vector<2x128xi1>, vector<2x128xi32>
      %n = vector.multi_reduction <add>, %nzi, %pad [0, 1] : vector<2x128xi32> to i32
      memref.store %n, %c_ref[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    } -> tensor<2x128xi32>, tensor<3xi32>
    return %o, %counts : tensor<2x128xi32>, tensor<3xi32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %one = arith.constant 1 : i32
    // x = jnp.arange(2 * 128, dtype=jnp.int32).reshape([2, 128])
    %x = memref.alloc() : memref<2x128xi32>
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %row = arith.muli %r, %c128 : index
        %flat = arith.addi %row, %c : index
        %v = arith.index_cast %flat : index to i32
        memref.store %v, %x[%r, %c] : memref<2x128xi32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<2x128xi32> to tensor<2x128xi32>
    %ot = func.call @kernel(%xt) : (tensor<2x128xi32>) -> tensor<2x128xi32>
    %o = bufferization.to_buffer %ot read_only : tensor<2x128xi32> to memref<2x128xi32>
    %pt, %ct = func.call @kernel_before(%xt)
        : (tensor<2x128xi32>) -> (tensor<2x128xi32>, tensor<3xi32>)
    %p = bufferization.to_buffer %pt read_only : tensor<2x128xi32> to memref<2x128xi32>
    %counts = bufferization.to_buffer %ct read_only : tensor<3xi32> to memref<3xi32>

    // The reference, with scalar loops: o == x and p == x + 1.
    %bad, %bad_p = scf.for %r = %c0 to %c2 step %c1
        iter_args(%n = %c0, %m = %c0) -> (index, index) {
      %rn, %rm = scf.for %c = %c0 to %c128 step %c1
          iter_args(%n2 = %n, %m2 = %m) -> (index, index) {
        %want = memref.load %x[%r, %c] : memref<2x128xi32>
        %got = memref.load %o[%r, %c] : memref<2x128xi32>
        %ne = arith.cmpi ne, %got, %want : i32
        %inc = arith.select %ne, %c1, %c0 : index
        %n3 = arith.addi %n2, %inc : index
        %want_p = arith.addi %want, %one : i32
        %got_p = memref.load %p[%r, %c] : memref<2x128xi32>
        %ne_p = arith.cmpi ne, %got_p, %want_p : i32
        %inc_p = arith.select %ne_p, %c1, %c0 : index
        %m3 = arith.addi %m2, %inc_p : index
        scf.yield %n3, %m3 : index, index
      }
      scf.yield %rn, %rm : index, index
    }
    // CHECK: mismatches: 0
    // CHECK-NEXT: before the array, mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : index
    vector.print str "before the array, mismatches: "
    vector.print %bad_p : index
    // Nonzero elements each program read: none in the zero-filled blocks,
    // 255 of the array's 256 (x[0][0] is 0).
    // CHECK-NEXT: ( 0, 255, 0 )
    %cv = vector.load %counts[%c0] : memref<3xi32>, vector<3xi32>
    vector.print %cv : vector<3xi32>
    // CHECK-NEXT: 255
    %c127 = arith.constant 127 : index
    %e = memref.load %o[%c1, %c127] : memref<2x128xi32>
    vector.print %e : i32
    memref.dealloc %x : memref<2x128xi32>
    return
  }
}
