// examples/cluster.mlir on the CPU: clusters of two CTAs; CTA c of cluster i
// works on block i * 2 + c, out = x * (c + 1) + (i * 2 + c).
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i, c) -> (i * 2 + c)>>

module {
  func.func @cluster(%x: tensor<1024xf32>, %init: tensor<1024xf32>)
      -> tensor<1024xf32> {
    %out = mgpu.pallas_call grid [4, 2]
        ins(%x : tensor<1024xf32>)
        outs(%init : tensor<1024xf32>)
        in_specs [#block] out_specs [#block]
        mesh #mesh {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant 0.0 : f32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %cluster_size = mgpu.axis_size "c"
      // The scale c + 1 and the block number i * 2 + c, as f32 vectors.
      %c_plus_1 = arith.addi %c, %c1 : index
      %first = arith.muli %i, %cluster_size : index
      %block = arith.addi %first, %c : index
      %scale_i = arith.index_cast %c_plus_1 : index to i32
      %scale_f = arith.sitofp %scale_i : i32 to f32
      %block_i = arith.index_cast %block : index to i32
      %block_f = arith.sitofp %block_i : i32 to f32
      %scale = vector.broadcast %scale_f : f32 to vector<128xf32>
      %offset = vector.broadcast %block_f : f32 to vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %scaled = arith.mulf %v, %scale : vector<128xf32>
      %r = arith.addf %scaled, %offset : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    } -> tensor<1024xf32>
    return %out : tensor<1024xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 1024 : index
    %half = arith.constant 0.5 : f32
    // x[i] = i / 2.
    %x = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %half : f32
      memref.store %v, %x[%i] : memref<1024xf32>
    }
    %xt = bufferization.to_tensor %x restrict : memref<1024xf32> to tensor<1024xf32>
    %init = tensor.empty() : tensor<1024xf32>
    %ot = func.call @cluster(%xt, %init)
        : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<1024xf32> to memref<1024xf32>

    // The reference, with scalar loops: element i is in block b = i / 128,
    // handled by CTA c = b mod 2 of its cluster.
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %b = arith.divui %i, %c128 : index
      %c = arith.remui %b, %c2 : index
      %scale = arith.addi %c, %c1 : index
      %si = arith.index_cast %scale : index to i32
      %sf = arith.sitofp %si : i32 to f32
      %bi = arith.index_cast %b : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      %v = memref.load %x[%i] : memref<1024xf32>
      %p = arith.mulf %v, %sf : f32
      %want = arith.addf %p, %bf : f32
      %got = memref.load %o[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32

    // i = 0: block 0, c = 0: 0 * 1 + 0 = 0.
    // i = 129: block 1, c = 1: 64.5 * 2 + 1 = 130.
    // i = 300: block 2, c = 0: 150 * 1 + 2 = 152.
    // i = 700: block 5, c = 1: 350 * 2 + 5 = 705.
    // i = 1023: block 7, c = 1: 511.5 * 2 + 7 = 1030.
    // CHECK-NEXT: 0
    // CHECK-NEXT: 130
    // CHECK-NEXT: 152
    // CHECK-NEXT: 705
    // CHECK-NEXT: 1030
    %c129 = arith.constant 129 : index
    %c300 = arith.constant 300 : index
    %c700 = arith.constant 700 : index
    %c1023 = arith.constant 1023 : index
    %v0 = memref.load %o[%c0] : memref<1024xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c129] : memref<1024xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c300] : memref<1024xf32>
    vector.print %v2 : f32
    %v3 = memref.load %o[%c700] : memref<1024xf32>
    vector.print %v3 : f32
    %v4 = memref.load %o[%c1023] : memref<1024xf32>
    vector.print %v4 : f32
    memref.dealloc %x : memref<1024xf32>
    return
  }
}
