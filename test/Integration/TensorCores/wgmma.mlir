// mgpu.wgmma on every backend: a bf16 matmul with a and b staged in shared
// memory and the f32 accumulator carried in the output block across the
// sequential K axis; the same with a in registers (f16); f32 inputs read as
// tf32 (the 13 low mantissa bits ignored, as the tensor cores do).
// Inputs are small integers, so every sum is exact whatever the order.
// RUN: %run_on_backends %s --match-full-lines
// The run above takes the tensor-core lowering (the default: the emulator
// computes its wgmma.mma_async lane by lane from the descriptors and the
// fragment layout, a GPU runs it); again on ordinary instructions (the cpu
// backend ignores the option).
// RUN: %run_on_backends %s --match-full-lines -- --tensor-cores=0
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa tensor-cores=1" -o /dev/null
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" -o /dev/null

#a_block = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(i, k) -> (i, k)>>
#b_block = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i, k) -> (k, 0)>>
#c_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i, k) -> (i, 0)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel, sequential]>
#one = #mgpu.block_spec<shape = [64, 8], index_map = affine_map<(i) -> (0, 0)>>
#one_b = #mgpu.block_spec<shape = [8, 8], index_map = affine_map<(i) -> (0, 0)>>
#one_c = #mgpu.block_spec<shape = [64, 8], index_map = affine_map<(i) -> (0, 0)>>
#smem = #gpu.address_space<workgroup>

module {
  // c = a x b for a: 128x64, b: 64x64, bf16; c f32.
  func.func @smem_a(%a: memref<128x64xbf16>, %b: memref<64x64xbf16>, %c: memref<128x64xf32>) {
    mgpu.pallas_call grid [2, 2]
        ins(%a, %b : memref<128x64xbf16>, memref<64x64xbf16>) outs(%c : memref<128x64xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block] params #params {
    ^bb0(%as: memref<64x32xbf16, #smem>, %bs: memref<32x64xbf16, #smem>, %cs: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %k = mgpu.program_id 1
      %first = arith.cmpi eq, %k, %c0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      %acc = scf.if %first -> vector<64x64xf32> {
        scf.yield %zero : vector<64x64xf32>
      } else {
        %old = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<64x64xf32, #smem>, vector<64x64xf32>
        scf.yield %old : vector<64x64xf32>
      }
      %r = mgpu.wgmma %acc, %as, %bs : vector<64x64xf32>, memref<64x32xbf16, #smem>, memref<32x64xbf16, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // The same product with a read into registers first (f16 inputs).
  func.func @register_a(%a: memref<128x64xf16>, %b: memref<64x64xf16>, %c: memref<128x64xf32>) {
    mgpu.pallas_call grid [2, 2]
        ins(%a, %b : memref<128x64xf16>, memref<64x64xf16>) outs(%c : memref<128x64xf32>)
        in_specs [#a_block, #b_block] out_specs [#c_block] params #params {
    ^bb0(%as: memref<64x32xf16, #smem>, %bs: memref<32x64xf16, #smem>, %cs: memref<64x64xf32, #smem>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %hpad = arith.constant 0.0 : f16
      %k = mgpu.program_id 1
      %first = arith.cmpi eq, %k, %c0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      // The output block holds nothing at the first step (shared memory
      // starts undefined): read only later.
      %acc = scf.if %first -> vector<64x64xf32> {
        scf.yield %zero : vector<64x64xf32>
      } else {
        %old = vector.transfer_read %cs[%c0, %c0], %pad {in_bounds = [true, true]}
            : memref<64x64xf32, #smem>, vector<64x64xf32>
        scf.yield %old : vector<64x64xf32>
      }
      %va = vector.transfer_read %as[%c0, %c0], %hpad {in_bounds = [true, true]}
          : memref<64x32xf16, #smem>, vector<64x32xf16>
      %r = mgpu.wgmma %acc, %va, %bs : vector<64x64xf32>, vector<64x32xf16>, memref<32x64xf16, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x64xf32>, memref<64x64xf32, #smem>
    }
    return
  }

  // f32 inputs are tf32: 1 + 2^-12 reads as 1.
  func.func @tf32(%a: memref<64x8xf32>, %b: memref<8x8xf32>, %c: memref<64x8xf32>) {
    mgpu.pallas_call grid [1]
        ins(%a, %b : memref<64x8xf32>, memref<8x8xf32>) outs(%c : memref<64x8xf32>)
        in_specs [#one, #one_b] out_specs [#one_c] {
    ^bb0(%as: memref<64x8xf32, #smem>, %bs: memref<8x8xf32, #smem>, %cs: memref<64x8xf32, #smem>):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.5> : vector<64x8xf32>
      %r = mgpu.wgmma %zero, %as, %bs : vector<64x8xf32>, memref<64x8xf32, #smem>, memref<8x8xf32, #smem>
      mgpu.wgmma_wait 0
      vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]}
          : vector<64x8xf32>, memref<64x8xf32, #smem>
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

  // Mismatches of c against a x b computed with scalar loops (from f32 copies).
  func.func @check(%a: memref<128x64xf32>, %b: memref<64x64xf32>, %c: memref<128x64xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %f0 = arith.constant 0.0 : f32
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %c0) -> index {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %n) -> index {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %f0) -> f32 {
          %x = memref.load %a[%i, %k] : memref<128x64xf32>
          %y = memref.load %b[%k, %j] : memref<64x64xf32>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %got = memref.load %c[%i, %j] : memref<128x64xf32>
        %ne = arith.cmpf une, %got, %sum : f32
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
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %af = memref.alloc() : memref<128x64xf32>
    %bf = memref.alloc() : memref<64x64xf32>
    %a16 = memref.alloc() : memref<128x64xbf16>
    %b16 = memref.alloc() : memref<64x64xbf16>
    %ah = memref.alloc() : memref<128x64xf16>
    %bh = memref.alloc() : memref<64x64xf16>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %v = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        memref.store %v, %af[%i, %k] : memref<128x64xf32>
        %v16 = arith.truncf %v : f32 to bf16
        memref.store %v16, %a16[%i, %k] : memref<128x64xbf16>
        %vh = arith.truncf %v : f32 to f16
        memref.store %vh, %ah[%i, %k] : memref<128x64xf16>
      }
    }
    scf.for %k = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
        memref.store %v, %bf[%k, %j] : memref<64x64xf32>
        %v16 = arith.truncf %v : f32 to bf16
        memref.store %v16, %b16[%k, %j] : memref<64x64xbf16>
        %vh = arith.truncf %v : f32 to f16
        memref.store %vh, %bh[%k, %j] : memref<64x64xf16>
      }
    }
    %c = memref.alloc() : memref<128x64xf32>
    func.call @smem_a(%a16, %b16, %c) : (memref<128x64xbf16>, memref<64x64xbf16>, memref<128x64xf32>) -> ()
    %bad1 = func.call @check(%af, %bf, %c) : (memref<128x64xf32>, memref<64x64xf32>, memref<128x64xf32>) -> index
    vector.print str "bf16, a in shared memory, mismatches: "
    vector.print %bad1 : index
    %v = vector.load %c[%c64, %c0] : memref<128x64xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>

    %c2m = memref.alloc() : memref<128x64xf32>
    func.call @register_a(%ah, %bh, %c2m) : (memref<128x64xf16>, memref<64x64xf16>, memref<128x64xf32>) -> ()
    %bad2 = func.call @check(%af, %bf, %c2m) : (memref<128x64xf32>, memref<64x64xf32>, memref<128x64xf32>) -> index
    vector.print str "f16, a in registers, mismatches: "
    vector.print %bad2 : index

    // tf32: a = 1 + 2^-12 everywhere, b = 1, acc = 0.5: 8 x 1 + 0.5.
    %at = memref.alloc() : memref<64x8xf32>
    %bt = memref.alloc() : memref<8x8xf32>
    %ct = memref.alloc() : memref<64x8xf32>
    %x = arith.constant 1.000244140625 : f32
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%x : f32) outs(%at : memref<64x8xf32>)
    linalg.fill ins(%one : f32) outs(%bt : memref<8x8xf32>)
    func.call @tf32(%at, %bt, %ct) : (memref<64x8xf32>, memref<8x8xf32>, memref<64x8xf32>) -> ()
    %t = vector.load %ct[%c8, %c0] : memref<64x8xf32>, vector<2xf32>
    vector.print str "tf32: "
    vector.print %t : vector<2xf32>
    return
  }
}
// CHECK: bf16, a in shared memory, mismatches: 0
// CHECK-NEXT: ( 129, 65, -125, 0 )
// CHECK-NEXT: f16, a in registers, mismatches: 0
// CHECK-NEXT: tf32: ( 8.5, 8.5 )
