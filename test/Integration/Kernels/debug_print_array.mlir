// pl.debug_print of an array (mgpu.debug_print) on every backend. @big is
// JAX's test_print_array (tests/pallas/mosaic_gpu_test.py:2159): a
// 2x1x64x64 block of x = arange, printed whole, one line per element with
// its indices; one line is checked, and the count. @small prints a 2x3
// block of floats and one of negative integers, every line checked. The
// order of the lines differs between backends (on the GPU each lane prints
// the elements it holds), so the checks are unordered.
// RUN: %run_on_backends %s --match-full-lines
// RUN: mgpu-run %s -e main --backend=cpu | grep -c "^x: " | FileCheck %s --check-prefix=COUNT
// RUN: mgpu-run %s -e main --backend=emulate | grep -c "^x: " | FileCheck %s --check-prefix=COUNT
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=warning

// COUNT: 8192
// PTX-LABEL: .entry small_kernel(
// PTX: call.uni (retval0), vprintf,
// PTXAS: Compiling entry function 'small_kernel' for 'sm_90a'

// CHECK-DAG: x: [1, 0, 43, 23]: 6871
// CHECK-DAG: x: [0, 0, 0, 0]: 0
// CHECK-DAG: x: [1, 0, 63, 63]: 8191
// CHECK-DAG: f = [0, 0]: 0.500000 (100%)
// CHECK-DAG: f = [0, 1]: 1.500000 (100%)
// CHECK-DAG: f = [0, 2]: 2.500000 (100%)
// CHECK-DAG: f = [1, 0]: 3.500000 (100%)
// CHECK-DAG: f = [1, 1]: 4.500000 (100%)
// CHECK-DAG: f = [1, 2]: 5.500000 (100%)
// CHECK-DAG: {n} [0]: -1
// CHECK-DAG: {n} [1]: -2
// CHECK-DAG: {n} [2]: -3
// CHECK-DAG: {n} [3]: -4

#whole = #mgpu.block_spec<shape = [2, 1, 64, 64], index_map = affine_map<(i) -> (0, 0, 0, 0)>>
#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module {
  func.func @big(%x: memref<2x1x64x64xi32>, %o: memref<2x1x64x64xi32>) {
    mgpu.pallas_call grid [1] ins(%x : memref<2x1x64x64xi32>) outs(%o : memref<2x1x64x64xi32>)
        in_specs [#whole] out_specs [#whole] {
    ^bb0(%xs: memref<2x1x64x64xi32, #gpu.address_space<workgroup>>,
         %os: memref<2x1x64x64xi32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %v = vector.load %xs[%c0, %c0, %c0, %c0]
          : memref<2x1x64x64xi32, #gpu.address_space<workgroup>>, vector<2x1x64x64xi32>
      mgpu.debug_print "x: {}" %v : vector<2x1x64x64xi32>
    }
    return
  }

  func.func @small(%o: memref<4xi32>) {
    mgpu.mpmd_map meshes [#one] outs(%o : memref<4xi32>) {
    ^bb0(%og: memref<4xi32>):
      %f = arith.constant dense<[[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]]> : vector<2x3xf32>
      mgpu.debug_print "f = {} (100%)" %f : vector<2x3xf32>
      %n = arith.constant dense<[-1, -2, -3, -4]> : vector<4xi32>
      mgpu.debug_print "{{n}} {}" %n : vector<4xi32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %x = memref.alloc() : memref<2x1x64x64xi32>
    scf.for %a = %c0 to %c2 step %c1 {
      scf.for %r = %c0 to %c64 step %c1 {
        scf.for %c = %c0 to %c64 step %c1 {
          %k0 = arith.muli %a, %c64 : index
          %k1 = arith.addi %k0, %r : index
          %k2 = arith.muli %k1, %c64 : index
          %k = arith.addi %k2, %c : index
          %ki = arith.index_cast %k : index to i32
          memref.store %ki, %x[%a, %c0, %r, %c] : memref<2x1x64x64xi32>
        }
      }
    }
    %o = memref.alloc() : memref<2x1x64x64xi32>
    func.call @big(%x, %o) : (memref<2x1x64x64xi32>, memref<2x1x64x64xi32>) -> ()
    %o2 = memref.alloc() : memref<4xi32>
    func.call @small(%o2) : (memref<4xi32>) -> ()
    return
  }
}
