// JAX's test_input_output_aliases (tests/pallas/mosaic_gpu_test.py): GMEM
// block specs (the whole array), input 0 aliased to output 0 (the input
// passed again as the output init), and a kernel that writes ones through
// the *input's* ref. The two refs are one array, so b == ones on every
// backend. An undonated input keeps its zeros; a donated one (writable) is
// updated in place. @kernel_kept returns its input too, so the output must
// be a copy inside the kernel's function, and both refs must name that copy
// (the write through the input's ref lands in the output, not the input).
// RUN: %run_on_backends %s --match-full-lines

#gmem = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<() -> (0, 0)>,
                         memory_space = gmem>

module {
  // def kernel(a_ref, b_ref):
  //   del b_ref
  //   a_ref[...] = jnp.ones_like(a_ref)
  func.func @kernel(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %b = mgpu.pallas_call grid []
        ins(%a : tensor<64x64xf32>) outs(%a : tensor<64x64xf32>)
        in_specs [#gmem] out_specs [#gmem] {
    ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
      %c0 = arith.constant 0 : index
      %ones = arith.constant dense<1.0> : vector<64x64xf32>
      vector.transfer_write %ones, %a_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32>
    } -> tensor<64x64xf32>
    return %b : tensor<64x64xf32>
  }

  // The same kernel, its input also returned: the input must keep its
  // zeros, so the output is a copy, and the body's write through the
  // input's ref must land in that copy, not in the input.
  func.func @kernel_kept(%a: tensor<64x64xf32>)
      -> (tensor<64x64xf32>, tensor<64x64xf32>) {
    %b = mgpu.pallas_call grid []
        ins(%a : tensor<64x64xf32>) outs(%a : tensor<64x64xf32>)
        in_specs [#gmem] out_specs [#gmem] {
    ^bb0(%a_ref: memref<64x64xf32>, %b_ref: memref<64x64xf32>):
      %c0 = arith.constant 0 : index
      %ones = arith.constant dense<1.0> : vector<64x64xf32>
      vector.transfer_write %ones, %a_ref[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32>
    } -> tensor<64x64xf32>
    return %b, %a : tensor<64x64xf32>, tensor<64x64xf32>
  }

  // The number of elements of `m` that are not `want`.
  func.func @count_not(%m: memref<64x64xf32>, %want: f32) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %c = %c0 to %c64 step %c1 iter_args(%k = %n) -> index {
        %got = memref.load %m[%r, %c] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %next = arith.addi %k, %inc : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }

  func.func @main() {
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    // a = np.zeros((64, 64), dtype=jnp.float32); b = kernel(a)
    %a = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%zero : f32) outs(%a : memref<64x64xf32>)
    %at = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
    %bt = func.call @kernel(%at) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %b = bufferization.to_buffer %bt read_only : tensor<64x64xf32> to memref<64x64xf32>
    // np.testing.assert_array_equal(b, np.ones_like(a))
    // CHECK: mismatches: 0
    // CHECK-NEXT: input kept, mismatches: 0
    %bad = func.call @count_not(%b, %one) : (memref<64x64xf32>, f32) -> index
    vector.print str "mismatches: "
    vector.print %bad : index
    %kept = func.call @count_not(%a, %zero) : (memref<64x64xf32>, f32) -> index
    vector.print str "input kept, mismatches: "
    vector.print %kept : index

    // Donated: the kernel writes the caller's buffer itself.
    // CHECK-NEXT: donated, mismatches: 0
    %d = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%zero : f32) outs(%d : memref<64x64xf32>)
    %dt = bufferization.to_tensor %d restrict writable : memref<64x64xf32> to tensor<64x64xf32>
    %et = func.call @kernel(%dt) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %e = bufferization.to_buffer %et read_only : tensor<64x64xf32> to memref<64x64xf32>
    %bad_e = func.call @count_not(%e, %one) : (memref<64x64xf32>, f32) -> index
    %bad_d = func.call @count_not(%d, %one) : (memref<64x64xf32>, f32) -> index
    %both = arith.addi %bad_e, %bad_d : index
    vector.print str "donated, mismatches: "
    vector.print %both : index

    // The input read again after the kernel, in the kernel's own function.
    // CHECK-NEXT: kept in the function, mismatches: 0
    %k = memref.alloc() : memref<64x64xf32>
    linalg.fill ins(%zero : f32) outs(%k : memref<64x64xf32>)
    %kt = bufferization.to_tensor %k restrict writable : memref<64x64xf32> to tensor<64x64xf32>
    %ft, %gt = func.call @kernel_kept(%kt)
        : (tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>)
    %f = bufferization.to_buffer %ft read_only : tensor<64x64xf32> to memref<64x64xf32>
    %g = bufferization.to_buffer %gt read_only : tensor<64x64xf32> to memref<64x64xf32>
    %bad_f = func.call @count_not(%f, %one) : (memref<64x64xf32>, f32) -> index
    %bad_g = func.call @count_not(%g, %zero) : (memref<64x64xf32>, f32) -> index
    %both_k = arith.addi %bad_f, %bad_g : index
    vector.print str "kept in the function, mismatches: "
    vector.print %both_k : index
    memref.dealloc %a : memref<64x64xf32>
    memref.dealloc %k : memref<64x64xf32>
    memref.dealloc %d : memref<64x64xf32>
    return
  }
}
