// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s

// JAX's other fragment layouts (#mgpu.layout<wgmma_8bit | wgmma_upcast_2x |
// wgmma_upcast_4x | wgmma_transposed>): a value read only to be cast to one
// is read by each lane straight from the buffer, V elements of a row per
// access (4 for the 8-bit and 2x layouts, 8 for the 4x one, 1 in the
// transposed layout, whose vectors run down the rows), two row halves per
// 64-row tile; an elementwise op keeps the layout; the write is as wide.
// No exchange through the warpgroup scratch (the barrier before the write
// orders it after the other lanes' reads, as in every layout).

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @upcast_2x
  // CHECK-COUNT-2: vector.load {{.*}} : memref<64x16xi8, #gpu.address_space<workgroup>>, vector<4xi8>
  // CHECK-NOT: mgpu.warpgroup_barrier
  // CHECK: arith.sitofp {{.*}} : vector<8xi8> to vector<8xf16>
  // CHECK-COUNT-2: vector.store {{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<4xf16>
  func.func @upcast_2x() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x16xi8, #s>, memref<64x16xf16, #s>] {
    ^bb0(%x: memref<64x16xi8, #s>, %o: memref<64x16xf16, #s>):
      %c0 = arith.constant 0 : index
      %i0 = arith.constant 0 : i8
      %v = vector.transfer_read %x[%c0, %c0], %i0 {in_bounds = [true, true]}
          : memref<64x16xi8, #s>, vector<64x16xi8>
      %l = mgpu.layout_cast %v : vector<64x16xi8> to #mgpu.layout<wgmma_upcast_2x>
      %f = arith.sitofp %l : vector<64x16xi8> to vector<64x16xf16>
      vector.transfer_write %f, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x16xf16>, memref<64x16xf16, #s>
    }
    return
  }

  // CHECK-LABEL: func.func @upcast_4x
  // CHECK-COUNT-2: vector.load {{.*}} : memref<64x32xi8, #gpu.address_space<workgroup>>, vector<8xi8>
  // CHECK: arith.sitofp {{.*}} : vector<16xi8> to vector<16xf32>
  // CHECK-COUNT-2: vector.store {{.*}} : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<8xf32>
  func.func @upcast_4x() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x32xi8, #s>, memref<64x32xf32, #s>] {
    ^bb0(%x: memref<64x32xi8, #s>, %o: memref<64x32xf32, #s>):
      %c0 = arith.constant 0 : index
      %i0 = arith.constant 0 : i8
      %v = vector.transfer_read %x[%c0, %c0], %i0 {in_bounds = [true, true]}
          : memref<64x32xi8, #s>, vector<64x32xi8>
      %l = mgpu.layout_cast %v : vector<64x32xi8> to #mgpu.layout<wgmma_upcast_4x>
      %f = arith.sitofp %l : vector<64x32xi8> to vector<64x32xf32>
      vector.transfer_write %f, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x32xf32>, memref<64x32xf32, #s>
    }
    return
  }

  // CHECK-LABEL: func.func @transposed
  // CHECK-COUNT-4: vector.load {{.*}} : memref<64x8xf32, #gpu.address_space<workgroup>>, vector<1xf32>
  // CHECK-NOT: mgpu.warpgroup_barrier
  // CHECK: arith.negf {{.*}} : vector<4xf32>
  // CHECK-COUNT-4: vector.store {{.*}} : memref<64x8xf32, #gpu.address_space<workgroup>>, vector<1xf32>
  func.func @transposed() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x8xf32, #s>, memref<64x8xf32, #s>] {
    ^bb0(%x: memref<64x8xf32, #s>, %o: memref<64x8xf32, #s>):
      %c0 = arith.constant 0 : index
      %f0 = arith.constant 0.0 : f32
      %v = vector.transfer_read %x[%c0, %c0], %f0 {in_bounds = [true, true]}
          : memref<64x8xf32, #s>, vector<64x8xf32>
      %l = mgpu.layout_cast %v : vector<64x8xf32> to #mgpu.layout<wgmma_transposed>
      %n = arith.negf %l : vector<64x8xf32>
      vector.transfer_write %n, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x8xf32>, memref<64x8xf32, #s>
    }
    return
  }

  // JAX's epilogue slices its accumulator into 64 x 64 pieces
  // (acc[epi_m_slice, epi_n_slice]): whole 64-row tiles and 8-column
  // groups of a fragment are fragments, a run of each tile's registers (here
  // tile 1, columns 64..127: registers 32..63 of the second tile's 64). No
  // exchange: the slice is written from the registers, and with no
  // barrier, as it goes to another buffer than the one read
  // (--mgpu-place-barriers).
  // CHECK-LABEL: func.func @fragment_slice
  // CHECK-NOT: mgpu.warpgroup_barrier
  // CHECK: vector.extract_strided_slice %{{.*}} {offsets = [96], sizes = [32], strides = [1]} : vector<128xf32> to vector<32xf32>
  // CHECK-NOT: mgpu.warpgroup_barrier
  // CHECK: vector.store {{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK-NOT: mgpu.warpgroup_barrier
  // CHECK: return
  func.func @fragment_slice() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<128x128xf32, #s>, memref<64x64xf32, #s>] {
    ^bb0(%x: memref<128x128xf32, #s>, %o: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<128x128xf32, #s>, vector<128x128xf32>
      %l = mgpu.layout_cast %v : vector<128x128xf32> to #mgpu.layout<wgmma>
      %p = vector.extract_strided_slice %l {offsets = [64, 64], sizes = [64, 64], strides = [1, 1]}
          : vector<128x128xf32> to vector<64x64xf32>
      vector.transfer_write %p, %o[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }
}
