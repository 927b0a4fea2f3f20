// Partial blocks at the end of the arrays (memref form): out-of-bounds
// elements of a block read as zero and are never written back. The outputs
// are views into larger buffers whose other elements hold a sentinel that
// must survive.
// RUN: %run_on_backends %s --match-full-lines

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#one = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>>
#tile = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, j) -> (i, j)>>

module {
  // 1-D: 1000 elements in 8 blocks of 128 (the last holds 104):
  // o = x + 1, and sums[b] = the sum of block b as the kernel sees it.
  func.func @partial_1d(%x: memref<1000xf32>, %o: memref<1000xf32, strided<[1]>>,
                        %sums: memref<8xf32>) {
    mgpu.pallas_call grid [8]
        ins(%x : memref<1000xf32>)
        outs(%o, %sums : memref<1000xf32, strided<[1]>>, memref<8xf32>)
        in_specs [#blk] out_specs [#blk, #one] {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>,
         %ss: memref<1xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      %s = vector.reduction <add>, %v : vector<128xf32> into f32
      memref.store %s, %ss[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  // 2-D: a 50x70 array in 16x32 tiles, grid [4, 3]; the last tile row holds
  // 2 rows and the last tile column 6 columns. o = 2 * x.
  func.func @partial_2d(%x: memref<50x70xf32>, %o: memref<50x70xf32, strided<[96, 1]>>) {
    mgpu.pallas_call grid [4, 3]
        ins(%x : memref<50x70xf32>)
        outs(%o : memref<50x70xf32, strided<[96, 1]>>)
        in_specs [#tile] out_specs [#tile] {
    ^bb0(%xs: memref<16x32xf32, #gpu.address_space<workgroup>>,
         %os: memref<16x32xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<16x32xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %r = arith.mulf %v, %two : vector<16x32xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<16x32xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %sentinel = arith.constant 99.0 : f32

    // 1-D: x[i] = i mod 8.
    %n = arith.constant 1000 : index
    %x = memref.alloc() : memref<1000xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c8 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      memref.store %mf, %x[%i] : memref<1000xf32>
    }
    %big = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%sentinel : f32) outs(%big : memref<1024xf32>)
    %o = memref.subview %big[0] [1000] [1] : memref<1024xf32> to memref<1000xf32, strided<[1]>>
    %sums = memref.alloc() : memref<8xf32>
    func.call @partial_1d(%x, %o, %sums)
        : (memref<1000xf32>, memref<1000xf32, strided<[1]>>, memref<8xf32>) -> ()

    // The reference, with scalar loops: o = x + 1 inside, the sentinel
    // outside; sums over the elements that exist.
    %c1024 = arith.constant 1024 : index
    %bad = scf.for %i = %c0 to %c1024 step %c1 iter_args(%count = %zero) -> i32 {
      %inside = arith.cmpi ult, %i, %n : index
      %want = scf.if %inside -> f32 {
        %v = memref.load %x[%i] : memref<1000xf32>
        %w = arith.addf %v, %f1 : f32
        scf.yield %w : f32
      } else {
        scf.yield %sentinel : f32
      }
      %got = memref.load %big[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    %bad_sums = scf.for %b = %c0 to %c8 step %c1 iter_args(%count = %zero) -> i32 {
      %lo = arith.muli %b, %c128 : index
      %end = arith.addi %lo, %c128 : index
      %hi = arith.minui %end, %n : index
      %want = scf.for %i = %lo to %hi step %c1 iter_args(%s = %fzero) -> f32 {
        %v = memref.load %x[%i] : memref<1000xf32>
        %s2 = arith.addf %s, %v : f32
        scf.yield %s2 : f32
      }
      %got = memref.load %sums[%b] : memref<8xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: 1-D mismatches: 0
    // CHECK-NEXT: 1-D sum mismatches: 0
    vector.print str "1-D mismatches: "
    vector.print %bad : i32
    vector.print str "1-D sum mismatches: "
    vector.print %bad_sums : i32
    // A full block sums 16 * (0 + ... + 7) = 448; the last block, elements
    // 896..999, is 13 rounds of 0..7 then 24 zeros: 13 * 28 = 364.
    // o[999] = 999 mod 8 + 1 = 8; big[1000] keeps the sentinel.
    // CHECK-NEXT: ( 448, 448, 448, 448, 448, 448, 448, 364 )
    // CHECK-NEXT: 8
    // CHECK-NEXT: 99
    %sv = vector.load %sums[%c0] : memref<8xf32>, vector<8xf32>
    vector.print %sv : vector<8xf32>
    %c999 = arith.constant 999 : index
    %o999 = memref.load %big[%c999] : memref<1024xf32>
    vector.print %o999 : f32
    %o1000 = memref.load %big[%n] : memref<1024xf32>
    vector.print %o1000 : f32

    // 2-D: x[r][c] = 100 * r + c, in a 64x96 buffer of sentinels.
    %rows = arith.constant 50 : index
    %cols = arith.constant 70 : index
    %brows = arith.constant 64 : index
    %bcols = arith.constant 96 : index
    %f100 = arith.constant 100.0 : f32
    %x2 = memref.alloc() : memref<50x70xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %ri = arith.index_cast %r : index to i32
        %ci = arith.index_cast %c : index to i32
        %rf = arith.sitofp %ri : i32 to f32
        %cf = arith.sitofp %ci : i32 to f32
        %r100 = arith.mulf %rf, %f100 : f32
        %v = arith.addf %r100, %cf : f32
        memref.store %v, %x2[%r, %c] : memref<50x70xf32>
      }
    }
    %big2 = memref.alloc() : memref<64x96xf32>
    linalg.fill ins(%sentinel : f32) outs(%big2 : memref<64x96xf32>)
    %o2 = memref.subview %big2[0, 0] [50, 70] [1, 1]
        : memref<64x96xf32> to memref<50x70xf32, strided<[96, 1]>>
    func.call @partial_2d(%x2, %o2)
        : (memref<50x70xf32>, memref<50x70xf32, strided<[96, 1]>>) -> ()
    %bad2 = scf.for %r = %c0 to %brows step %c1 iter_args(%count = %zero) -> i32 {
      %row_bad = scf.for %c = %c0 to %bcols step %c1 iter_args(%cnt = %count) -> i32 {
        %in_r = arith.cmpi ult, %r, %rows : index
        %in_c = arith.cmpi ult, %c, %cols : index
        %inside = arith.andi %in_r, %in_c : i1
        %want = scf.if %inside -> f32 {
          %v = memref.load %x2[%r, %c] : memref<50x70xf32>
          %w = arith.mulf %v, %f2 : f32
          scf.yield %w : f32
        } else {
          scf.yield %sentinel : f32
        }
        %got = memref.load %big2[%r, %c] : memref<64x96xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %cnt, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %row_bad : i32
    }
    // CHECK-NEXT: 2-D mismatches: 0
    vector.print str "2-D mismatches: "
    vector.print %bad2 : i32
    // big2[49][69] = 2 * 4969; big2[49][70] and big2[50][0] keep the sentinel.
    // CHECK-NEXT: 9938
    // CHECK-NEXT: 99
    // CHECK-NEXT: 99
    %c49 = arith.constant 49 : index
    %c69 = arith.constant 69 : index
    %e0 = memref.load %big2[%c49, %c69] : memref<64x96xf32>
    vector.print %e0 : f32
    %e1 = memref.load %big2[%c49, %cols] : memref<64x96xf32>
    vector.print %e1 : f32
    %e2 = memref.load %big2[%rows, %c0] : memref<64x96xf32>
    vector.print %e2 : f32

    memref.dealloc %x : memref<1000xf32>
    memref.dealloc %big : memref<1024xf32>
    memref.dealloc %sums : memref<8xf32>
    memref.dealloc %x2 : memref<50x70xf32>
    memref.dealloc %big2 : memref<64x96xf32>
    return
  }
}
