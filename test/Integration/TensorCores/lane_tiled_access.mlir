// The lanes read and write shared buffers that hold JAX's tiled, swizzled
// layout ((8, 64) tiles, the 128-byte swizzle), going through the layout as
// JAX's lanes do, on every backend:
//  - @mask_then_mma: transposed_ragged_dot_mgpu.py's pattern (lines
//    105-137): a is copied in with transforms, the lanes read it, zero the
//    elements above the diagonal (jnp.where with iotas) and write it back,
//    then wgmma reads it in place on the tensor cores (a_transforms); b is
//    copied in and read in place too. o = tril(a) @ b.
//  - @epilogue: hopper_matmul_mgpu.py's epilogue shape: the lanes write a
//    value into a buffer whose copy out names the transforms. o = 2 x + 1.
// a, b, x are small integers (exact sums). Before mgpu let whole-view lane
// accesses go through a layout, @mask_then_mma was refused ("accesses the
// elements of a shared buffer that the tensor cores read in the layout
// ..., which element accesses do not support yet") and @epilogue's buffer
// was kept row-major.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-select-tensor-cores --mgpu-propagate-transforms | FileCheck %s --check-prefix=MARKS
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// MARKS-LABEL: func.func @mask_then_mma
// MARKS: vector.transfer_read {{.*}}mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
// MARKS: vector.transfer_write {{.*}}mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
// MARKS-LABEL: func.func @epilogue
// MARKS: vector.transfer_write {{.*}}mgpu.transforms = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
// The masked a goes to the tensor cores in place, after a proxy fence.
// PTX-LABEL: .entry mask_then_mma
// PTX: fence.proxy.async.shared::cta
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: mask_then_mma mismatches: 0
// CHECK: epilogue mismatches: 0

#g = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#sw = [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>]
#smem = #gpu.address_space<workgroup>
!bt = memref<64x64xbf16, #smem>
!ft = memref<64x64xf16, #smem>
!bar = !mgpu.barrier<count = 2>

module {
  func.func @mask_then_mma(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %o: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>)
        outs(%o : memref<64x64xf32>) in_specs [#g, #g] out_specs [#g]
        scratch [!bt, !bt, !bar] {
    ^bb0(%ag: memref<64x64xbf16>, %bg: memref<64x64xbf16>, %og: memref<64x64xf32>,
         %as: !bt, %bs: !bt, %bars: !bar):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant 0.0 : bf16
      mgpu.copy_gmem_to_smem %ag, %as, %bars[%c0] transforms #sw : memref<64x64xbf16>, !bt, !bar
      mgpu.copy_gmem_to_smem %bg, %bs, %bars[%c1] transforms #sw : memref<64x64xbf16>, !bt, !bar
      mgpu.barrier_wait %bars[%c0] : !bar
      mgpu.barrier_wait %bars[%c1] : !bar
      %x = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : !bt, vector<64x64xbf16>
      %s = vector.step : vector<64xindex>
      %s32 = arith.index_cast %s : vector<64xindex> to vector<64xi32>
      %r1 = vector.shape_cast %s32 : vector<64xi32> to vector<64x1xi32>
      %rb = vector.broadcast %r1 : vector<64x1xi32> to vector<64x64xi32>
      %rows = mgpu.layout_cast %rb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %cb = vector.broadcast %s32 : vector<64xi32> to vector<64x64xi32>
      %cols = mgpu.layout_cast %cb : vector<64x64xi32> to #mgpu.layout<wgmma>
      %keep = arith.cmpi sge, %rows, %cols : vector<64x64xi32>
      %zero = arith.constant dense<0.0> : vector<64x64xbf16>
      %masked = arith.select %keep, %x, %zero : vector<64x64xi1>, vector<64x64xbf16>
      vector.transfer_write %masked, %as[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xbf16>, !bt
      mgpu.commit_smem
      %acc0 = arith.constant dense<0.0> : vector<64x64xf32>
      %acc = mgpu.wgmma %acc0, %as, %bs a_transforms #sw b_transforms #sw
          : vector<64x64xf32>, !bt, !bt
      mgpu.wgmma_wait 0
      vector.transfer_write %acc, %og[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf32>, memref<64x64xf32>
    }
    return
  }

  func.func @epilogue(%x: memref<64x64xf16>, %o: memref<64x64xf16>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x64xf16>) outs(%o : memref<64x64xf16>)
        in_specs [#g] out_specs [#g] scratch [!ft] {
    ^bb0(%xg: memref<64x64xf16>, %og: memref<64x64xf16>, %os: !ft):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f16
      %v = vector.transfer_read %xg[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf16>, vector<64x64xf16>
      %two = arith.constant dense<2.0> : vector<64x64xf16>
      %one = arith.constant dense<1.0> : vector<64x64xf16>
      %y = arith.mulf %v, %two : vector<64x64xf16>
      %z = arith.addf %y, %one : vector<64x64xf16>
      vector.transfer_write %z, %os[%c0, %c0] {in_bounds = [true, true]} : vector<64x64xf16>, !ft
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %os, %og transforms #sw : !ft, memref<64x64xf16>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<64x64xbf16>
    %b = memref.alloc() : memref<64x64xbf16>
    %x = memref.alloc() : memref<64x64xf16>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ij = arith.addi %i, %j : index
        %i3 = arith.muli %i, %c3 : index
        %t = arith.addi %i3, %j : index
        %av = arith.remui %ij, %c4 : index
        %bv = arith.remui %t, %c5 : index
        %ai = arith.index_cast %av : index to i32
        %bi = arith.index_cast %bv : index to i32
        %af = arith.sitofp %ai : i32 to bf16
        %bf = arith.sitofp %bi : i32 to bf16
        memref.store %af, %a[%i, %j] : memref<64x64xbf16>
        memref.store %bf, %b[%i, %j] : memref<64x64xbf16>
        %xi = arith.index_cast %t : index to i32
        %xf = arith.sitofp %xi : i32 to f16
        memref.store %xf, %x[%i, %j] : memref<64x64xf16>
      }
    }
    %o = memref.alloc() : memref<64x64xf32>
    func.call @mask_then_mma(%a, %b, %o) : (memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32>) -> ()
    %f0 = arith.constant 0.0 : f32
    %n0 = scf.for %i = %c0 to %c64 step %c1 iter_args(%e = %c0) -> index {
      %n1 = scf.for %j = %c0 to %c64 step %c1 iter_args(%e1 = %e) -> index {
        // sum over k <= i of a[i, k] * b[k, j]
        %i1 = arith.addi %i, %c1 : index
        %sum = scf.for %k = %c0 to %i1 step %c1 iter_args(%acc = %f0) -> f32 {
          %av = memref.load %a[%i, %k] : memref<64x64xbf16>
          %bv = memref.load %b[%k, %j] : memref<64x64xbf16>
          %af = arith.extf %av : bf16 to f32
          %bf = arith.extf %bv : bf16 to f32
          %p = arith.mulf %af, %bf : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %got = memref.load %o[%i, %j] : memref<64x64xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %one = arith.select %ne, %c1, %c0 : index
        %e2 = arith.addi %e1, %one : index
        scf.yield %e2 : index
      }
      scf.yield %n1 : index
    }
    vector.print str "mask_then_mma mismatches: "
    vector.print %n0 : index
    %p = memref.alloc() : memref<64x64xf16>
    func.call @epilogue(%x, %p) : (memref<64x64xf16>, memref<64x64xf16>) -> ()
    %h2 = arith.constant 2.0 : f16
    %h1 = arith.constant 1.0 : f16
    %n2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%e = %c0) -> index {
      %n3 = scf.for %j = %c0 to %c64 step %c1 iter_args(%e1 = %e) -> index {
        %xv = memref.load %x[%i, %j] : memref<64x64xf16>
        %y = arith.mulf %xv, %h2 : f16
        %want = arith.addf %y, %h1 : f16
        %got = memref.load %p[%i, %j] : memref<64x64xf16>
        %ne = arith.cmpf une, %got, %want : f16
        %one = arith.select %ne, %c1, %c0 : index
        %e2 = arith.addi %e1, %one : index
        scf.yield %e2 : index
      }
      scf.yield %n3 : index
    }
    vector.print str "epilogue mismatches: "
    vector.print %n2 : index
    memref.dealloc %a : memref<64x64xbf16>
    memref.dealloc %b : memref<64x64xbf16>
    memref.dealloc %x : memref<64x64xf16>
    memref.dealloc %o : memref<64x64xf32>
    memref.dealloc %p : memref<64x64xf16>
    return
  }
}
