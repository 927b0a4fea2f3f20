// A sequential axis with max_concurrent_steps = 2 over blocks that run past
// the array: out[r] = scale[r] * (x[r][0] + ... + x[r][99]) for a 40x100
// array in 16x32 blocks, grid [3, 4]. The last block row holds 8 real rows
// and the last block column 4 real columns, so the padding must read as
// zero; scale's block index ignores the sequential axis (it is revisited,
// fetched once per row block). The number of steps is an SSA value (4 at
// run time), so the GPU lowering cannot size its pipeline by it: a RUN line
// of the emulated tests raises max_concurrent_steps past it. On the GPU
// both inputs are double-buffered with TMA (cp.async.bulk.tensor), which
// zero-fills what lies past the array.
// RUN: %run_on_backends %s --match-full-lines
// More buffers (6) than the 4 steps, which are only known at run time.
// RUN: sed 's/max_concurrent_steps = 2/max_concurrent_steps = 6/' %s > %t.depth6.mlir
// RUN: %run_on_backends %t.depth6.mlir --match-full-lines

#x_block = #mgpu.block_spec<shape = [16, 32], index_map = affine_map<(i, k) -> (i, k)>>
#s_block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#o_block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i, k) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                                max_concurrent_steps = 2>

module {
  func.func @scaled_row_sums(%x: tensor<40x100xf32>, %scale: tensor<40xf32>,
                             %init: tensor<40xf32>, %steps: index)
      -> tensor<40xf32> {
    %out = mgpu.pallas_call grid [3, %steps]
        ins(%x, %scale : tensor<40x100xf32>, tensor<40xf32>)
        outs(%init : tensor<40xf32>)
        in_specs [#x_block, #s_block] out_specs [#o_block]
        params #params {
    ^bb0(%xs: memref<16x32xf32, #gpu.address_space<workgroup>>,
         %ss: memref<16xf32, #gpu.address_space<workgroup>>,
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
      %v = vector.transfer_read %xs[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<16x32xf32>
      %none = arith.constant dense<0.0> : vector<16xf32>
      %sum = vector.multi_reduction <add>, %v, %none [1]
          : vector<16x32xf32> to vector<16xf32>
      %s = vector.transfer_read %ss[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %scaled = arith.mulf %sum, %s : vector<16xf32>
      %partial = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %next = arith.addf %partial, %scaled : vector<16xf32>
      vector.transfer_write %next, %acc[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    } -> tensor<40xf32>
    return %out : tensor<40xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %rows = arith.constant 40 : index
    %cols = arith.constant 100 : index
    %sixteenth = arith.constant 0.0625 : f32
    %one = arith.constant 1.0 : f32
    // x[r][c] = r + c / 16 and scale[r] = 2^(r mod 3): every sum and
    // product is exact in f32, whatever the order of the additions.
    %x = memref.alloc() : memref<40x100xf32>
    %scale = memref.alloc() : memref<40xf32>
    scf.for %r = %c0 to %rows step %c1 {
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      scf.for %c = %c0 to %cols step %c1 {
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %cs = arith.mulf %cf, %sixteenth : f32
        %v = arith.addf %rf, %cs : f32
        memref.store %v, %x[%r, %c] : memref<40x100xf32>
      }
      %m = arith.remui %r, %c3 : index
      %p = scf.for %i = %c0 to %m step %c1 iter_args(%a = %one) -> f32 {
        %d = arith.addf %a, %a : f32
        scf.yield %d : f32
      }
      memref.store %p, %scale[%r] : memref<40xf32>
    }
    // The output starts with garbage: the kernel must not depend on it.
    %init = memref.alloc() : memref<40xf32>
    %garbage = arith.constant -12345.0 : f32
    linalg.fill ins(%garbage : f32) outs(%init : memref<40xf32>)
    %xt = bufferization.to_tensor %x restrict : memref<40x100xf32> to tensor<40x100xf32>
    %st = bufferization.to_tensor %scale restrict : memref<40xf32> to tensor<40xf32>
    %it = bufferization.to_tensor %init restrict : memref<40xf32> to tensor<40xf32>
    %steps = arith.constant 4 : index
    %ot = func.call @scaled_row_sums(%xt, %st, %it, %steps)
        : (tensor<40x100xf32>, tensor<40xf32>, tensor<40xf32>, index)
        -> tensor<40xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<40xf32> to memref<40xf32>

    // The reference, with scalar loops over x.
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %r = %c0 to %rows step %c1 iter_args(%count = %zero) -> i32 {
      %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%s = %fzero) -> f32 {
        %v = memref.load %x[%r, %c] : memref<40x100xf32>
        %s2 = arith.addf %s, %v : f32
        scf.yield %s2 : f32
      }
      %sc = memref.load %scale[%r] : memref<40xf32>
      %want = arith.mulf %sum, %sc : f32
      %got = memref.load %o[%r] : memref<40xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // Row sums are 100 r + 4950 / 16: out[0] = 309.375, out[1] = 2 * 409.375,
    // out[38] = 4 * 4109.375 (38 mod 3 = 2), out[39] = 4209.375.
    // CHECK-NEXT: 309.375
    // CHECK-NEXT: 818.75
    // CHECK-NEXT: 16437.5
    // CHECK-NEXT: 4209.38
    %c38 = arith.constant 38 : index
    %c39 = arith.constant 39 : index
    %v0 = memref.load %o[%c0] : memref<40xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c1] : memref<40xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c38] : memref<40xf32>
    vector.print %v2 : f32
    %v3 = memref.load %o[%c39] : memref<40xf32>
    vector.print %v3 : f32
    memref.dealloc %x : memref<40x100xf32>
    memref.dealloc %scale : memref<40xf32>
    memref.dealloc %init : memref<40xf32>
    return
  }
}
