// Whole-block vectors of 4x512 (past the size that interpret mode once
// unrolled to scalars): row maxima, a broadcast back along rows, exp, column
// maxima and a broadcast along columns. Interpret mode runs them as loops
// over chunks (--mgpu-vectors-to-loops); every backend gives the same
// numbers.
// RUN: %run_on_backends %s --match-full-lines

#rows = #mgpu.block_spec<shape = [4, 512], index_map = affine_map<(i) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @kernel(%x: tensor<8x512xf32>, %init: tensor<8x512xf32>)
      -> tensor<8x512xf32> {
    %out = mgpu.pallas_call grid [2]
        ins(%x : tensor<8x512xf32>) outs(%init : tensor<8x512xf32>)
        in_specs [#rows] out_specs [#rows] params #params {
    ^bb0(%xs: memref<4x512xf32, #gpu.address_space<workgroup>>,
         %os: memref<4x512xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %ninf4 = arith.constant dense<0xFF800000> : vector<4xf32>
      %ninf512 = arith.constant dense<0xFF800000> : vector<512xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<4x512xf32, #gpu.address_space<workgroup>>, vector<4x512xf32>
      %m = vector.multi_reduction <maximumf>, %v, %ninf4 [1]
          : vector<4x512xf32> to vector<4xf32>
      %m2 = vector.shape_cast %m : vector<4xf32> to vector<4x1xf32>
      %mb = vector.broadcast %m2 : vector<4x1xf32> to vector<4x512xf32>
      %d = arith.subf %v, %mb : vector<4x512xf32>
      %col = vector.multi_reduction <maximumf>, %d, %ninf512 [0]
          : vector<4x512xf32> to vector<512xf32>
      %colb = vector.broadcast %col : vector<512xf32> to vector<4x512xf32>
      %e = math.exp %d : vector<4x512xf32>
      %r = arith.addf %e, %colb : vector<4x512xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<4x512xf32>, memref<4x512xf32, #gpu.address_space<workgroup>>
    } -> tensor<8x512xf32>
    return %out : tensor<8x512xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c511 = arith.constant 511 : index
    %c512 = arith.constant 512 : index
    // x[r][c] = (512 r + c) mod 7
    %x = memref.alloc() : memref<8x512xf32>
    scf.for %r = %c0 to %c8 step %c1 {
      scf.for %c = %c0 to %c512 step %c1 {
        %k = arith.muli %r, %c512 : index
        %l = arith.addi %k, %c : index
        %q = arith.remui %l, %c7 : index
        %qi = arith.index_cast %q : index to i32
        %f = arith.sitofp %qi : i32 to f32
        memref.store %f, %x[%r, %c] : memref<8x512xf32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<8x512xf32> to tensor<8x512xf32>
    %init = tensor.empty() : tensor<8x512xf32>
    %ot = func.call @kernel(%xt, %init)
        : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<8x512xf32> to memref<8x512xf32>
    %zero = arith.constant 0.0 : f64
    %sum = scf.for %r = %c0 to %c8 step %c1 iter_args(%a = %zero) -> f64 {
      %row = scf.for %c = %c0 to %c512 step %c1 iter_args(%b = %a) -> f64 {
        %v = memref.load %o[%r, %c] : memref<8x512xf32>
        %w = arith.extf %v : f32 to f64
        %n = arith.addf %b, %w : f64
        scf.yield %n : f64
      }
      scf.yield %row : f64
    }
    // Expected values computed independently in Python (double precision).
    // CHECK: sum: -2591.39
    vector.print str "sum: "
    vector.print %sum : f64
    // CHECK-NEXT: -2.99752
    %a = memref.load %o[%c0, %c0] : memref<8x512xf32>
    vector.print %a : f32
    // CHECK-NEXT: 0.00247875
    %b = memref.load %o[%c7, %c511] : memref<8x512xf32>
    vector.print %b : f32
    // CHECK-NEXT: -2.99326
    %c = memref.load %o[%c5, %c3] : memref<8x512xf32>
    vector.print %c : f32
    return
  }
}
