// f8E8M0FNU (JAX's float8_e8m0fnu, the MX scale type: a byte of biased
// exponent, 2^(bits - 127), 0xFF is NaN) as a stored element type. Shaped
// after JAX's test_e8m0_reciprocal_ptx: a 64x128 block tiled [8, 128] and
// swizzled 128, o = 1 / x. 1 / 2^(b - 127) = 2^(127 - b), whose bits are
// 254 - b: the kernel computes in f32 (exact on powers of two) and every
// element must have those bits. The reciprocal is that integer
// subtraction, as in JAX (the PTX check below).
// A second kernel converts f32 to e8m0 and back as JAX converts by default
// (cvt.rp.satfinite.ue8m0x2.f32): the magnitude rounded up to a power of
// two, saturated at 2^127; bits 0 is 2^-127.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// RUN: cat %t.0.ptx %t.1.ptx | FileCheck %s --check-prefix=PTX
// PTX-LABEL: .entry reciprocal
// PTX-NOT: {{div|rcp}}.
// PTX: sub.s16
// PTX-NOT: {{div|rcp}}.
// PTX-LABEL: .entry convert

#b = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>,
                      transforms = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]>
#w = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>>

module {
  func.func @reciprocal(%x: memref<64x128xf8E8M0FNU>, %o: memref<64x128xf8E8M0FNU>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x128xf8E8M0FNU>)
        outs(%o : memref<64x128xf8E8M0FNU>) in_specs [#b] out_specs [#b] {
    ^bb0(%xs: memref<64x128xf8E8M0FNU, #gpu.address_space<workgroup>>,
         %os: memref<64x128xf8E8M0FNU, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 1.0 : f8E8M0FNU
      %one = arith.constant dense<1.0> : vector<64x128xf8E8M0FNU>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x128xf8E8M0FNU, #gpu.address_space<workgroup>>, vector<64x128xf8E8M0FNU>
      %r = arith.divf %one, %v : vector<64x128xf8E8M0FNU>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x128xf8E8M0FNU>, memref<64x128xf8E8M0FNU, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @convert(%x: memref<8xf32>, %o: memref<8xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<8xf32>) outs(%o : memref<8xf32>)
        in_specs [#w] out_specs [#w] {
    ^bb0(%xs: memref<8xf32, #gpu.address_space<workgroup>>,
         %os: memref<8xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      %t = arith.truncf %v : vector<8xf32> to vector<8xf8E8M0FNU>
      %e = arith.extf %t : vector<8xf8E8M0FNU> to vector<8xf32>
      vector.transfer_write %e, %os[%c0] {in_bounds = [true]}
          : vector<8xf32>, memref<8xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c253 = arith.constant 253 : index
    %c254 = arith.constant 254 : i8
    %x = memref.alloc() : memref<64x128xf8E8M0FNU>
    %o = memref.alloc() : memref<64x128xf8E8M0FNU>
    // x bits = (flat index % 253) + 1, as JAX's test makes them.
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %flat = affine.apply affine_map<(i, j) -> (i * 128 + j)>(%i, %j)
        %m = arith.remui %flat, %c253 : index
        %b = arith.addi %m, %c1 : index
        %b8 = arith.index_cast %b : index to i8
        %e = arith.bitcast %b8 : i8 to f8E8M0FNU
        memref.store %e, %x[%i, %j] : memref<64x128xf8E8M0FNU>
      }
    }
    func.call @reciprocal(%x, %o) : (memref<64x128xf8E8M0FNU>, memref<64x128xf8E8M0FNU>) -> ()
    %zero = arith.constant 0 : index
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%n = %zero) -> index {
      %row = scf.for %j = %c0 to %c128 step %c1 iter_args(%k = %n) -> index {
        %xe = memref.load %x[%i, %j] : memref<64x128xf8E8M0FNU>
        %oe = memref.load %o[%i, %j] : memref<64x128xf8E8M0FNU>
        %xb = arith.bitcast %xe : f8E8M0FNU to i8
        %ob = arith.bitcast %oe : f8E8M0FNU to i8
        %want = arith.subi %c254, %xb : i8
        %ok = arith.cmpi eq, %ob, %want : i8
        %k1 = arith.addi %k, %c1 : index
        %next = arith.select %ok, %k, %k1 : index
        scf.yield %next : index
      }
      scf.yield %row : index
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : index
    // x[0][0] = 2^-126 -> 2^126, x[0][3] = 2^-123 -> 2^123.
    // CHECK-NEXT: 8.50706e+37
    // CHECK-NEXT: 1.06338e+37
    %o0 = memref.load %o[%c0, %c0] : memref<64x128xf8E8M0FNU>
    %f0 = arith.extf %o0 : f8E8M0FNU to f32
    vector.print %f0 : f32
    %c3 = arith.constant 3 : index
    %o3 = memref.load %o[%c0, %c3] : memref<64x128xf8E8M0FNU>
    %f3 = arith.extf %o3 : f8E8M0FNU to f32
    vector.print %f3 : f32
    // 3.5 -> 4, 0.7 -> 1, 2 -> 2, 0 -> 2^-127, 3e38 -> 2^127 (saturated),
    // -2 -> 2, 1e-39 -> 2^-127, 7e-39 -> 2^-126.
    // CHECK-NEXT: ( 4, 1, 2, 5.87747e-39, 1.70141e+38, 2, 5.87747e-39, 1.17549e-38 )
    %vals = arith.constant dense<[3.5, 0.7, 2.0, 0.0, 3.0e38, -2.0, 1.0e-39,
                                  7.0e-39]> : vector<8xf32>
    %cx = memref.alloc() : memref<8xf32>
    %co = memref.alloc() : memref<8xf32>
    vector.store %vals, %cx[%c0] : memref<8xf32>, vector<8xf32>
    func.call @convert(%cx, %co) : (memref<8xf32>, memref<8xf32>) -> ()
    %conv = vector.load %co[%c0] : memref<8xf32>, vector<8xf32>
    vector.print %conv : vector<8xf32>
    memref.dealloc %cx : memref<8xf32>
    memref.dealloc %co : memref<8xf32>
    memref.dealloc %x : memref<64x128xf8E8M0FNU>
    memref.dealloc %o : memref<64x128xf8E8M0FNU>
    return
  }
}
