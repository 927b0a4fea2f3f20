// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s
// Without the assignment pass, --mgpu-lower-to-gpu assigns the same layouts.
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s

// The distribution emits each value in the layout --mgpu-assign-layouts
// gave it and converts only where two layouts meet. An accumulator cast
// from a splat to the wgmma layout starts in fragments with no exchange; it
// stays in fragments across the loop, through an elementwise epilogue and
// an scf.if, and is written from the registers: no exchange at all.

#s = #gpu.address_space<workgroup>
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  // CHECK-LABEL: func.func @epilogue
  // CHECK: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<32xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<32xf32>) {
  // CHECK-COUNT-2: mgpu.wgmma_shared
  // CHECK: scf.yield %{{.*}} : vector<32xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: arith.mulf %{{.*}} : vector<32xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: arith.maximumf %{{.*}} : vector<32xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: scf.if %{{.*}} -> (vector<32xf32>) {
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: arith.negf %{{.*}} : vector<32xf32>
  // CHECK: } else {
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: }
  // CHECK-NOT: memref<4096xf32
  // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK: return
  func.func @epilogue() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x32xbf16, #s>, memref<32x64xbf16, #s>, memref<64x64xf32, #s>] {
    ^bb0(%a: memref<64x32xbf16, #s>, %b: memref<32x64xbf16, #s>, %c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %half = arith.constant dense<0.5> : vector<64x64xf32>
      %init = mgpu.layout_cast %zero : vector<64x64xf32> to #mgpu.layout<wgmma>
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (vector<64x64xf32>) {
        %r = mgpu.wgmma %acc, %a, %b : vector<64x64xf32>, memref<64x32xbf16, #s>, memref<32x64xbf16, #s>
        scf.yield %r : vector<64x64xf32>
      }
      %s = arith.mulf %sum, %half : vector<64x64xf32>
      %u = arith.maximumf %s, %zero : vector<64x64xf32>
      %p = mgpu.program_id 0
      %first = arith.cmpi eq, %p, %c0 : index
      %out = scf.if %first -> vector<64x64xf32> {
        %n = arith.negf %u : vector<64x64xf32>
        scf.yield %n : vector<64x64xf32>
      } else {
        scf.yield %u : vector<64x64xf32>
      }
      vector.transfer_write %out, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }

  // A read only cast to wgmma is made in fragments (two columns per
  // access); the cast back to strided exchanges through the scratch.
  // CHECK-LABEL: func.func @round_trip
  // CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK-NOT: memref<4096xf32
  // CHECK: arith.addf %{{.*}} : vector<32xf32>
  // CHECK: vector.store {{.*}} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK: return
  func.func @round_trip() {
    mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [memref<64x64xf32, #s>] {
    ^bb0(%c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<64x64xf32>
      %v = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x64xf32, #s>, vector<64x64xf32>
      %f = mgpu.layout_cast %v : vector<64x64xf32> to #mgpu.layout<wgmma>
      %g = arith.addf %f, %one : vector<64x64xf32>
      %h = mgpu.layout_cast %g : vector<64x64xf32> to #mgpu.layout<strided>
      vector.transfer_write %h, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }

  // A row reduction of fragments folds each lane's columns, then combines
  // the 4 lanes of a quad with xor shuffles 1 and 2: no scratch. The rows
  // go back over the columns with a vector.shuffle of the lane's two rows.
  // CHECK-LABEL: func.func @rows
  // CHECK: mgpu.wgmma_shared
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 1, 1, 0, 0, 1, 1
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: arith.subf %{{.*}} : vector<32xf32>
  // CHECK: return
  func.func @rows() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x16xbf16, #s>, memref<16x64xbf16, #s>, memref<64x64xf32, #s>] {
    ^bb0(%a: memref<64x16xbf16, #s>, %b: memref<16x64xbf16, #s>, %c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %ninf = arith.constant dense<0xFF800000> : vector<64xf32>
      %s = mgpu.wgmma %zero, %a, %b : vector<64x64xf32>, memref<64x16xbf16, #s>, memref<16x64xbf16, #s>
      mgpu.wgmma_wait 0
      %max = vector.multi_reduction <maximumf>, %s, %ninf [1] : vector<64x64xf32> to vector<64xf32>
      %col = vector.shape_cast %max : vector<64xf32> to vector<64x1xf32>
      %rows = vector.broadcast %col : vector<64x1xf32> to vector<64x64xf32>
      %d = arith.subf %s, %rows : vector<64x64xf32>
      vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }

  // p = bf16(s), the a of a second MMA (attention's p v), stays in
  // fragments: the tensor cores take a from those registers (register-A
  // wgmma), and neither p nor any f32 value goes through the scratch.
  // CHECK-LABEL: func.func @p_in_fragments
  // CHECK: mgpu.wgmma_shared
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
  // CHECK-NOT: xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
  // CHECK-COUNT-4: mgpu.wgmma_register_a
  // CHECK: return
  func.func @p_in_fragments() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x16xbf16, #s>, memref<16x64xbf16, #s>, memref<64x64xbf16, #s>, memref<64x64xf32, #s>] {
    ^bb0(%a: memref<64x16xbf16, #s>, %b: memref<16x64xbf16, #s>, %v: memref<64x64xbf16, #s>, %c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %s = mgpu.wgmma %zero, %a, %b : vector<64x64xf32>, memref<64x16xbf16, #s>, memref<16x64xbf16, #s>
      mgpu.wgmma_wait 0
      %p = arith.truncf %s : vector<64x64xf32> to vector<64x64xbf16>
      %o = mgpu.wgmma %zero, %p, %v : vector<64x64xf32>, vector<64x64xbf16>, memref<64x64xbf16, #s>
      mgpu.wgmma_wait 0
      vector.transfer_write %o, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }

  // Columns over the rows (JAX's Layout.WGMMA.reduce(0), attention
  // backward's lse): each lane reads its two columns of each 8-column group
  // with one 8-byte load, broadcasts them over its fragment registers with
  // a vector.shuffle (register r of a tile takes column (r / 4) * 2 + r % 2),
  // and lanes 0-3 write them back: no value goes through the scratch.
  // CHECK-LABEL: func.func @columns
  // CHECK: mgpu.wgmma_shared
  // CHECK-COUNT-8: vector.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK-NOT: xf32, #gpu.address_space<workgroup>>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5
  // CHECK-NOT: memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
  // CHECK: arith.subf %{{.*}} : vector<32xf32>
  // CHECK: arith.cmpi ult, %{{.*}}, %c4
  // CHECK: scf.if
  // CHECK-COUNT-8: vector.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  // CHECK: return
  func.func @columns() {
    mgpu.pallas_call grid [1] in_specs [] out_specs []
        scratch [memref<64x16xbf16, #s>, memref<16x64xbf16, #s>, memref<64xf32, #s>, memref<64x64xf32, #s>] {
    ^bb0(%a: memref<64x16xbf16, #s>, %b: memref<16x64xbf16, #s>, %l: memref<64xf32, #s>, %c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %s = mgpu.wgmma %zero, %a, %b : vector<64x64xf32>, memref<64x16xbf16, #s>, memref<16x64xbf16, #s>
      mgpu.wgmma_wait 0
      %lr = vector.transfer_read %l[%c0], %pad {in_bounds = [true]} : memref<64xf32, #s>, vector<64xf32>
      %lse = mgpu.layout_cast %lr : vector<64xf32> to #mgpu.layout<wgmma_col>
      %cols = vector.broadcast %lse : vector<64xf32> to vector<64x64xf32>
      %d = arith.subf %s, %cols : vector<64x64xf32>
      vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
      %two = arith.constant dense<2.0> : vector<64xf32>
      %l2 = arith.mulf %lse, %two : vector<64xf32>
      vector.transfer_write %l2, %l[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, #s>
    }
    return
  }

  // JAX's causal mask in Layout.WGMMA: each lane makes the row positions
  // (2 per 64-row tile) and the column positions (16) it holds, and the
  // comparison and the select run on its 32 fragment elements: nothing
  // goes through the scratch.
  // CHECK-LABEL: func.func @iota_mask
  // CHECK-NOT: memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
  // CHECK: vector.insert %{{.*}}, %{{.*}} [1] : index into vector<2xindex>
  // CHECK-NOT: memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
  // CHECK: vector.insert %{{.*}}, %{{.*}} [15] : index into vector<16xindex>
  // CHECK-NOT: memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
  // CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : vector<32xi32>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<32xi1>, vector<32xf32>
  // CHECK-NOT: memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
  // CHECK: return
  func.func @iota_mask() {
    mgpu.pallas_call grid [1] in_specs [] out_specs [] scratch [memref<64x64xf32, #s>] {
    ^bb0(%c: memref<64x64xf32, #s>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %x = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]}
          : memref<64x64xf32, #s>, vector<64x64xf32>
      %qk = mgpu.layout_cast %x : vector<64x64xf32> to #mgpu.layout<wgmma>
      %s = vector.step : vector<64xindex>
      %s32 = arith.index_cast %s : vector<64xindex> to vector<64xi32>
      %rows1 = vector.shape_cast %s32 : vector<64xi32> to vector<64x1xi32>
      %rb = vector.broadcast %rows1 : vector<64x1xi32> to vector<64x64xi32>
      %rows = mgpu.layout_cast %rb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %cb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
      %cols = mgpu.layout_cast %cb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %mask = arith.cmpi sge, %rows, %cols : vector<64x64xi32>
      %ninf = arith.constant dense<0xFF800000> : vector<64x64xf32>
      %y = arith.select %mask, %qk, %ninf : vector<64x64xi1>, vector<64x64xf32>
      vector.transfer_write %y, %c[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #s>
    }
    return
  }
}
