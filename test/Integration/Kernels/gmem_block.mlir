// Block specs in GMEM (memory_space = gmem): the body sees the whole array,
// not a staged block. A lookup table is read from GMEM by program id, and a
// GMEM output gets one scalar store per program (tensor form, so the GMEM
// refs go through bufferization's layout casts).
// RUN: %run_on_backends %s --match-full-lines

#blk = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
#table = #mgpu.block_spec<shape = [8], index_map = affine_map<(i) -> (0)>, memory_space = gmem>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  // out[i] = x[i] + table[i / 128]; seen[p] = num_programs - p.
  func.func @gmem(%x: tensor<1024xf32>, %table: tensor<8xf32>,
                  %init: tensor<1024xf32>, %seen_init: tensor<8xf32>)
      -> (tensor<1024xf32>, tensor<8xf32>) {
    %out, %seen = mgpu.pallas_call grid [8]
        ins(%x, %table : tensor<1024xf32>, tensor<8xf32>)
        outs(%init, %seen_init : tensor<1024xf32>, tensor<8xf32>)
        in_specs [#blk, #table] out_specs [#blk, #table]
        params #params {
    ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>,
         %tab: memref<8xf32>,
         %os: memref<128xf32, #gpu.address_space<workgroup>>,
         %sn: memref<8xf32>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %p = mgpu.program_id 0
      %n = mgpu.num_programs 0
      %t = memref.load %tab[%p] : memref<8xf32>
      %tv = vector.broadcast %t : f32 to vector<128xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %r = arith.addf %v, %tv : vector<128xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>
      %left = arith.subi %n, %p : index
      %li = arith.index_cast %left : index to i32
      %lf = arith.sitofp %li : i32 to f32
      memref.store %lf, %sn[%p] : memref<8xf32>
    } -> tensor<1024xf32>, tensor<8xf32>
    return %out, %seen : tensor<1024xf32>, tensor<8xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 1024 : index
    %f1000 = arith.constant 1000.0 : f32
    // x[i] = i, table[b] = 1000 * (b + 1).
    %x = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<1024xf32>
    }
    %table = memref.alloc() : memref<8xf32>
    scf.for %b = %c0 to %c8 step %c1 {
      %b1 = arith.addi %b, %c1 : index
      %bi = arith.index_cast %b1 : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      %t = arith.mulf %bf, %f1000 : f32
      memref.store %t, %table[%b] : memref<8xf32>
    }
    %xt = bufferization.to_tensor %x restrict : memref<1024xf32> to tensor<1024xf32>
    %tt = bufferization.to_tensor %table restrict : memref<8xf32> to tensor<8xf32>
    %init = tensor.empty() : tensor<1024xf32>
    %seen_init = tensor.empty() : tensor<8xf32>
    %ot, %st = func.call @gmem(%xt, %tt, %init, %seen_init)
        : (tensor<1024xf32>, tensor<8xf32>, tensor<1024xf32>, tensor<8xf32>)
        -> (tensor<1024xf32>, tensor<8xf32>)
    %o = bufferization.to_buffer %ot read_only : tensor<1024xf32> to memref<1024xf32>
    %s = bufferization.to_buffer %st read_only : tensor<8xf32> to memref<8xf32>

    // The reference, with scalar loops.
    %zero = arith.constant 0 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %b = arith.divui %i, %c128 : index
      %t = memref.load %table[%b] : memref<8xf32>
      %v = memref.load %x[%i] : memref<1024xf32>
      %want = arith.addf %v, %t : f32
      %got = memref.load %o[%i] : memref<1024xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // out[0] = 0 + 1000, out[200] = 200 + 2000, out[1023] = 1023 + 8000;
    // seen[p] = 8 - p.
    // CHECK-NEXT: 1000
    // CHECK-NEXT: 2200
    // CHECK-NEXT: 9023
    // CHECK-NEXT: ( 8, 7, 6, 5, 4, 3, 2, 1 )
    %c200 = arith.constant 200 : index
    %c1023 = arith.constant 1023 : index
    %v0 = memref.load %o[%c0] : memref<1024xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c200] : memref<1024xf32>
    vector.print %v1 : f32
    %v2 = memref.load %o[%c1023] : memref<1024xf32>
    vector.print %v2 : f32
    %sv = vector.load %s[%c0] : memref<8xf32>, vector<8xf32>
    vector.print %sv : vector<8xf32>
    memref.dealloc %x : memref<1024xf32>
    memref.dealloc %table : memref<8xf32>
    return
  }
}
