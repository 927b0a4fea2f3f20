// f32 narrowed to float4_e2m1fn as JAX narrows it (ml_dtypes, PTX's
// cvt.rn.satfinite.e2m1x2.f32): to nearest, ties to even, saturated to 6
// (the format has no infinity or NaN). The eight magnitudes are 0, 0.5, 1,
// 1.5, 2, 3, 4, 6; the input holds every midpoint between two of them (a
// tie), values just around one, the largest and past it, each with both
// signs where it matters. Upstream's integer code rounded ties away from
// zero (2.5 became 3, 0.25 became 0.5) on every backend. A kernel narrows
// and widens back; the host compares with the written-out table.
// RUN: %run_on_backends %s --match-full-lines

// CHECK: mismatches: 0
// CHECK-NEXT: ( 0, 1, 1, 2, 2, 4, 4, 6, 6, 6, 2, 3, -2, -0, 0.5, -1 )

#b = #mgpu.block_spec<shape = [32], index_map = affine_map<(i) -> (0)>>
module {
  func.func @round_trip(%x: memref<32xf32>, %o: memref<32xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<32xf32>) outs(%o : memref<32xf32>)
        in_specs [#b] out_specs [#b] {
    ^bb0(%xs: memref<32xf32, #gpu.address_space<workgroup>>,
         %os: memref<32xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %v = vector.load %xs[%c0] : memref<32xf32, #gpu.address_space<workgroup>>, vector<32xf32>
      %n = arith.truncf %v : vector<32xf32> to vector<32xf4E2M1FN>
      %w = arith.extf %n : vector<32xf4E2M1FN> to vector<32xf32>
      vector.store %w, %os[%c0] : memref<32xf32, #gpu.address_space<workgroup>>, vector<32xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %x = memref.alloc() : memref<32xf32>
    %o = memref.alloc() : memref<32xf32>
    %want = memref.alloc() : memref<32xf32>
    // The ties, then 5 (between 4 and 6), 7 and 100 (past 6), +inf,
    // 2.4999 and 2.5001, -2.5, -0.25, 0.5000001, -0.75; then the same
    // sixteen negated (the table is odd).
    %in = arith.constant dense<[0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0,
                                100.0, 0x7F800000, 2.4999, 2.5001, -2.5, -0.25,
                                0.5000001, -0.75]> : vector<16xf32>
    %out = arith.constant dense<[0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0,
                                 6.0, 6.0, 2.0, 3.0, -2.0, -0.0,
                                 0.5, -1.0]> : vector<16xf32>
    %nin = arith.negf %in : vector<16xf32>
    %nout = arith.negf %out : vector<16xf32>
    vector.store %in, %x[%c0] : memref<32xf32>, vector<16xf32>
    vector.store %nin, %x[%c16] : memref<32xf32>, vector<16xf32>
    vector.store %out, %want[%c0] : memref<32xf32>, vector<16xf32>
    vector.store %nout, %want[%c16] : memref<32xf32>, vector<16xf32>
    func.call @round_trip(%x, %o) : (memref<32xf32>, memref<32xf32>) -> ()
    %n = scf.for %i = %c0 to %c32 step %c1 iter_args(%a = %c0) -> index {
      %g = memref.load %o[%i] : memref<32xf32>
      %e = memref.load %want[%i] : memref<32xf32>
      // Bit for bit (the sign of zero too).
      %gi = arith.bitcast %g : f32 to i32
      %ei = arith.bitcast %e : f32 to i32
      %ne = arith.cmpi ne, %gi, %ei : i32
      %one = arith.select %ne, %c1, %c0 : index
      %b = arith.addi %a, %one : index
      scf.yield %b : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    %first = vector.load %o[%c0] : memref<32xf32>, vector<16xf32>
    vector.print %first : vector<16xf32>
    return
  }
}
