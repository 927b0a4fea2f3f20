// examples/softmax.mlir on the CPU: row-wise softmax, one block = 8 rows.
// RUN: %run_on_backends %s --match-full-lines

#rows = #mgpu.block_spec<shape = [8, 128], index_map = affine_map<(i) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @softmax(%x: tensor<64x128xf32>, %init: tensor<64x128xf32>)
      -> tensor<64x128xf32> {
    %out = mgpu.pallas_call grid [8]
        ins(%x : tensor<64x128xf32>)
        outs(%init : tensor<64x128xf32>)
        in_specs [#rows] out_specs [#rows]
        params #params {
    ^bb0(%xs: memref<8x128xf32, #gpu.address_space<workgroup>>,
         %os: memref<8x128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %neg_inf = arith.constant dense<0xFF800000> : vector<8xf32>
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<8x128xf32, #gpu.address_space<workgroup>>, vector<8x128xf32>
      // m[r]: the row maxima, broadcast to 8x128.
      %m = vector.multi_reduction <maximumf>, %v, %neg_inf [1]
          : vector<8x128xf32> to vector<8xf32>
      %m_t = vector.broadcast %m : vector<8xf32> to vector<128x8xf32>
      %m_b = vector.transpose %m_t, [1, 0] : vector<128x8xf32> to vector<8x128xf32>
      %shifted = arith.subf %v, %m_b : vector<8x128xf32>
      %e = math.exp %shifted : vector<8x128xf32>
      // The row sums of the exponentials, broadcast the same way.
      %s = vector.multi_reduction <add>, %e, %zero [1]
          : vector<8x128xf32> to vector<8xf32>
      %s_t = vector.broadcast %s : vector<8xf32> to vector<128x8xf32>
      %s_b = vector.transpose %s_t, [1, 0] : vector<128x8xf32> to vector<8x128xf32>
      %r = arith.divf %e, %s_b : vector<8x128xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<8x128xf32>, memref<8x128xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x128xf32>
    return %out : tensor<64x128xf32>
  }

  // x[r][c] = ((7 * r + 3 * c) mod 17) / 4 - 2, in [-2, 2].
  func.func @input(%r: index, %c: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c17 = arith.constant 17 : index
    %quarter = arith.constant 0.25 : f32
    %two = arith.constant 2.0 : f32
    %r7 = arith.muli %r, %c7 : index
    %c3c = arith.muli %c, %c3 : index
    %s = arith.addi %r7, %c3c : index
    %m = arith.remui %s, %c17 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %q = arith.mulf %mf, %quarter : f32
    %v = arith.subf %q, %two : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 64 : index
    %cols = arith.constant 128 : index
    %x = memref.alloc() : memref<64x128xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %v = func.call @input(%r, %c) : (index, index) -> f32
        memref.store %v, %x[%r, %c] : memref<64x128xf32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<64x128xf32> to tensor<64x128xf32>
    %init = tensor.empty() : tensor<64x128xf32>
    %ot = func.call @softmax(%xt, %init)
        : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<64x128xf32> to memref<64x128xf32>

    // The reference, with scalar loops: max, sum of exponentials, quotient;
    // a mismatch is a difference above 1e-6 (the values are at most 0.05).
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %low = arith.constant -1.0e30 : f32
    %tol = arith.constant 1.0e-6 : f32
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %max = scf.for %c = %c0 to %cols step %c1 iter_args(%m = %low) -> f32 {
        %v = memref.load %x[%r, %c] : memref<64x128xf32>
        %gt = arith.cmpf ogt, %v, %m : f32
        %m2 = arith.select %gt, %v, %m : f32
        scf.yield %m2 : f32
      }
      %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%s = %fzero) -> f32 {
        %v = memref.load %x[%r, %c] : memref<64x128xf32>
        %d = arith.subf %v, %max : f32
        %e = math.exp %d : f32
        %s2 = arith.addf %s, %e : f32
        scf.yield %s2 : f32
      }
      %row_bad = scf.for %c = %c0 to %cols step %c1 iter_args(%cnt = %count) -> i32 {
        %v = memref.load %x[%r, %c] : memref<64x128xf32>
        %d = arith.subf %v, %max : f32
        %e = math.exp %d : f32
        %want = arith.divf %e, %sum : f32
        %got = memref.load %o[%r, %c] : memref<64x128xf32>
        %diff = arith.subf %got, %want : f32
        %adiff = math.absf %diff : f32
        // Written so that a NaN counts as a mismatch.
        %ok = arith.cmpf ole, %adiff, %tol : f32
        %true = arith.constant true
        %ne = arith.xori %ok, %true : i1
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %cnt, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row_bad : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // Row 0 holds x = k / 4 - 2 for k = 3c mod 17: over c = 0..127 each k
    // in 0..16 appears 7 times, and k = 0, 3, 6, 9, 12, 15, 1, 4, 7 (c =
    // 119..127) once more. With m = 2 (k = 16) and S = sum_c exp(x - m) =
    // 7 * sum_{k=0..16} exp((k - 16) / 4) + sum over those 9 k of the same
    // = 7 * 4.456326 + 1.638333 = 32.832613, so
    //   out[0][0]  (k = 0)  = exp(-4) / S    = 0.01831564 / S = 0.000557849
    //   out[0][1]  (k = 3)  = exp(-3.25) / S = 0.03877421 / S = 0.00118097
    //   out[0][11] (k = 16) = 1 / S                           = 0.0304575
    // and the row sums (rows 37 and 63) are 1.
    // CHECK-NEXT: 0.00055784{{[0-9]*}}
    // CHECK-NEXT: 0.0011809{{[0-9]*}}
    // CHECK-NEXT: 0.030457{{[0-9]*}}
    // CHECK-NEXT: 1
    // CHECK-NEXT: 1
    %c11 = arith.constant 11 : index
    %v0 = memref.load %o[%c0, %c0] : memref<64x128xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c0, %c1] : memref<64x128xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c0, %c11] : memref<64x128xf32>
    vector.print %v2 : f32
    %c37 = arith.constant 37 : index
    %c63 = arith.constant 63 : index
    scf.for %r = %c37 to %rows step %c1 {
      %is_37 = arith.cmpi eq, %r, %c37 : index
      %is_63 = arith.cmpi eq, %r, %c63 : index
      %print = arith.ori %is_37, %is_63 : i1
      scf.if %print {
        %s = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %fzero) -> f32 {
          %v = memref.load %o[%r, %c] : memref<64x128xf32>
          %a2 = arith.addf %acc, %v : f32
          scf.yield %a2 : f32
        }
        vector.print %s : f32
      }
    }
    memref.dealloc %x : memref<64x128xf32>
    return
  }
}
