// examples/matmul.mlir on the CPU: a blocked matmul whose output block is
// revisited across the sequential K axis (vector.contract per block).
// RUN: %run_on_backends %s --match-full-lines

#a_block = #mgpu.block_spec<shape = [16, 8], index_map = affine_map<(i, j, k) -> (i, k)>>
#b_block = #mgpu.block_spec<shape = [8, 16], index_map = affine_map<(i, j, k) -> (k, j)>>
#c_block = #mgpu.block_spec<shape = [16, 16], index_map = affine_map<(i, j, k) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential],
                                max_concurrent_steps = 2>

module {
  func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>,
                    %init: tensor<64x48xf32>) -> tensor<64x48xf32> {
    %c = mgpu.pallas_call grid [4, 3, 4]
        ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
        outs(%init : tensor<64x48xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block]
        params #params {
    ^bb0(%as: memref<16x8xf32, #gpu.address_space<workgroup>>,
         %bs: memref<8x16xf32, #gpu.address_space<workgroup>>,
         %cs: memref<16x16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 2
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<16x16xf32>
        vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]}
            : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
      }
      %va = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x8xf32, #gpu.address_space<workgroup>>, vector<16x8xf32>
      %vb = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<8x16xf32, #gpu.address_space<workgroup>>, vector<8x16xf32>
      %acc = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<16x16xf32>
      %r = vector.contract {
          indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                           affine_map<(m, n, k) -> (k, n)>,
                           affine_map<(m, n, k) -> (m, n)>],
          iterator_types = ["parallel", "parallel", "reduction"],
          kind = #vector.kind<add>} %va, %vb, %acc
          : vector<16x8xf32>, vector<8x16xf32> into vector<16x16xf32>
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>
    } -> tensor<64x48xf32>
    return %c : tensor<64x48xf32>
  }

  // a[m][k] = (m + 2k) mod 5 - 2 and b[k][n] = (3k + n) mod 7 - 3: small
  // integers, so every sum is exact in f32 whatever the order.
  func.func @small_int(%x: index, %y: index, %mul: index, %mod: index,
                       %shift: index) -> f32 {
    %t = arith.muli %y, %mul : index
    %s = arith.addi %x, %t : index
    %m = arith.remui %s, %mod : index
    %d = arith.subi %m, %shift : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    return %f : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %M = arith.constant 64 : index
    %N = arith.constant 48 : index
    %K = arith.constant 32 : index
    %a = memref.alloc() : memref<64x32xf32>
    %b = memref.alloc() : memref<32x48xf32>
    scf.for %m = %c0 to %M step %c1 {
      scf.for %k = %c0 to %K step %c1 {
        %v = func.call @small_int(%m, %k, %c2, %c5, %c2)
            : (index, index, index, index, index) -> f32
        memref.store %v, %a[%m, %k] : memref<64x32xf32>
      }
    }
    scf.for %k = %c0 to %K step %c1 {
      scf.for %n = %c0 to %N step %c1 {
        %v = func.call @small_int(%n, %k, %c3, %c7, %c3)
            : (index, index, index, index, index) -> f32
        memref.store %v, %b[%k, %n] : memref<32x48xf32>
      }
    }
    // The output starts with garbage: the kernel zeroes it at k == 0.
    %init = memref.alloc() : memref<64x48xf32>
    %garbage = arith.constant 777.0 : f32
    linalg.fill ins(%garbage : f32) outs(%init : memref<64x48xf32>)
    %at = bufferization.to_tensor %a restrict : memref<64x32xf32> to tensor<64x32xf32>
    %bt = bufferization.to_tensor %b restrict : memref<32x48xf32> to tensor<32x48xf32>
    %it = bufferization.to_tensor %init restrict : memref<64x48xf32> to tensor<64x48xf32>
    %ct = func.call @matmul(%at, %bt, %it)
        : (tensor<64x32xf32>, tensor<32x48xf32>, tensor<64x48xf32>) -> tensor<64x48xf32>
    %c = bufferization.to_buffer %ct read_only : tensor<64x48xf32> to memref<64x48xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %m = %c0 to %M step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %n = %c0 to %N step %c1 iter_args(%cnt = %count) -> i32 {
        %want = scf.for %k = %c0 to %K step %c1 iter_args(%s = %fzero) -> f32 {
          %av = memref.load %a[%m, %k] : memref<64x32xf32>
          %bv = memref.load %b[%k, %n] : memref<32x48xf32>
          %p = arith.mulf %av, %bv : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%m, %n] : memref<64x48xf32>
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

    // c[0][0] = sum_k (2k mod 5 - 2) * (3k mod 7 - 3). Over k = 0..31 the
    // pair (2k mod 5, 3k mod 7) has period 35; the products for k = 0..31 are
    //   k:  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
    //   a: -2  0  2 -1  1 -2  0  2 -1  1 -2  0  2 -1  1 -2
    //   b: -3  0  3 -1  2 -2  1 -3  0  3 -1  2 -2  1 -3  0
    //   p:  6  0  6  1  2  4  0 -6  0  3  2  0 -4 -1 -3  0      (sum 10)
    //   k: 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    //   a:  0  2 -1  1 -2  0  2 -1  1 -2  0  2 -1  1 -2  0
    //   b:  3 -1  2 -2  1 -3  0  3 -1  2 -2  1 -3  0  3 -1
    //   p:  0 -2 -2 -2 -2  0  0 -3 -1 -4  0  2  3  0 -6  0      (sum -17)
    // so c[0][0] = -7. Row 1 of a is (1 + 2k) mod 5 - 2, against the same b:
    //   a: -1  1 -2  0  2 -1  1 -2  0  2 -1  1 -2  0  2 -1   (k = 0..15)
    //   p:  3  0 -6  0  4  2  1  6  0  6  1  2  4  0 -6  0      (sum 17)
    //   a:  1 -2  0  2 -1  1 -2  0  2 -1  1 -2  0  2 -1  1   (k = 16..31)
    //   p:  3  2  0 -4 -1 -3  0  0 -2 -2 -2 -2  0  0 -3 -1      (sum -15)
    // so c[1][0] = 2.
    // CHECK-NEXT: -7
    // CHECK-NEXT: 2
    %v0 = memref.load %c[%c0, %c0] : memref<64x48xf32>
    vector.print %v0 : f32
    %v1 = memref.load %c[%c1, %c0] : memref<64x48xf32>
    vector.print %v1 : f32
    memref.dealloc %a : memref<64x32xf32>
    memref.dealloc %b : memref<32x48xf32>
    memref.dealloc %init : memref<64x48xf32>
    return
  }
}
