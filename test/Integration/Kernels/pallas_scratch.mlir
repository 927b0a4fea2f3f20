// Scratch in a pallas_call: row means of x (32x128) with the running sums in
// an SMEM scratch buffer that lives across the sequential K steps; the
// output block is written once, at the last step (the Pallas pattern of an
// accumulator in scratch rather than in the output).
// RUN: %run_on_backends %s --match-full-lines

#x_block = #mgpu.block_spec<shape = [8, 32], index_map = affine_map<(i, k) -> (i, k)>>
#o_block = #mgpu.block_spec<shape = [8], index_map = affine_map<(i, k) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>

module {
  func.func @row_mean(%x: memref<32x128xf32>, %o: memref<32xf32>) {
    mgpu.pallas_call grid [4, 4]
        ins(%x : memref<32x128xf32>)
        outs(%o : memref<32xf32>)
        in_specs [#x_block] out_specs [#o_block]
        scratch [memref<8xf32, #gpu.address_space<workgroup>>]
        params #params {
    ^bb0(%xs: memref<8x32xf32, #gpu.address_space<workgroup>>,
         %os: memref<8xf32, #gpu.address_space<workgroup>>,
         %acc: memref<8xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 1
      %nk = mgpu.num_programs 1
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        %zero = arith.constant dense<0.0> : vector<8xf32>
        vector.transfer_write %zero, %acc[%c0] {in_bounds = [true]}
            : vector<8xf32>, memref<8xf32, #gpu.address_space<workgroup>>
      }
      %partial = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]}
          : memref<8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8x32xf32>
      %sum = vector.multi_reduction <add>, %v, %partial [1]
          : vector<8x32xf32> to vector<8xf32>
      vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]}
          : vector<8xf32>, memref<8xf32, #gpu.address_space<workgroup>>
      %last_k = arith.subi %nk, %c1 : index
      %last = arith.cmpi eq, %k, %last_k : index
      scf.if %last {
        %inv = arith.constant dense<0.0078125> : vector<8xf32>
        %mean = arith.mulf %sum, %inv : vector<8xf32>
        vector.transfer_write %mean, %os[%c0] {in_bounds = [true]}
            : vector<8xf32>, memref<8xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 32 : index
    %cols = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %f128 = arith.constant 128.0 : f32
    // x[r][c] = r + c, so the mean of row r is r + 63.5.
    %x = memref.alloc() : memref<32x128xf32>
    scf.for %r = %c0 to %rows step %c1 {
      scf.for %c = %c0 to %cols step %c1 {
        %s = arith.addi %r, %c : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f32
        memref.store %sf, %x[%r, %c] : memref<32x128xf32>
      }
    }
    %o = memref.alloc() : memref<32xf32>
    %garbage = arith.constant 5.0e5 : f32
    linalg.fill ins(%garbage : f32) outs(%o : memref<32xf32>)
    func.call @row_mean(%x, %o) : (memref<32x128xf32>, memref<32xf32>) -> ()

    // The reference, with scalar loops.
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %s = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %fzero) -> f32 {
        %v = memref.load %x[%r, %c] : memref<32x128xf32>
        %a2 = arith.addf %acc, %v : f32
        scf.yield %a2 : f32
      }
      %want = arith.divf %s, %f128 : f32
      %got = memref.load %o[%r] : memref<32xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // CHECK-NEXT: 63.5
    // CHECK-NEXT: 72.5
    // CHECK-NEXT: 94.5
    %c9 = arith.constant 9 : index
    %c31 = arith.constant 31 : index
    %v0 = memref.load %o[%c0] : memref<32xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c9] : memref<32xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c31] : memref<32xf32>
    vector.print %v2 : f32
    memref.dealloc %x : memref<32x128xf32>
    memref.dealloc %o : memref<32xf32>
    return
  }
}
