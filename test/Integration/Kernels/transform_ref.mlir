// plgpu.transform_ref / transpose_ref inside a kernel: a view of the ref,
// here `memref.transpose` of a staged 64x32 block read as 32x64 (JAX's
// `plgpu.transpose_ref(x_smem, (1, 0))[...]`). Every element is checked
// against the host's own transpose.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// CHECK: mismatches: 0

#ws = #gpu.address_space<workgroup>
#b = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(i) -> (0, 0)>>
#o = #mgpu.block_spec<shape = [32, 64], index_map = affine_map<(i) -> (0, 0)>>
module {
  func.func @k(%x: memref<64x32xf32>, %o: memref<32x64xf32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<64x32xf32>) outs(%o : memref<32x64xf32>) in_specs [#b] out_specs [#o] {
    ^bb0(%xs: memref<64x32xf32, #ws>, %os: memref<32x64xf32, #ws>):
      %c0 = arith.constant 0 : index
      %t = memref.transpose %xs (i, j) -> (j, i) : memref<64x32xf32, #ws> to memref<32x64xf32, strided<[1, 32]>, #ws>
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x64xf32, strided<[1, 32]>, #ws>, vector<32x64xf32>
      vector.transfer_write %v, %os[%c0, %c0] {in_bounds = [true, true]} : vector<32x64xf32>, memref<32x64xf32, #ws>
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %x = memref.alloc() : memref<64x32xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %f = affine.apply affine_map<(i, j) -> (i * 32 + j)>(%i, %j)
        %fi = arith.index_cast %f : index to i32
        %ff = arith.sitofp %fi : i32 to f32
        memref.store %ff, %x[%i, %j] : memref<64x32xf32>
      }
    }
    %o = memref.alloc() : memref<32x64xf32>
    func.call @k(%x, %o) : (memref<64x32xf32>, memref<32x64xf32>) -> ()
    %zero = arith.constant 0 : index
    %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%b = %zero) -> (index) {
      %r = scf.for %j = %c0 to %c64 step %c1 iter_args(%k = %b) -> (index) {
        %g = memref.load %o[%i, %j] : memref<32x64xf32>
        %w = memref.load %x[%j, %i] : memref<64x32xf32>
        %ok = arith.cmpf oeq, %g, %w : f32
        %kn = arith.addi %k, %c1 : index
        %s = arith.select %ok, %k, %kn : index
        scf.yield %s : index
      }
      scf.yield %r : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    memref.dealloc %x : memref<64x32xf32>
    memref.dealloc %o : memref<32x64xf32>
    return
  }
}
