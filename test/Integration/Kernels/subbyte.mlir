// 4-bit elements stored two to a byte, as JAX stores int4, uint4 and
// float4_e2m1fn (element 2k in the low nibble of byte k). Shaped after
// JAX's test_subbyte_upcast: a 64x256 block of 4-bit elements read into
// registers and widened (signed int4 to f32, unsigned to i32, e2m1 to
// f32), plus the other way: i32 narrowed to int4 and written packed. The
// host fills and checks the arrays with scalar loads and stores of 4-bit
// elements, which --mgpu-pack-sub-byte writes as byte operations.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 2 %t.mlir -o %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The packed block moves by TMA (64 x 128 bytes, tiled [8, 128 bytes] and
// swizzled 128) and each lane reads whole bytes, two at a time (its chunk
// of 4 nibbles; not yet 16-byte loads).
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-COUNT-32: ld.shared.v2.b8

#tiled = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>,
                          transforms = [#mgpu.tile<[8, 256]>, #mgpu.swizzle<128>]>
#block = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>>
#gmem = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>

module {
  // int4 -> f32, the block staged tiled and swizzled.
  func.func @int4_to_f32(%x: memref<64x256xi4>, %o: memref<64x256xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x256xi4>) outs(%o : memref<64x256xf32>)
        in_specs [#tiled] out_specs [#block] {
    ^bb0(%xs: memref<64x256xi4, #gpu.address_space<workgroup>>,
         %os: memref<64x256xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i4
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x256xi4, #gpu.address_space<workgroup>>, vector<64x256xi4>
      %f = arith.sitofp %v : vector<64x256xi4> to vector<64x256xf32>
      vector.transfer_write %f, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x256xf32>, memref<64x256xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  // uint4 -> i32, read straight from global memory.
  func.func @uint4_to_i32(%x: memref<64x256xi4>, %o: memref<64x256xi32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x256xi4>) outs(%o : memref<64x256xi32>)
        in_specs [#gmem] out_specs [#gmem] {
    ^bb0(%xg: memref<64x256xi4>, %og: memref<64x256xi32>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i4
      %v = vector.transfer_read %xg[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x256xi4>, vector<64x256xi4>
      %w = arith.extui %v : vector<64x256xi4> to vector<64x256xi32>
      vector.transfer_write %w, %og[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x256xi32>, memref<64x256xi32>
    }
    return
  }

  // i32 -> int4, written packed.
  func.func @i32_to_int4(%x: memref<64x256xi32>, %o: memref<64x256xi4>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x256xi32>) outs(%o : memref<64x256xi4>)
        in_specs [#block] out_specs [#block] {
    ^bb0(%xs: memref<64x256xi32, #gpu.address_space<workgroup>>,
         %os: memref<64x256xi4, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0 : i32
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x256xi32, #gpu.address_space<workgroup>>, vector<64x256xi32>
      %n = arith.trunci %v : vector<64x256xi32> to vector<64x256xi4>
      vector.transfer_write %n, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x256xi4>, memref<64x256xi4, #gpu.address_space<workgroup>>
    }
    return
  }

  // float4_e2m1fn -> f32.
  func.func @e2m1_to_f32(%x: memref<64x256xf4E2M1FN>, %o: memref<64x256xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x256xf4E2M1FN>) outs(%o : memref<64x256xf32>)
        in_specs [#block] out_specs [#block] {
    ^bb0(%xs: memref<64x256xf4E2M1FN, #gpu.address_space<workgroup>>,
         %os: memref<64x256xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f4E2M1FN
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x256xf4E2M1FN, #gpu.address_space<workgroup>>, vector<64x256xf4E2M1FN>
      %f = arith.extf %v : vector<64x256xf4E2M1FN> to vector<64x256xf32>
      vector.transfer_write %f, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x256xf32>, memref<64x256xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c16 = arith.constant 16 : index
    %x = memref.alloc() : memref<64x256xi4>
    %e = memref.alloc() : memref<64x256xf4E2M1FN>
    %x32 = memref.alloc() : memref<64x256xi32>
    // Nibble (i * 256 + j) * 7 + 3 mod 16: every value, both halves of
    // every byte.
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c256 step %c1 {
        %flat = affine.apply affine_map<(i, j) -> ((i * 256 + j) * 7 + 3)>(%i, %j)
        %m = arith.remui %flat, %c16 : index
        %m32 = arith.index_cast %m : index to i32
        %n = arith.trunci %m32 : i32 to i4
        memref.store %n, %x[%i, %j] : memref<64x256xi4>
        %nf = arith.bitcast %n : i4 to f4E2M1FN
        memref.store %nf, %e[%i, %j] : memref<64x256xf4E2M1FN>
        // -8 .. 7 for the narrowing kernel: the same nibble, signed.
        %s = arith.extsi %n : i4 to i32
        memref.store %s, %x32[%i, %j] : memref<64x256xi32>
      }
    }
    %of = memref.alloc() : memref<64x256xf32>
    %oi = memref.alloc() : memref<64x256xi32>
    %o4 = memref.alloc() : memref<64x256xi4>
    %oe = memref.alloc() : memref<64x256xf32>
    func.call @int4_to_f32(%x, %of) : (memref<64x256xi4>, memref<64x256xf32>) -> ()
    func.call @uint4_to_i32(%x, %oi) : (memref<64x256xi4>, memref<64x256xi32>) -> ()
    func.call @i32_to_int4(%x32, %o4) : (memref<64x256xi32>, memref<64x256xi4>) -> ()
    func.call @e2m1_to_f32(%e, %oe) : (memref<64x256xf4E2M1FN>, memref<64x256xf32>) -> ()
    // Mismatches against the host's own widening of each element.
    %zero = arith.constant 0 : index
    %bad:4 = scf.for %i = %c0 to %c64 step %c1
        iter_args(%b0 = %zero, %b1 = %zero, %b2 = %zero, %b3 = %zero)
        -> (index, index, index, index) {
      %row:4 = scf.for %j = %c0 to %c256 step %c1
          iter_args(%k0 = %b0, %k1 = %b1, %k2 = %b2, %k3 = %b3)
          -> (index, index, index, index) {
        %n = memref.load %x[%i, %j] : memref<64x256xi4>
        %wf = arith.sitofp %n : i4 to f32
        %gf = memref.load %of[%i, %j] : memref<64x256xf32>
        %okf = arith.cmpf oeq, %wf, %gf : f32
        %wi = arith.extui %n : i4 to i32
        %gi = memref.load %oi[%i, %j] : memref<64x256xi32>
        %oki = arith.cmpi eq, %wi, %gi : i32
        %g4 = memref.load %o4[%i, %j] : memref<64x256xi4>
        %ok4 = arith.cmpi eq, %n, %g4 : i4
        %nf = memref.load %e[%i, %j] : memref<64x256xf4E2M1FN>
        %we = arith.extf %nf : f4E2M1FN to f32
        %ge = memref.load %oe[%i, %j] : memref<64x256xf32>
        %oke = arith.cmpf oeq, %we, %ge : f32
        %n0 = arith.addi %k0, %c1 : index
        %r0 = arith.select %okf, %k0, %n0 : index
        %n1 = arith.addi %k1, %c1 : index
        %r1 = arith.select %oki, %k1, %n1 : index
        %n2 = arith.addi %k2, %c1 : index
        %r2 = arith.select %ok4, %k2, %n2 : index
        %n3 = arith.addi %k3, %c1 : index
        %r3 = arith.select %oke, %k3, %n3 : index
        scf.yield %r0, %r1, %r2, %r3 : index, index, index, index
      }
      scf.yield %row#0, %row#1, %row#2, %row#3 : index, index, index, index
    }
    // CHECK: mismatches: 0 0 0 0
    vector.print str "mismatches: "
    vector.print %bad#0 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#1 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#2 : index punctuation <no_punctuation>
    vector.print str " "
    vector.print %bad#3 : index
    // Row 0 starts with nibbles 3, 10, 1, 8: 3, -6, 1, -8 signed; the e2m1
    // values of 3, 10, 1, 8 are 1.5, -1, 0.5, -0.
    // CHECK-NEXT: ( 3, -6, 1, -8 )
    // CHECK-NEXT: ( 3, 10, 1, 8 )
    // CHECK-NEXT: ( 1.5, -1, 0.5, -0 )
    %zf = arith.constant 0.0 : f32
    %zi = arith.constant 0 : i32
    %f4 = vector.transfer_read %of[%c0, %c0], %zf {in_bounds = [true]} : memref<64x256xf32>, vector<4xf32>
    vector.print %f4 : vector<4xf32>
    %i4v = vector.transfer_read %oi[%c0, %c0], %zi {in_bounds = [true]} : memref<64x256xi32>, vector<4xi32>
    vector.print %i4v : vector<4xi32>
    %e4 = vector.transfer_read %oe[%c0, %c0], %zf {in_bounds = [true]} : memref<64x256xf32>, vector<4xf32>
    vector.print %e4 : vector<4xf32>
    memref.dealloc %x : memref<64x256xi4>
    memref.dealloc %e : memref<64x256xf4E2M1FN>
    memref.dealloc %x32 : memref<64x256xi32>
    memref.dealloc %of : memref<64x256xf32>
    memref.dealloc %oi : memref<64x256xi32>
    memref.dealloc %o4 : memref<64x256xi4>
    memref.dealloc %oe : memref<64x256xf32>
    return
  }
}
