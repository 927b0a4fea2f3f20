// examples/scale_in_place.mlir on the CPU: x <- 2 * x + 1, the input aliased
// as the output (input_output_aliases), updated in place.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt --mgpu-bufferize %s | FileCheck %s --check-prefix=INPLACE

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  // The kernel of examples/scale_in_place.mlir.
  func.func @scale_in_place(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [8]
        ins(%x : tensor<1024xf32>)
        outs(%x : tensor<1024xf32>)
        in_specs [#block] out_specs [#block]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %two : vector<128xf32>
      %r = arith.addf %scaled, %one : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }

  // x[i] = 0.5 * i - 100, so the result is 2 * x[i] + 1 = i - 199.
  func.func @input(%i: index) -> f32 {
    %half = arith.constant 0.5 : f32
    %hundred = arith.constant 100.0 : f32
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %h = arith.mulf %f, %half : f32
    %v = arith.subf %h, %hundred : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %x = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %v = func.call @input(%i) : (index) -> f32
      memref.store %v, %x[%i] : memref<1024xf32>
    }
    %xt = bufferization.to_tensor %x restrict writable
        : memref<1024xf32> to tensor<1024xf32>
    %rt = func.call @scale_in_place(%xt) : (tensor<1024xf32>) -> tensor<1024xf32>
    %r = bufferization.to_buffer %rt read_only : tensor<1024xf32> to memref<1024xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = func.call @input(%i) : (index) -> f32
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %t = arith.mulf %v, %two : f32
      %want = arith.addf %t, %one : f32
      %got = memref.load %r[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // CHECK-NEXT: -199
    // CHECK-NEXT: -198
    // CHECK-NEXT: 301
    // CHECK-NEXT: 824
    %c500 = arith.constant 500 : index
    %c1023 = arith.constant 1023 : index
    %v0 = memref.load %r[%c0] : memref<1024xf32>
    vector.print %v0 : f32
    %v1 = memref.load %r[%c1] : memref<1024xf32>
    vector.print %v1 : f32
    %v2 = memref.load %r[%c500] : memref<1024xf32>
    vector.print %v2 : f32
    %v3 = memref.load %r[%c1023] : memref<1024xf32>
    vector.print %v3 : f32

    // The caller's buffer itself was updated (x is writable, so
    // bufferization passes it to the kernel without a copy).
    // CHECK-NEXT: in place
    // CHECK-NEXT: 301
    vector.print str "in place\n"
    %x500 = memref.load %x[%c500] : memref<1024xf32>
    vector.print %x500 : f32
    memref.dealloc %x : memref<1024xf32>
    return
  }
}

// Bufferization keeps the update in place: the kernel reads and writes its
// argument's buffer, with no new buffer and no copy.
// INPLACE-LABEL: func.func @scale_in_place(
// INPLACE-SAME: %[[X:.*]]: memref<1024xf32
// INPLACE-NOT: memref.alloc
// INPLACE-NOT: memref.copy
// INPLACE: mgpu.pallas_call grid [8] ins(%[[X]] : {{.*}}) outs(%[[X]] : {{.*}})
// INPLACE-LABEL: func.func @input(
