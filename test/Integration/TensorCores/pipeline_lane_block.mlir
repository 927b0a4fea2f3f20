// A pipelined input block that the lanes read and write whole before a
// wgmma reads it (JAX's masking of a block before its MMA, as in
// transposed_ragged_dot_mgpu.py): the block keeps its spec's transforms,
// the lanes go through that layout, and the tensor cores read the block in
// place. a is 64 x 256, b 256 x 64 in K blocks of 64 (4 steps, 2 stages);
// each step doubles b's block in shared memory, then acc += a_k @ (2 b_k):
// c = 2 a b. @jax_form names no transforms on the wgmma (the block spec
// does, as JAX's); @named names b_transforms on it.
// Regression: --mgpu-expand-pipelines kept a block row-major when the
// lanes also touched it, while the wgmma of @named still read it swizzled:
// 49,152 wrong elements of a ragged dot on every backend, no diagnostic
// (found while extending the lanes' accesses through layouts).
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// Both blocks come in swizzled and the wgmma reads them in place: no lane
// copies them into place (one element at a time).
// PTX-LABEL: .entry jax_form
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-NOT: ld.shared.b16
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: jax_form mismatches: 0
// CHECK: named mismatches: 0

#whole_a = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#whole_b = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#c_block = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>>
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#a_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#b_k = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (k, 0)>, transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]>
#stages = #mgpu.compiler_params<max_concurrent_steps = 2>
!blk = memref<64x64xbf16, #gpu.address_space<workgroup>>
!acc = memref<64x64xf32, #gpu.address_space<workgroup>>

module {
  func.func @jax_form(%a: memref<64x256xbf16>, %b: memref<256x64xbf16>, %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x256xbf16>, memref<256x64xbf16>)
        outs(%c : memref<64x64xf32>) in_specs [#whole_a, #whole_b] out_specs [#c_block] {
    ^bb0(%ag: memref<64x256xbf16>, %bg: memref<256x64xbf16>, %cs: !acc):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !acc
      mgpu.emit_pipeline grid [4] ins(%ag, %bg : memref<64x256xbf16>, memref<256x64xbf16>)
          in_specs [#a_k, #b_k] out_specs [] params #stages {
      ^bb0(%k: index, %as: !blk, %bs: !blk):
        %pad = arith.constant 0.0 : bf16
        %fpad = arith.constant 0.0 : f32
        %two = arith.constant dense<2.0> : vector<64x64xbf16>
        %x = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xbf16>
        %y = arith.mulf %x, %two : vector<64x64xbf16>
        vector.transfer_write %y, %bs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !blk
        mgpu.commit_smem
        %acc = vector.transfer_read %cs[%c0, %c0], %fpad {in_bounds = [true, true]} : !acc, vector<64x64xf32>
        %r = mgpu.wgmma %acc, %as, %bs : vector<64x64xf32>, !blk, !blk
        mgpu.wgmma_wait 0
        vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !acc
      }
    }
    return
  }

  func.func @named(%a: memref<64x256xbf16>, %b: memref<256x64xbf16>, %c: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x256xbf16>, memref<256x64xbf16>)
        outs(%c : memref<64x64xf32>) in_specs [#whole_a, #whole_b] out_specs [#c_block] {
    ^bb0(%ag: memref<64x256xbf16>, %bg: memref<256x64xbf16>, %cs: !acc):
      %c0 = arith.constant 0 : index
      %zero = arith.constant dense<0.0> : vector<64x64xf32>
      vector.transfer_write %zero, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !acc
      mgpu.emit_pipeline grid [4] ins(%ag, %bg : memref<64x256xbf16>, memref<256x64xbf16>)
          in_specs [#a_k, #b_k] out_specs [] params #stages {
      ^bb0(%k: index, %as: !blk, %bs: !blk):
        %pad = arith.constant 0.0 : bf16
        %fpad = arith.constant 0.0 : f32
        %two = arith.constant dense<2.0> : vector<64x64xbf16>
        %x = vector.transfer_read %bs[%c0, %c0], %pad {in_bounds = [true, true]} : !blk, vector<64x64xbf16>
        %y = arith.mulf %x, %two : vector<64x64xbf16>
        vector.transfer_write %y, %bs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !blk
        mgpu.commit_smem
        %acc = vector.transfer_read %cs[%c0, %c0], %fpad {in_bounds = [true, true]} : !acc, vector<64x64xf32>
        %r = mgpu.wgmma %acc, %as, %bs a_transforms #sw b_transforms #sw : vector<64x64xf32>, !blk, !blk
        mgpu.wgmma_wait 0
        vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, !acc
      }
    }
    return
  }

  // (x * mul + y) mod 7 - 3.
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

  func.func @count(%c: memref<64x64xf32>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant 0.0 : f32
    %f2 = arith.constant 2.0 : f32
    %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%count = %c0) -> index {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%m = %count) -> index {
        %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%s = %f0) -> f32 {
          %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
          %y = func.call @small(%k, %j, %c3) : (index, index, index) -> f32
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        %want = arith.mulf %sum, %f2 : f32
        %got = memref.load %c[%i, %j] : memref<64x64xf32>
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
    %c256 = arith.constant 256 : index
    %a = memref.alloc() : memref<64x256xbf16>
    %b = memref.alloc() : memref<256x64xbf16>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %k = %c0 to %c256 step %c1 {
        %x = func.call @small(%i, %k, %c2) : (index, index, index) -> f32
        %xb = arith.truncf %x : f32 to bf16
        memref.store %xb, %a[%i, %k] : memref<64x256xbf16>
        %y = func.call @small(%k, %i, %c3) : (index, index, index) -> f32
        %yb = arith.truncf %y : f32 to bf16
        memref.store %yb, %b[%k, %i] : memref<256x64xbf16>
      }
    }
    %c = memref.alloc() : memref<64x64xf32>
    func.call @jax_form(%a, %b, %c) : (memref<64x256xbf16>, memref<256x64xbf16>, memref<64x64xf32>) -> ()
    %n0 = func.call @count(%c) : (memref<64x64xf32>) -> index
    vector.print str "jax_form mismatches: "
    vector.print %n0 : index
    %d = memref.alloc() : memref<64x64xf32>
    func.call @named(%a, %b, %d) : (memref<64x256xbf16>, memref<256x64xbf16>, memref<64x64xf32>) -> ()
    %n1 = func.call @count(%d) : (memref<64x64xf32>) -> index
    vector.print str "named mismatches: "
    vector.print %n1 : index
    memref.dealloc %a : memref<64x256xbf16>
    memref.dealloc %b : memref<256x64xbf16>
    memref.dealloc %c : memref<64x64xf32>
    memref.dealloc %d : memref<64x64xf32>
    return
  }
}
