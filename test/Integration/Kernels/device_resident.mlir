// Device-resident data: memrefs in #gpu.address_space<global> live on the
// device. The host copies the input in once (memref.copy), ten pallas_calls
// chain on the device memory, ping-ponging between two buffers with no copy
// and no host wait between them, and one copy brings the result back. On
// the CPU and the emulator the same program runs on host memory.
// RUN: %run_on_backends %s --match-full-lines

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

!device = memref<1024xf32, #gpu.address_space<global>>

module {
  // y = 2 * x + 1.
  func.func @step(%x: !device, %y: !device) {
    mgpu.pallas_call grid [8]
        ins(%x : !device) outs(%y : !device)
        in_specs [#block] out_specs [#block]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %ys: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %two : vector<128xf32>
      %r = arith.addf %scaled, %one : vector<128xf32>
      vector.transfer_write %r, %ys[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 1024 : index
    %four = arith.constant 4.0 : f32
    // x[i] = (i mod 8) - 4.
    %host = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c8 : index
      %mi = arith.index_cast %m : index to i32
      %f = arith.sitofp %mi : i32 to f32
      %v = arith.subf %f, %four : f32
      memref.store %v, %host[%i] : memref<1024xf32>
    }
    %a = memref.alloc() : !device
    %b = memref.alloc() : !device
    memref.copy %host, %a : memref<1024xf32> to !device
    // Ten steps: a -> b -> a, five times.
    scf.for %s = %c0 to %c5 step %c1 {
      func.call @step(%a, %b) : (!device, !device) -> ()
      func.call @step(%b, %a) : (!device, !device) -> ()
    }
    %result = memref.alloc() : memref<1024xf32>
    memref.copy %a, %result : !device to memref<1024xf32>
    memref.dealloc %a : !device
    memref.dealloc %b : !device

    // After ten steps x becomes 1024 * x + 1023.
    %scale = arith.constant 1024.0 : f32
    %offset = arith.constant 1023.0 : f32
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %x = memref.load %host[%i] : memref<1024xf32>
      %sx = arith.mulf %x, %scale : f32
      %want = arith.addf %sx, %offset : f32
      %got = memref.load %result[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // x[0] = -4 -> -3073; x[7] = 3 -> 4095.
    // CHECK-NEXT: -3073
    // CHECK-NEXT: 4095
    %c7 = arith.constant 7 : index
    %r0 = memref.load %result[%c0] : memref<1024xf32>
    vector.print %r0 : f32
    %r7 = memref.load %result[%c7] : memref<1024xf32>
    vector.print %r7 : f32
    return
  }
}
