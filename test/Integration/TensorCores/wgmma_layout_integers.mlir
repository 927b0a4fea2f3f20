// Integers in JAX's Layout.WGMMA (SPEC section 7, plgpu.layout_cast): an i8
// block cast to the wgmma layout, widened to i32 (JAX's test_atomic_add and
// integer accumulators hold s32 in this layout), tripled, a row sum (in the
// wgmma_row layout) added back to every element, and the i32 result stored.
// The GPU keeps every value in the fragment layouts (no exchange through
// shared memory); the host backends ignore layouts.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" --mlir-print-ir-after=mgpu-assign-layouts -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAYOUTS
// REQUIRES: ptxas
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | %extract_ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// The s32 row sums stay in the lanes: wgmma_row, then back to fragments
// by a broadcast of the rows (an i32 reduction used to fall back to the
// strided layout, through shared memory).
// LAYOUTS: arith.extsi {{.*}}#mgpu.layout<wgmma>
// LAYOUTS: arith.muli {{.*}}#mgpu.layout<wgmma>
// LAYOUTS: vector.multi_reduction <add>, {{.*}}#mgpu.layout<wgmma_row>
// LAYOUTS: vector.broadcast {{.*}}#mgpu.layout<wgmma>
// LAYOUTS: arith.addi {{.*}}#mgpu.layout<wgmma>
// The 4 lanes of a quad combine their columns with xor shuffles 1 and 2.
// PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// PTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// CHECK: mismatches: 0

#b = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!in = memref<64x64xi8, #gpu.address_space<workgroup>>
!out = memref<64x64xi32, #gpu.address_space<workgroup>>
module {
  func.func @kernel(%x: memref<128x64xi8>, %o: memref<128x64xi32>) {
    mgpu.pallas_call grid [2] ins(%x : memref<128x64xi8>) outs(%o : memref<128x64xi32>)
        in_specs [#b] out_specs [#b] {
    ^bb0(%xs: !in, %os: !out):
      %c0 = arith.constant 0 : index
      %v8 = vector.load %xs[%c0, %c0] : !in, vector<64x64xi8>
      %f8 = mgpu.layout_cast %v8 : vector<64x64xi8> to #mgpu.layout<wgmma>
      %v = arith.extsi %f8 : vector<64x64xi8> to vector<64x64xi32>
      %three = arith.constant dense<3> : vector<64x64xi32>
      %t = arith.muli %v, %three : vector<64x64xi32>
      %zero = arith.constant dense<0> : vector<64xi32>
      %sum = vector.multi_reduction <add>, %t, %zero [1] : vector<64x64xi32> to vector<64xi32>
      %col = vector.shape_cast %sum : vector<64xi32> to vector<64x1xi32>
      %rows = vector.broadcast %col : vector<64x1xi32> to vector<64x64xi32>
      %r = arith.addi %t, %rows : vector<64x64xi32>
      vector.store %r, %os[%c0, %c0] : !out, vector<64x64xi32>
    }
    return
  }
  // ((i * 64 + j) * 37) mod 251 - 125: every i8 sign and size.
  func.func @input(%i: index, %j: index) -> i32 {
    %c64 = arith.constant 64 : index
    %c37 = arith.constant 37 : index
    %c251 = arith.constant 251 : index
    %c125 = arith.constant 125 : index
    %a = arith.muli %i, %c64 : index
    %b = arith.addi %a, %j : index
    %c = arith.muli %b, %c37 : index
    %d = arith.remui %c, %c251 : index
    %e = arith.subi %d, %c125 : index
    %v = arith.index_cast %e : index to i32
    return %v : i32
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %x = memref.alloc() : memref<128x64xi8>
    %o = memref.alloc() : memref<128x64xi32>
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = func.call @input(%i, %j) : (index, index) -> i32
        %t = arith.trunci %v : i32 to i8
        memref.store %t, %x[%i, %j] : memref<128x64xi8>
      }
    }
    func.call @kernel(%x, %o) : (memref<128x64xi8>, memref<128x64xi32>) -> ()
    %c3 = arith.constant 3 : i32
    %z = arith.constant 0 : i32
    %n = scf.for %i = %c0 to %c128 step %c1 iter_args(%a = %c0) -> index {
      %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%s = %z) -> i32 {
        %v = func.call @input(%i, %j) : (index, index) -> i32
        %t = arith.muli %v, %c3 : i32
        %s2 = arith.addi %s, %t : i32
        scf.yield %s2 : i32
      }
      %m = scf.for %j = %c0 to %c64 step %c1 iter_args(%b = %a) -> index {
        %v = func.call @input(%i, %j) : (index, index) -> i32
        %t = arith.muli %v, %c3 : i32
        %want = arith.addi %t, %row : i32
        %got = memref.load %o[%i, %j] : memref<128x64xi32>
        %ne = arith.cmpi ne, %got, %want : i32
        %inc = arith.select %ne, %c1, %c0 : index
        %b2 = arith.addi %b, %inc : index
        scf.yield %b2 : index
      }
      scf.yield %m : index
    }
    vector.print str "mismatches: "
    vector.print %n : index
    memref.dealloc %x : memref<128x64xi8>
    memref.dealloc %o : memref<128x64xi32>
    return
  }
}
