// examples/threads.mlir on the CPU: two Pallas threads per program (mesh
// num_threads = 2), each computing half of the block, out = x * x + 1.
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>

module {
  func.func @threads(%x: tensor<1024xf32>, %init: tensor<1024xf32>)
      -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4, 2]
        ins(%x : tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block] out_specs [#block]
        mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      // This thread's half of the block: elements [128 * wg, 128 * wg + 128).
      %wg = mgpu.axis_index "wg"
      %half = mgpu.axis_size "wg"
      %c256 = arith.constant 256 : index
      %width = arith.divui %c256, %half : index
      %start = arith.muli %wg, %width : index
      %v = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
          : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %sq = arith.mulf %v, %v : vector<128xf32>
      %r = arith.addf %sq, %one : vector<128xf32>
      vector.transfer_write %r, %os[%start] {in_bounds = [true]}
          : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }

  // x[i] = (i mod 37) / 4 - 4, so x * x + 1 is exact in f32.
  func.func @input(%i: index) -> f32 {
    %c37 = arith.constant 37 : index
    %quarter = arith.constant 0.25 : f32
    %four = arith.constant 4.0 : f32
    %m = arith.remui %i, %c37 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %q = arith.mulf %mf, %quarter : f32
    %v = arith.subf %q, %four : f32
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
    // The output starts with garbage: both halves of every block must be
    // written.
    %init = memref.alloc() : memref<1024xf32>
    %garbage = arith.constant -1.0 : f32
    linalg.fill ins(%garbage : f32) outs(%init : memref<1024xf32>)
    %xt = bufferization.to_tensor %x restrict : memref<1024xf32> to tensor<1024xf32>
    %it = bufferization.to_tensor %init restrict : memref<1024xf32> to tensor<1024xf32>
    %ot = func.call @threads(%xt, %it)
        : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<1024xf32> to memref<1024xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %one = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x[%i] : memref<1024xf32>
      %sq = arith.mulf %v, %v : f32
      %want = arith.addf %sq, %one : f32
      %got = memref.load %o[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // i = 0 (thread 0 of program 0): x = -4, 17.
    // i = 130 (thread 1 of program 0): 130 mod 37 = 19, x = 0.75, 1.5625.
    // i = 300 (thread 0 of program 1): 300 mod 37 = 4, x = -3, 10.
    // i = 1023 (thread 1 of program 3): 1023 mod 37 = 24, x = 2, 5.
    // CHECK-NEXT: 17
    // CHECK-NEXT: 1.5625
    // CHECK-NEXT: 10
    // CHECK-NEXT: 5
    %c130 = arith.constant 130 : index
    %c300 = arith.constant 300 : index
    %c1023 = arith.constant 1023 : index
    %v0 = memref.load %o[%c0] : memref<1024xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c130] : memref<1024xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c300] : memref<1024xf32>
    vector.print %v2 : f32
    %v3 = memref.load %o[%c1023] : memref<1024xf32>
    vector.print %v3 : f32
    memref.dealloc %x : memref<1024xf32>
    memref.dealloc %init : memref<1024xf32>
    return
  }
}
