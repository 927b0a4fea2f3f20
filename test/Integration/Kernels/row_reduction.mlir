// examples/row_reduction.mlir on the CPU: row sums accumulated in an output
// block revisited across a sequential grid axis.
// RUN: %run_on_backends %s --match-full-lines

#x_block = #mgpu.block_spec<shape = [16, 64], index_map = affine_map<(i, k) -> (i, k)>>
#o_block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>

module {
  func.func @row_reduction(%x: tensor<64x256xf32>, %init: tensor<64xf32>)
      -> tensor<64xf32> {
    %out = mgpu.pallas_call grid [4, 4]
        ins(%x : tensor<64x256xf32>)
        outs(%init : tensor<64xf32>)
        in_specs [#x_block] out_specs [#o_block]
        params #params {
    ^bb0(%xs: memref<16x64xf32, #gpu.address_space<workgroup>>,
         %acc: memref<16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 1
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
    } -> tensor<64xf32>
    return %out : tensor<64xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 64 : index
    %cols = arith.constant 256 : index
    %sixteenth = arith.constant 0.0625 : f32
    // x[r][c] = r + c / 16, so out[r] = 256 * r + (0 + ... + 255) / 16
    //                                 = 256 * r + 2040 (exact in f32).
    %x = memref.alloc() : memref<64x256xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %ri = arith.index_cast %r : index to i32
        %ci = arith.index_cast %c : index to i32
        %rf = arith.sitofp %ri : i32 to f32
        %cf = arith.sitofp %ci : i32 to f32
        %cs = arith.mulf %cf, %sixteenth : f32
        %v = arith.addf %rf, %cs : f32
        memref.store %v, %x[%r, %c] : memref<64x256xf32>
      }
    }
    // The output starts with garbage: the kernel must not depend on it.
    %init = memref.alloc() : memref<64xf32>
    %garbage = arith.constant -12345.0 : f32
    linalg.fill ins(%garbage : f32) outs(%init : memref<64xf32>)
    %xt = bufferization.to_tensor %x restrict : memref<64x256xf32> to tensor<64x256xf32>
    %it = bufferization.to_tensor %init restrict : memref<64xf32> to tensor<64xf32>
    %ot = func.call @row_reduction(%xt, %it)
        : (tensor<64x256xf32>, tensor<64xf32>) -> tensor<64xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<64xf32> to memref<64xf32>

    // The reference, with scalar loops over x.
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %want = scf.for %c = %c0 to %cols step %c1 iter_args(%s = %fzero) -> f32 {
        %v = memref.load %x[%r, %c] : memref<64x256xf32>
        %s2 = arith.addf %s, %v : f32
        scf.yield %s2 : f32
      }
      %got = memref.load %o[%r] : memref<64xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // out[0] = 2040, out[1] = 2296, out[10] = 2560 + 2040,
    // out[63] = 16128 + 2040.
    // CHECK-NEXT: 2040
    // CHECK-NEXT: 2296
    // CHECK-NEXT: 4600
    // CHECK-NEXT: 18168
    %c10 = arith.constant 10 : index
    %c63 = arith.constant 63 : index
    %v0 = memref.load %o[%c0] : memref<64xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c1] : memref<64xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c10] : memref<64xf32>
    vector.print %v2 : f32
    %v3 = memref.load %o[%c63] : memref<64xf32>
    vector.print %v3 : f32
    memref.dealloc %x : memref<64x256xf32>
    memref.dealloc %init : memref<64xf32>
    return
  }
}
