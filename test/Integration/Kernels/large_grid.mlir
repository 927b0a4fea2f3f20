// A grid of 512 CTAs (65536 threads on a GPU; one host thread per CUDA
// thread of every CTA at once failed from about 32000): the emulator runs
// one CTA at a time per host thread of its pool, its threads as fibers, so
// it runs out of neither threads nor memory; every backend gives the same
// numbers. million_programs.mlir runs 2^20 CTAs.
// RUN: %run_on_backends %s --match-full-lines

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @add_one(%x: tensor<65536xf32>, %init: tensor<65536xf32>)
      -> tensor<65536xf32> {
    %out = mgpu.pallas_call grid [512]
        ins(%x : tensor<65536xf32>) outs(%init : tensor<65536xf32>)
        in_specs [#block] out_specs [#block] params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      %i = mgpu.program_id 0
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %id = vector.broadcast %fi : f32 to vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %w = arith.addf %v, %id : vector<128xf32>
      vector.transfer_write %w, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<65536xf32>
    return %out : tensor<65536xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 65536 : index
    %zero = arith.constant 0.0 : f32
    %x = memref.alloc() : memref<65536xf32>
    linalg.fill ins(%zero : f32) outs(%x : memref<65536xf32>)
    %xt = bufferization.to_tensor %x restrict : memref<65536xf32> to tensor<65536xf32>
    %init = tensor.empty() : tensor<65536xf32>
    %ot = func.call @add_one(%xt, %init)
        : (tensor<65536xf32>, tensor<65536xf32>) -> tensor<65536xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<65536xf32> to memref<65536xf32>
    // Element i holds its CTA's index, i / 128.
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
      %got = memref.load %o[%i] : memref<65536xf32>
      %cta = arith.divui %i, %c128 : index
      %ci = arith.index_cast %cta : index to i32
      %want = arith.sitofp %ci : i32 to f32
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %count, %inc : index
      scf.yield %next : index
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : index
    // CHECK-NEXT: 511
    %last = arith.constant 65535 : index
    %v = memref.load %o[%last] : memref<65536xf32>
    vector.print %v : f32
    return
  }
}
