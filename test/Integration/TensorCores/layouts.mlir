// Lane layouts on every backend: an accumulator cast to the wgmma layout
// from a splat, carried by a loop of wgmma, then an elementwise epilogue
// (relu(x / 2 + 1)), a row sum subtracted from every row, and an scf.if
// that all stay in the wgmma layouts on the GPU, with no exchange through
// shared memory. The host backends ignore
// layouts; the numbers must be the same everywhere. Inputs are small
// integers, so every sum is exact whatever the order.
// RUN: %run_on_backends %s --match-full-lines
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa tensor-cores=1" -o /dev/null

#a_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#b_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>

module {
  // Program 0 writes relu(2ab / 2 + 1), program 1 writes 2ab minus the
  // sum of its row.
  func.func @kernel(%a: memref<128x64xbf16>, %b: memref<64x64xbf16>, %c: memref<128x64xf32>) {
    mgpu.pallas_call grid [2]
        ins(%a, %b : memref<128x64xbf16>, memref<64x64xbf16>) outs(%c : memref<128x64xf32>)
        in_specs [#a_block, #b_block] out_specs [#a_block] {
    ^bb0(%as: memref<64x64xbf16, #smem>, %bs: memref<64x64xbf16, #smem>, %cs: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %half = arith.constant dense<0.5> : vector<64x64xf32>
      %one = arith.constant dense<1.0> : vector<64x64xf32>
      %acc0 = mgpu.layout_cast %zero : vector<64x64xf32> to #mgpu.layout<wgmma>
      %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %acc0) -> vector<64x64xf32> {
        %next = mgpu.wgmma %acc, %as, %bs : vector<64x64xf32>, memref<64x64xbf16, #smem>, memref<64x64xbf16, #smem>
        mgpu.wgmma_wait 0
        scf.yield %next : vector<64x64xf32>
      }
      %p = mgpu.program_id 0
      %first = arith.cmpi eq, %p, %c0 : index
      %out = scf.if %first -> vector<64x64xf32> {
        %s = arith.mulf %sum, %half : vector<64x64xf32>
        %t = arith.addf %s, %one : vector<64x64xf32>
        %u = arith.maximumf %t, %zero : vector<64x64xf32>
        scf.yield %u : vector<64x64xf32>
      } else {
        // Subtract each row's sum: a reduction along the rows of the
        // fragments and a broadcast back, both without an exchange.
        %zrow = arith.constant dense<0.0> : vector<64xf32>
        %max = vector.multi_reduction <add>, %sum, %zrow [1] : vector<64x64xf32> to vector<64xf32>
        %col = vector.shape_cast %max : vector<64xf32> to vector<64x1xf32>
        %rows = vector.broadcast %col : vector<64x1xf32> to vector<64x64xf32>
        %n = arith.subf %sum, %rows : vector<64x64xf32>
        scf.yield %n : vector<64x64xf32>
      }
      vector.transfer_write %out, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }
  // (x * mul + y) mod 7 - 3 as f32.
  func.func @small(%x: index, %y: index, %mul: index) -> f32 {
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %t = arith.muli %x, %mul : index
    %s = arith.addi %t, %y : index
    %m = arith.remui %s, %c7 : index
    %d = arith.subi %m, %c3 : index
    %i = arith.index_cast %d : index to i32
    %f = arith.sitofp %i : i32 to f32
    return %f : f32
  }
  // Mismatches of c against the kernel's formula, from f32 copies of a, b.
  func.func @product(%a: memref<128x64xf32>, %b: memref<64x64xf32>, %i: index, %j: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %f0 = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %f0) -> f32 {
      %x = memref.load %a[%i, %k] : memref<128x64xf32>
      %y = memref.load %b[%k, %j] : memref<64x64xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %s, %p : f32
      scf.yield %t : f32
    }
    return %sum : f32
  }
  func.func @check(%a: memref<128x64xf32>, %b: memref<64x64xf32>, %c: memref<128x64xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f2 = arith.constant 2.0 : f32
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %c0) -> index {
      %max = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %f0) -> f32 {
        %p = func.call @product(%a, %b, %i, %j) : (memref<128x64xf32>, memref<64x64xf32>, index, index) -> f32
        %twice = arith.mulf %p, %f2 : f32
        %m2 = arith.addf %m, %twice : f32
        scf.yield %m2 : f32
      }
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> index {
        %sum = func.call @product(%a, %b, %i, %j) : (memref<128x64xf32>, memref<64x64xf32>, index, index) -> f32
        %top = arith.cmpi ult, %i, %c64 : index
        %plus = arith.addf %sum, %f1 : f32
        %relu = arith.maximumf %plus, %f0 : f32
        %twice = arith.mulf %sum, %f2 : f32
        %shifted = arith.subf %twice, %max : f32
        %want = arith.select %top, %relu, %shifted : f32
        %got = memref.load %c[%i, %j] : memref<128x64xf32>
        %ne = arith.cmpf une, %got, %want : f32
        %inc = arith.select %ne, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %row : index
    }
    return %bad : index
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c65 = arith.constant 65 : index
    %c128 = arith.constant 128 : index
    %af = memref.alloc() : memref<128x64xf32>
    %bf = memref.alloc() : memref<64x64xf32>
    %a16 = memref.alloc() : memref<128x64xbf16>
    %b16 = memref.alloc() : memref<64x64xbf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %v = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        memref.store %v, %af[%i, %k] : memref<128x64xf32>
        %v16 = arith.truncf %v : f32 to bf16
        memref.store %v16, %a16[%i, %k] : memref<128x64xbf16>
      }
    }
    scf.for %k = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        memref.store %v, %bf[%k, %j] : memref<64x64xf32>
        %v16 = arith.truncf %v : f32 to bf16
        memref.store %v16, %b16[%k, %j] : memref<64x64xbf16>
      }
    }
    %c = memref.alloc() : memref<128x64xf32>
    func.call @kernel(%a16, %b16, %c) : (memref<128x64xbf16>, memref<64x64xbf16>, memref<128x64xf32>) -> ()
    %bad = func.call @check(%af, %bf, %c) : (memref<128x64xf32>, memref<64x64xf32>, memref<128x64xf32>) -> index
    vector.print str "mismatches: "
    vector.print %bad : index
    %top = vector.load %c[%c1, %c0] : memref<128x64xf32>, vector<4xf32>
    vector.print %top : vector<4xf32>
    %bottom = vector.load %c[%c65, %c0] : memref<128x64xf32>, vector<4xf32>
    vector.print %bottom : vector<4xf32>
    return
  }
}
// CHECK: mismatches: 0
// CHECK-NEXT: ( 130, 66, 0, 1 )
// CHECK-NEXT: ( 0, -376, -122, -120 )
