// examples/elementwise_2d.mlir on the CPU: out[r][c] = a[r][c] + 2 * bt[c][r]
// with 2-D blocks visited in transposed order (index map (i, j) -> (j, i)).
// RUN: %run_on_backends %s --match-full-lines

#ab = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, j) -> (j, i)>>
#bt = #mgpu.block_spec<shape = [32, 16], index_map = affine_map<(i, j) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel]>

module {
  func.func @elementwise_2d(%a: tensor<64x96xf32>, %b_t: tensor<96x64xf32>,
                            %init: tensor<64x96xf32>) -> tensor<64x96xf32> {
    %out = mgpu.pallas_call grid [3, 4]
        ins(%a, %b_t : tensor<64x96xf32>, tensor<96x64xf32>)
        outs(%init : tensor<64x96xf32>)
        in_specs [#ab, #bt] out_specs [#ab]
        params #params {
    ^bb0(%x: memref<16x32xf32, #gpu.address_space<workgroup>>,
         %y: memref<32x16xf32, #gpu.address_space<workgroup>>,
         %o: memref<16x32xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<16x32xf32>
      %vx = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %vy = vector.transfer_read %y[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<32x16xf32, #gpu.address_space<workgroup>>, vector<32x16xf32>
      %vb = vector.transpose %vy, [1, 0] : vector<32x16xf32> to vector<16x32xf32>
      %twice = arith.mulf %vb, %two : vector<16x32xf32>
      %sum = arith.addf %vx, %twice : vector<16x32xf32>
      vector.transfer_write %sum, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x32xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x96xf32>
    return %out : tensor<64x96xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 64 : index
    %cols = arith.constant 96 : index
    %f100 = arith.constant 100.0 : f32
    %f2 = arith.constant 2.0 : f32
    // a[r][c] = 100 * r + c and bt[c][r] = c - r, so out[r][c] = 98 * r + 3 * c.
    %a = memref.alloc() : memref<64x96xf32>
    %bt = memref.alloc() : memref<96x64xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %ri = arith.index_cast %r : index to i32
        %ci = arith.index_cast %c : index to i32
        %rf = arith.sitofp %ri : i32 to f32
        %cf = arith.sitofp %ci : i32 to f32
        %r100 = arith.mulf %rf, %f100 : f32
        %av = arith.addf %r100, %cf : f32
        memref.store %av, %a[%r, %c] : memref<64x96xf32>
        %bv = arith.subf %cf, %rf : f32
        memref.store %bv, %bt[%c, %r] : memref<96x64xf32>
      }
    }
    %at = bufferization.to_tensor %a restrict : memref<64x96xf32> to tensor<64x96xf32>
    %btt = bufferization.to_tensor %bt restrict : memref<96x64xf32> to tensor<96x64xf32>
    %init = tensor.empty() : tensor<64x96xf32>
    %ot = func.call @elementwise_2d(%at, %btt, %init)
        : (tensor<64x96xf32>, tensor<96x64xf32>, tensor<64x96xf32>) -> tensor<64x96xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<64x96xf32> to memref<64x96xf32>

    // The reference, with scalar loops over the inputs.
    %zero = arith.constant 0 : i32
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %c = %c0 to %cols step %c1 iter_args(%cnt = %count) -> i32 {
        %av = memref.load %a[%r, %c] : memref<64x96xf32>
        %bv = memref.load %bt[%c, %r] : memref<96x64xf32>
        %b2 = arith.mulf %bv, %f2 : f32
        %want = arith.addf %av, %b2 : f32
        %got = memref.load %o[%r, %c] : memref<64x96xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %cnt, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row_bad : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // out[0][0] = 0, out[0][1] = 3, out[1][0] = 98, out[17][40] = 1666 + 120,
    // out[20][70] = 1960 + 210, out[63][95] = 6174 + 285.
    // CHECK-NEXT: 0
    // CHECK-NEXT: 3
    // CHECK-NEXT: 98
    // CHECK-NEXT: 1786
    // CHECK-NEXT: 2170
    // CHECK-NEXT: 6459
    %c17 = arith.constant 17 : index
    %c20 = arith.constant 20 : index
    %c40 = arith.constant 40 : index
    %c63 = arith.constant 63 : index
    %c70 = arith.constant 70 : index
    %c95 = arith.constant 95 : index
    %v0 = memref.load %o[%c0, %c0] : memref<64x96xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c0, %c1] : memref<64x96xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c1, %c0] : memref<64x96xf32>
    vector.print %v2 : f32
    %v3 = memref.load %o[%c17, %c40] : memref<64x96xf32>
    vector.print %v3 : f32
    %v4 = memref.load %o[%c20, %c70] : memref<64x96xf32>
    vector.print %v4 : f32
    %v5 = memref.load %o[%c63, %c95] : memref<64x96xf32>
    vector.print %v5 : f32
    memref.dealloc %a : memref<64x96xf32>
    memref.dealloc %bt : memref<96x64xf32>
    return
  }
}
