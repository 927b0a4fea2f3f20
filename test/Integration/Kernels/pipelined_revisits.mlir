// Pipelined inputs whose block index does not change at every step: x is
// read twice, once through blocks that each stay for two consecutive steps
// (k floordiv 2: fetched once, kept), once through blocks that come back
// after four steps (k mod 4: fetched again). With max_concurrent_steps
// buffers, the GPU lowering fetches up to max_concurrent_steps - 1 steps
// ahead and must never overwrite a block still to be used.
// out[r] = sum over k of the row sums of both blocks = 4 * (x[r][0] + ...
// + x[r][127]) for a 32x128 array in 16x32 blocks, grid [2, 8].
// RUN: %run_on_backends %s --match-full-lines
// Deeper pipelines: 3 and 4 buffers, fetching 2 and 3 steps ahead.
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 3/' %s > %t.depth3.mlir
// RUN: %run_on_backends %t.depth3.mlir --match-full-lines
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 4/' %s > %t.depth4.mlir
// RUN: %run_on_backends %t.depth4.mlir --match-full-lines

#pairs = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, k) -> (i, k floordiv 2)>>
#cycle = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, k) -> (i, k mod 4)>>
#o_block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>

module {
  func.func @row_sums_twice(%x: tensor<32x128xf32>, %init: tensor<32xf32>)
      -> tensor<32xf32> {
    %out = mgpu.pallas_call grid [2, 8]
        ins(%x, %x : tensor<32x128xf32>, tensor<32x128xf32>)
        outs(%init : tensor<32xf32>)
        in_specs [#pairs, #cycle] out_specs [#o_block]
        params #params {
    ^bb0(%ps: memref<16x32xf32, #gpu.address_space<workgroup>>,
         %cs: memref<16x32xf32, #gpu.address_space<workgroup>>,
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
      %p = vector.transfer_read %ps[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %c = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %both = arith.addf %p, %c : vector<16x32xf32>
      %sum = vector.multi_reduction <add>, %both, %partial [1]
          : vector<16x32xf32> to vector<16xf32>
      vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    } -> tensor<32xf32>
    return %out : tensor<32xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 32 : index
    %cols = arith.constant 128 : index
    %sixteenth = arith.constant 0.0625 : f32
    %four = arith.constant 4.0 : f32
    // x[r][c] = r + c / 16: every partial sum is exact in f32.
    %x = memref.alloc() : memref<32x128xf32>
    scf.for %r = %c0 to %rows step %c1 {
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      scf.for %c = %c0 to %cols step %c1 {
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %cs = arith.mulf %cf, %sixteenth : f32
        %v = arith.addf %rf, %cs : f32
        memref.store %v, %x[%r, %c] : memref<32x128xf32>
      }
    }
    %init = memref.alloc() : memref<32xf32>
    %garbage = arith.constant -12345.0 : f32
    linalg.fill ins(%garbage : f32) outs(%init : memref<32xf32>)
    %xt = bufferization.to_tensor %x restrict : memref<32x128xf32> to tensor<32x128xf32>
    %it = bufferization.to_tensor %init restrict : memref<32xf32> to tensor<32xf32>
    %ot = func.call @row_sums_twice(%xt, %it)
        : (tensor<32x128xf32>, tensor<32xf32>) -> tensor<32xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<32xf32> to memref<32xf32>

    // The reference, with scalar loops over x.
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%s = %fzero) -> f32 {
        %v = memref.load %x[%r, %c] : memref<32x128xf32>
        %s2 = arith.addf %s, %v : f32
        scf.yield %s2 : f32
      }
      %want = arith.mulf %sum, %four : f32
      %got = memref.load %o[%r] : memref<32xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // Row sums are 128 r + 8128 / 16 = 128 r + 508: out[0] = 4 * 508,
    // out[31] = 4 * (3968 + 508).
    // CHECK-NEXT: 2032
    // CHECK-NEXT: 17904
    %c31 = arith.constant 31 : index
    %v0 = memref.load %o[%c0] : memref<32xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c31] : memref<32xf32>
    vector.print %v1 : f32
    memref.dealloc %x : memref<32x128xf32>
    memref.dealloc %init : memref<32xf32>
    return
  }
}
