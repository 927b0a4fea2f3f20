// mpmd_map in tensor form with mixed element types and GMEM scratch: f16
// input, f32 output. Region 0 (2 programs) converts the first half of x and
// adds the scratch, which starts zeroed; region 1 (1 program) squares the
// second half.
// RUN: %run_on_backends %s --match-full-lines

#m0 = #mgpu.mesh<grid = [2], grid_names = ["a"]>
#m1 = #mgpu.mesh<grid = [1], grid_names = ["b"]>

module {
  func.func @convert(%x: tensor<256xf16>, %init: tensor<256xf32>) -> tensor<256xf32> {
    %r = mgpu.mpmd_map meshes [#m0, #m1]
        ins(%x : tensor<256xf16>) outs(%init : tensor<256xf32>)
        scratch [memref<2xf32>] {
    ^bb0(%a: memref<256xf16>, %o: memref<256xf32>, %s: memref<2xf32>):
      %i = mgpu.axis_index "a"
      %c64 = arith.constant 64 : index
      %off = arith.muli %i, %c64 : index
      %v = vector.load %a[%off] : memref<256xf16>, vector<64xf16>
      %e = arith.extf %v : vector<64xf16> to vector<64xf32>
      %z = memref.load %s[%i] : memref<2xf32>
      %zb = vector.broadcast %z : f32 to vector<64xf32>
      %r = arith.addf %e, %zb : vector<64xf32>
      vector.store %r, %o[%off] : memref<256xf32>, vector<64xf32>
    }, {
    ^bb0(%a: memref<256xf16>, %o: memref<256xf32>, %s: memref<2xf32>):
      %c128 = arith.constant 128 : index
      %v = vector.load %a[%c128] : memref<256xf16>, vector<128xf16>
      %e = arith.extf %v : vector<128xf16> to vector<128xf32>
      %r = arith.mulf %e, %e : vector<128xf32>
      vector.store %r, %o[%c128] : memref<256xf32>, vector<128xf32>
    } -> tensor<256xf32>
    return %r : tensor<256xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 256 : index
    // x[i] = i - 100 (exact in f16); out[i] = x[i] for i < 128, x[i]^2 after.
    %x = memref.alloc() : memref<256xf16>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f16
      %h100 = arith.constant 100.0 : f16
      %v = arith.subf %f, %h100 : f16
      memref.store %v, %x[%i] : memref<256xf16>
    }
    %xt = bufferization.to_tensor %x restrict : memref<256xf16> to tensor<256xf16>
    %init = tensor.empty() : tensor<256xf32>
    %rt = func.call @convert(%xt, %init) : (tensor<256xf16>, tensor<256xf32>) -> tensor<256xf32>
    %r = bufferization.to_buffer %rt read_only : tensor<256xf32> to memref<256xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %h = memref.load %x[%i] : memref<256xf16>
      %v = arith.extf %h : f16 to f32
      %first = arith.cmpi ult, %i, %c128 : index
      %sq = arith.mulf %v, %v : f32
      %want = arith.select %first, %v, %sq : f32
      %got = memref.load %r[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // out[0] = -100, out[127] = 27, out[128] = 28^2 = 784,
    // out[255] = 155^2 = 24025.
    // CHECK-NEXT: ( -100, 27, 784, 24025 )
    %c127 = arith.constant 127 : index
    %c255 = arith.constant 255 : index
    %v0 = memref.load %r[%c0] : memref<256xf32>
    %v1 = memref.load %r[%c127] : memref<256xf32>
    %v2 = memref.load %r[%c128] : memref<256xf32>
    %v3 = memref.load %r[%c255] : memref<256xf32>
    %vs = vector.from_elements %v0, %v1, %v2, %v3 : vector<4xf32>
    vector.print %vs : vector<4xf32>
    memref.dealloc %x : memref<256xf16>
    return
  }
}
