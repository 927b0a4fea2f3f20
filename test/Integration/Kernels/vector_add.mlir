// examples/vector_add.mlir on the CPU: out = a + b, 4 programs of 256.
// RUN: %run_on_backends %s --match-full-lines

#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @vector_add(%a: tensor<1024xf32>, %b: tensor<1024xf32>,
                        %init: tensor<1024xf32>) -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4]
        ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block, #block] out_specs [#block]
        params #params {
    ^bb0(%x: memref<256xf32, #gpu.address_space<workgroup>>,
         %y: memref<256xf32, #gpu.address_space<workgroup>>,
         %o: memref<256xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %vx = vector.transfer_read %x[%c0], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
      %vy = vector.transfer_read %y[%c0], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<256xf32>
      %sum = arith.addf %vx, %vy : vector<256xf32>
      vector.transfer_write %sum, %o[%c0] {in_bounds = [true]}
          : vector<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %n = arith.constant 1024 : index
    // a[i] = i, b[i] = 1000 - 2 * (i mod 7), so out[i] = i + 1000 - 2 * (i mod 7).
    %a = memref.alloc() : memref<1024xf32>
    %b = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<1024xf32>
      %m = arith.remui %i, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      %two = arith.constant 2.0 : f32
      %thousand = arith.constant 1000.0 : f32
      %m2 = arith.mulf %mf, %two : f32
      %bv = arith.subf %thousand, %m2 : f32
      memref.store %bv, %b[%i] : memref<1024xf32>
    }
    %at = bufferization.to_tensor %a restrict : memref<1024xf32> to tensor<1024xf32>
    %bt = bufferization.to_tensor %b restrict : memref<1024xf32> to tensor<1024xf32>
    %init = tensor.empty() : tensor<1024xf32>
    %ot = func.call @vector_add(%at, %bt, %init)
        : (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<1024xf32> to memref<1024xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %av = memref.load %a[%i] : memref<1024xf32>
      %bv = memref.load %b[%i] : memref<1024xf32>
      %want = arith.addf %av, %bv : f32
      %got = memref.load %o[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // out[0] = 1000; out[10] = 10 + 1000 - 6 = 1004;
    // out[1023] = 1023 + 1000 - 2 * 1 = 2021 (1023 = 146 * 7 + 1).
    // CHECK-NEXT: 1000
    // CHECK-NEXT: 1004
    // CHECK-NEXT: 2021
    %c10 = arith.constant 10 : index
    %c1023 = arith.constant 1023 : index
    %v0 = memref.load %o[%c0] : memref<1024xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c10] : memref<1024xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c1023] : memref<1024xf32>
    vector.print %v2 : f32
    memref.dealloc %a : memref<1024xf32>
    memref.dealloc %b : memref<1024xf32>
    return
  }
}
