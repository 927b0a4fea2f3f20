// TMA copies with each of the swizzles JAX's find_swizzle picks: 32, 64
// and 128 bytes, a tile row spanning its swizzle (JAX's (8, swizzle /
// element bytes) tiling), shaped after JAX's test_copy_with_transforms:
// each kernel copies a 64 x 64 block into a tiled, swizzled buffer and back
// out through the same transforms.
//  - @s32: bf16 in tiles of (8, 16), #mgpu.swizzle<32>;
//  - @s64: f32 in tiles of (8, 16), #mgpu.swizzle<64>;
//  - @s128: i8 in tiles of (8, 128) over a 64 x 128 block, #mgpu.swizzle<128>;
//  - @s64_multicast: the 64-byte swizzle multicast to a cluster of two,
//    each CTA copying its half of the rows out (test_tma_load_multicast).
// Interpret mode and the emulator lay the buffers out as TMA does (one
// formula, mgpu/Target/SwizzleFormula.h); the GPU's tensor maps name the
// swizzle and a box one tile row wide.
// RUN: %run_on_backends %s --match-full-lines
// CHECK: s32 mismatches: 0
// CHECK: s64 mismatches: 0
// CHECK: s128 mismatches: 0
// CHECK: s64_multicast mismatches: 0
//
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s --mlir-print-ir-after=mgpu-primitives-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAPS
// MAPS-DAG: nvgpu.tma.create.descriptor {{.*}} : memref<*xbf16> -> <tensor = memref<8x16xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_32b
// MAPS-DAG: nvgpu.tma.create.descriptor {{.*}} : memref<*xf32> -> <tensor = memref<8x16xf32, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// MAPS-DAG: nvgpu.tma.create.descriptor {{.*}} : memref<*xi8> -> <tensor = memref<64x128xi8, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
//
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %extract_ptx --object 3 %t.mlir -o %t.3.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// RUN: %ptxas -arch=sm_90a -v %t.3.ptx -o %t.3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#g64 = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#g128 = #mgpu.block_spec<shape = [64, 128], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
#s32 = [#mgpu.tile<[8, 16]>, #mgpu.swizzle<32>]
#s64 = [#mgpu.tile<[8, 16]>, #mgpu.swizzle<64>]
#s128 = [#mgpu.tile<[8, 128]>, #mgpu.swizzle<128>]
#cluster = #mgpu.mesh<grid = [1], grid_names = ["g"], cluster = [2], cluster_names = ["x"]>
#gc = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(g, x) -> (0, 0)>, memory_space = gmem>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @s32(%x: memref<64x64xbf16>, %o: memref<64x64xbf16>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x64xbf16>) outs(%o : memref<64x64xbf16>)
        in_specs [#g64] out_specs [#g64]
        scratch [memref<64x64xbf16, #gpu.address_space<workgroup>>, !bar] {
    ^bb0(%xg: memref<64x64xbf16>, %og: memref<64x64xbf16>,
         %s: memref<64x64xbf16, #gpu.address_space<workgroup>>, %bar: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #s32
          : memref<64x64xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.copy_smem_to_gmem %s, %og transforms #s32
          : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @s64(%x: memref<64x64xf32>, %o: memref<64x64xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x64xf32>) outs(%o : memref<64x64xf32>)
        in_specs [#g64] out_specs [#g64]
        scratch [memref<64x64xf32, #gpu.address_space<workgroup>>, !bar] {
    ^bb0(%xg: memref<64x64xf32>, %og: memref<64x64xf32>,
         %s: memref<64x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #s64
          : memref<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.copy_smem_to_gmem %s, %og transforms #s64
          : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @s128(%x: memref<64x128xi8>, %o: memref<64x128xi8>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x128xi8>) outs(%o : memref<64x128xi8>)
        in_specs [#g128] out_specs [#g128]
        scratch [memref<64x128xi8, #gpu.address_space<workgroup>>, !bar] {
    ^bb0(%xg: memref<64x128xi8>, %og: memref<64x128xi8>,
         %s: memref<64x128xi8, #gpu.address_space<workgroup>>, %bar: !bar):
      %c0 = arith.constant 0 : index
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #s128
          : memref<64x128xi8>, memref<64x128xi8, #gpu.address_space<workgroup>>, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      mgpu.copy_smem_to_gmem %s, %og transforms #s128
          : memref<64x128xi8, #gpu.address_space<workgroup>>, memref<64x128xi8>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // Both CTAs of the cluster multicast their 32-row share into each
  // other's buffer; CTA x copies rows 32 x .. 32 x + 31 out.
  func.func @s64_multicast(%x: memref<64x64xf32>, %o: memref<64x64xf32>) {
    mgpu.pallas_call grid [1, 2] ins(%x : memref<64x64xf32>) outs(%o : memref<64x64xf32>)
        in_specs [#gc] out_specs [#gc]
        scratch [memref<64x64xf32, #gpu.address_space<workgroup>>, !bar] mesh #cluster {
    ^bb0(%xg: memref<64x64xf32>, %og: memref<64x64xf32>,
         %s: memref<64x64xf32, #gpu.address_space<workgroup>>, %bar: !bar):
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %x_idx = mgpu.axis_index "x"
      mgpu.copy_gmem_to_smem %xg, %s, %bar[%c0] transforms #s64
          collective_axes ["x"] : memref<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>, !bar
      mgpu.barrier_wait %bar[%c0] : !bar
      %row = arith.muli %x_idx, %c32 : index
      %half = memref.subview %s[%row, 0] [32, 64] [1, 1]
          : memref<64x64xf32, #gpu.address_space<workgroup>> to memref<32x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      mgpu.copy_smem_to_gmem %half, %og[%row, 0] transforms #s64
          : memref<32x64xf32, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<64x64xf32>
      mgpu.wait_smem_to_gmem 0
      // Neither CTA may exit while the other's multicast may still land.
      mgpu.cluster_sync
    }
    return
  }

  // x[r, c] = (r * cols + c) mod 251, in each element type.
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c251 = arith.constant 251 : index
    %fx = memref.alloc() : memref<64x64xf32>
    %bx = memref.alloc() : memref<64x64xbf16>
    %ix = memref.alloc() : memref<64x128xi8>
    scf.for %r = %c0 to %c64 step %c1 {
      scf.for %c = %c0 to %c128 step %c1 {
        %e = arith.muli %r, %c128 : index
        %f = arith.addi %e, %c : index
        %m = arith.remui %f, %c251 : index
        %i = arith.index_cast %m : index to i32
        %b = arith.trunci %i : i32 to i8
        memref.store %b, %ix[%r, %c] : memref<64x128xi8>
        %lt = arith.cmpi ult, %c, %c64 : index
        scf.if %lt {
          %e2 = arith.muli %r, %c64 : index
          %f2 = arith.addi %e2, %c : index
          %m2 = arith.remui %f2, %c251 : index
          %i2 = arith.index_cast %m2 : index to i32
          %v = arith.sitofp %i2 : i32 to f32
          %h = arith.truncf %v : f32 to bf16
          memref.store %v, %fx[%r, %c] : memref<64x64xf32>
          memref.store %h, %bx[%r, %c] : memref<64x64xbf16>
        }
      }
    }
    %bo = memref.alloc() : memref<64x64xbf16>
    func.call @s32(%bx, %bo) : (memref<64x64xbf16>, memref<64x64xbf16>) -> ()
    %fo = memref.alloc() : memref<64x64xf32>
    func.call @s64(%fx, %fo) : (memref<64x64xf32>, memref<64x64xf32>) -> ()
    %io = memref.alloc() : memref<64x128xi8>
    func.call @s128(%ix, %io) : (memref<64x128xi8>, memref<64x128xi8>) -> ()
    %mo = memref.alloc() : memref<64x64xf32>
    func.call @s64_multicast(%fx, %mo) : (memref<64x64xf32>, memref<64x64xf32>) -> ()

    %n = scf.for %r = %c0 to %c64 step %c1 iter_args(%a = %c0) -> (index) {
      %m = scf.for %c = %c0 to %c64 step %c1 iter_args(%b = %a) -> (index) {
        %u = memref.load %bx[%r, %c] : memref<64x64xbf16>
        %w = memref.load %bo[%r, %c] : memref<64x64xbf16>
        %ne = arith.cmpf une, %u, %w : bf16
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "s32 mismatches: "
    vector.print %n : index
    %n2 = scf.for %r = %c0 to %c64 step %c1 iter_args(%a = %c0) -> (index) {
      %m = scf.for %c = %c0 to %c64 step %c1 iter_args(%b = %a) -> (index) {
        %u = memref.load %fx[%r, %c] : memref<64x64xf32>
        %w = memref.load %fo[%r, %c] : memref<64x64xf32>
        %ne = arith.cmpf une, %u, %w : f32
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "s64 mismatches: "
    vector.print %n2 : index
    %n3 = scf.for %r = %c0 to %c64 step %c1 iter_args(%a = %c0) -> (index) {
      %m = scf.for %c = %c0 to %c128 step %c1 iter_args(%b = %a) -> (index) {
        %u = memref.load %ix[%r, %c] : memref<64x128xi8>
        %w = memref.load %io[%r, %c] : memref<64x128xi8>
        %ne = arith.cmpi ne, %u, %w : i8
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "s128 mismatches: "
    vector.print %n3 : index
    %n4 = scf.for %r = %c0 to %c64 step %c1 iter_args(%a = %c0) -> (index) {
      %m = scf.for %c = %c0 to %c64 step %c1 iter_args(%b = %a) -> (index) {
        %u = memref.load %fx[%r, %c] : memref<64x64xf32>
        %w = memref.load %mo[%r, %c] : memref<64x64xf32>
        %ne = arith.cmpf une, %u, %w : f32
        %one = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %one : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "s64_multicast mismatches: "
    vector.print %n4 : index
    memref.dealloc %fx : memref<64x64xf32>
    memref.dealloc %bx : memref<64x64xbf16>
    memref.dealloc %ix : memref<64x128xi8>
    memref.dealloc %bo : memref<64x64xbf16>
    memref.dealloc %fo : memref<64x64xf32>
    memref.dealloc %io : memref<64x128xi8>
    memref.dealloc %mo : memref<64x64xf32>
    return
  }
}
