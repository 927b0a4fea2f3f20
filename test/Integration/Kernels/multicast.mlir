// A multicast copy (copy_gmem_to_smem with collective_axes): both CTAs of
// each cluster copy the same 8x64 window of x (rows 8i..8i+7 for cluster
// i), each loading half of its rows into the buffers of both; each then
// checks that it received the whole window: CTA c of cluster i writes
// block 2i + c of out as window + 1000 c.
// RUN: %run_on_backends %s --match-full-lines

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2], cluster_names = ["c"]>
#x = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, c) -> (0, 0)>, memory_space = gmem>
#o = #mgpu.block_spec<shape = [8, 64], index_map = affine_map<(i, c) -> (i * 2 + c, 0)>>
!buf = memref<8x64xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @multicast(%x: tensor<32x64xf32>, %init: tensor<64x64xf32>)
      -> tensor<64x64xf32> {
    %out = mgpu.pallas_call grid [4, 2]
        ins(%x : tensor<32x64xf32>)
        outs(%init : tensor<64x64xf32>)
        in_specs [#x] out_specs [#o]
        scratch [!buf, !bar] mesh #mesh {
    ^bb0(%xg: memref<32x64xf32>, %os: !buf, %window: !buf, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %pad = arith.constant 0.0 : f32
      %thousand = arith.constant 1000.0 : f32
      %i = mgpu.axis_index "i"
      %c = mgpu.axis_index "c"
      %row = arith.muli %i, %c8 : index
      mgpu.copy_gmem_to_smem %xg[%row, 0], %window, %bar[%c0]
          collective_axes ["c"] : memref<32x64xf32>, !buf, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      %v = vector.transfer_read %window[%c0, %c0], %pad {in_bounds = [true, true]}
          : !buf, vector<8x64xf32>
      %ci = arith.index_cast %c : index to i32
      %cf = arith.sitofp %ci : i32 to f32
      %shift = arith.mulf %cf, %thousand : f32
      %s = vector.broadcast %shift : f32 to vector<8x64xf32>
      %r = arith.addf %v, %s : vector<8x64xf32>
      vector.transfer_write %r, %os[%c0, %c0] {in_bounds = [true, true]}
          : vector<8x64xf32>, !buf
    } -> tensor<64x64xf32>
    return %out : tensor<64x64xf32>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %thousand = arith.constant 1000.0 : f32
    // x[r, k] = 64 r + k.
    %x = memref.alloc() : memref<32x64xf32>
    scf.for %r = %c0 to %c32 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %r64 = arith.muli %r, %c64 : index
        %e = arith.addi %r64, %k : index
        %ei = arith.index_cast %e : index to i32
        %f = arith.sitofp %ei : i32 to f32
        memref.store %f, %x[%r, %k] : memref<32x64xf32>
      }
    }
    %xt = bufferization.to_tensor %x restrict : memref<32x64xf32> to tensor<32x64xf32>
    %init = tensor.empty() : tensor<64x64xf32>
    %ot = func.call @multicast(%xt, %init)
        : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %o = bufferization.to_buffer %ot read_only : tensor<64x64xf32> to memref<64x64xf32>
    // out[r, k]: block b = r / 8 of CTA c = b mod 2 in cluster i = b / 2,
    // row 8i + r mod 8 of x, plus 1000 c.
    %zero = arith.constant 0 : i32
    %bad = scf.for %r = %c0 to %c64 step %c1 iter_args(%n = %zero) -> i32 {
      %inner = scf.for %k = %c0 to %c64 step %c1 iter_args(%m = %n) -> i32 {
        %b = arith.divui %r, %c8 : index
        %c = arith.remui %b, %c2 : index
        %i = arith.divui %b, %c2 : index
        %i8 = arith.muli %i, %c8 : index
        %rr = arith.remui %r, %c8 : index
        %xr = arith.addi %i8, %rr : index
        %xv = memref.load %x[%xr, %k] : memref<32x64xf32>
        %ci = arith.index_cast %c : index to i32
        %cf = arith.sitofp %ci : i32 to f32
        %sh = arith.mulf %cf, %thousand : f32
        %want = arith.addf %xv, %sh : f32
        %got = memref.load %o[%r, %k] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.extui %ne : i1 to i32
        %next = arith.addi %m, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %inner : i32
    }
    // CHECK: mismatches: 0
    vector.print str "mismatches: "
    vector.print %bad : i32
    // out[12, 5]: block 1 (cluster 0, CTA 1), x row 4: 261 + 1000.
    // out[63, 63]: block 7 (cluster 3, CTA 1), x row 31: 2047 + 1000.
    // CHECK-NEXT: 1261
    // CHECK-NEXT: 3047
    %c12 = arith.constant 12 : index
    %c5 = arith.constant 5 : index
    %c63 = arith.constant 63 : index
    %v0 = memref.load %o[%c12, %c5] : memref<64x64xf32>
    vector.print %v0 : f32
    %v1 = memref.load %o[%c63, %c63] : memref<64x64xf32>
    vector.print %v1 : f32
    memref.dealloc %x : memref<32x64xf32>
    return
  }
}
