// A blocked matmul in memref form whose body uses linalg on the block refs
// (linalg.fill at k == 0, then linalg.matmul accumulating into the output
// block, which stays resident across the sequential K axis).
// c = a * b with a: 32x16, b: 16x24, blocks bm = bn = 8, bk = 4: grid [4, 3, 4].
// RUN: %run_on_backends %s --match-full-lines

#a_block = #mgpu.block_spec<shape = [8, 4], index_map = affine_map<(i, j, k) -> (i, k)>>
#b_block = #mgpu.block_spec<shape = [4, 8], index_map = affine_map<(i, j, k) -> (k, j)>>
#c_block = #mgpu.block_spec<shape = [8, 8], index_map = affine_map<(i, j, k) -> (i, j)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, parallel, sequential]>

module {
  func.func @matmul(%a: memref<32x16xf32>, %b: memref<16x24xf32>, %c: memref<32x24xf32>) {
    mgpu.pallas_call grid [4, 3, 4]
        ins(%a, %b : memref<32x16xf32>, memref<16x24xf32>)
        outs(%c : memref<32x24xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block]
        params #params {
    ^bb0(%as: memref<8x4xf32, #gpu.address_space<workgroup>>,
         %bs: memref<4x8xf32, #gpu.address_space<workgroup>>,
         %cs: memref<8x8xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %k = mgpu.program_id 2
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant 0.0 : f32
        linalg.fill ins(%zero : f32) outs(%cs : memref<8x8xf32, #gpu.address_space<workgroup>>)
      }
      linalg.matmul ins(%as, %bs : memref<8x4xf32, #gpu.address_space<workgroup>>,
                                   memref<4x8xf32, #gpu.address_space<workgroup>>)
                    outs(%cs : memref<8x8xf32, #gpu.address_space<workgroup>>)
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %M = arith.constant 32 : index
    %N = arith.constant 24 : index
    %K = arith.constant 16 : index
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    // a[m][k] = (m + k) mod 3 - 1, b[k][n] = (k * n) mod 5 - 2.
    %a = memref.alloc() : memref<32x16xf32>
    %b = memref.alloc() : memref<16x24xf32>
    scf.for %m = %c0 to %M step %c1 {
      scf.for %k = %c0 to %K step %c1 {
        %s = arith.addi %m, %k : index
        %r = arith.remui %s, %c3 : index
        %d = arith.subi %r, %c1 : index
        %i = arith.index_cast %d : index to i32
        %f = arith.sitofp %i : i32 to f32
        memref.store %f, %a[%m, %k] : memref<32x16xf32>
      }
    }
    scf.for %k = %c0 to %K step %c1 {
      scf.for %n = %c0 to %N step %c1 {
        %p = arith.muli %k, %n : index
        %r = arith.remui %p, %c5 : index
        %i = arith.index_cast %r : index to i32
        %f = arith.sitofp %i : i32 to f32
        %two = arith.constant 2.0 : f32
        %v = arith.subf %f, %two : f32
        memref.store %v, %b[%k, %n] : memref<16x24xf32>
      }
    }
    %c = memref.alloc() : memref<32x24xf32>
    %garbage = arith.constant 123.0 : f32
    linalg.fill ins(%garbage : f32) outs(%c : memref<32x24xf32>)
    func.call @matmul(%a, %b, %c) : (memref<32x16xf32>, memref<16x24xf32>, memref<32x24xf32>) -> ()

    // The reference, with scalar loops.
    %bad = scf.for %m = %c0 to %M step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %n = %c0 to %N step %c1 iter_args(%cnt = %count) -> i32 {
        %want = scf.for %k = %c0 to %K step %c1 iter_args(%s = %fzero) -> f32 {
          %av = memref.load %a[%m, %k] : memref<32x16xf32>
          %bv = memref.load %b[%k, %n] : memref<16x24xf32>
          %p = arith.mulf %av, %bv : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        %got = memref.load %c[%m, %n] : memref<32x24xf32>
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

    // Column 0 of b is all -2 (k * 0 mod 5 = 0), so c[m][0] = -2 * sum_k
    // a[m][k]. Row 0 of a over k = 0..15 is -1, 0, 1 repeated, plus -1 for
    // k = 15: sum -1, so c[0][0] = 2. Row 1 is 0, 1, -1, ... plus 0: sum 0,
    // so c[1][0] = 0. Row 2 is 1, -1, 0, ... plus 1: c[2][0] = -2.
    // Column 1 of b is k mod 5 - 2: -2 -1 0 1 2 -2 -1 0 1 2 -2 -1 0 1 2 -2;
    // with row 0 of a, -1 0 1 -1 0 1 -1 0 1 -1 0 1 -1 0 1 -1, the products
    // are 2 0 0 -1 0 -2 1 0 1 -2 0 -1 0 0 2 2: c[0][1] = 2.
    // CHECK-NEXT: ( 2, 0, -2 )
    // CHECK-NEXT: 2
    %c2 = arith.constant 2 : index
    %v0 = memref.load %c[%c0, %c0] : memref<32x24xf32>
    %v1 = memref.load %c[%c1, %c0] : memref<32x24xf32>
    %v2 = memref.load %c[%c2, %c0] : memref<32x24xf32>
    %col = vector.from_elements %v0, %v1, %v2 : vector<3xf32>
    vector.print %col : vector<3xf32>
    %v3 = memref.load %c[%c0, %c1] : memref<32x24xf32>
    vector.print %v3 : f32
    memref.dealloc %a : memref<32x16xf32>
    memref.dealloc %b : memref<16x24xf32>
    memref.dealloc %c : memref<32x24xf32>
    return
  }
}
