// Interpret mode runs a grid of 2^20 steps in a stack of 2 MiB: nothing a
// step allocates outlives the step. Only the CPU backend: the stack limit is
// the point here, and Kernels/million_programs.mlir runs a grid of 2^20
// programs on the emulator too.
// RUN: bash -c 'ulimit -s 2048 && mgpu-run %s -e main --backend=cpu' | FileCheck %s --match-full-lines

#block = #mgpu.block_spec<shape = [16], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @scale(%x: memref<16777216xf32>, %o: memref<16777216xf32>) {
    mgpu.pallas_call grid [1048576]
        ins(%x : memref<16777216xf32>) outs(%o : memref<16777216xf32>)
        in_specs [#block] out_specs [#block] params #params {
    ^bb0(%xs: memref<16xf32, #gpu.address_space<workgroup>>,
         %os: memref<16xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %three = arith.constant dense<3.0> : vector<16xf32>
      %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]}
          : memref<16xf32, #gpu.address_space<workgroup>>, vector<16xf32>
      %r = arith.mulf %v, %three : vector<16xf32>
      vector.transfer_write %r, %os[%c0] {in_bounds = [true]}
          : vector<16xf32>, memref<16xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7_i32 = arith.constant 7 : i32
    %n = arith.constant 16777216 : index
    %x = memref.alloc() : memref<16777216xf32>
    %o = memref.alloc() : memref<16777216xf32>
    scf.for %i = %c0 to %n step %c1 {
      %k = arith.index_cast %i : index to i32
      %m = arith.andi %k, %c7_i32 : i32
      %f = arith.sitofp %m : i32 to f32
      memref.store %f, %x[%i] : memref<16777216xf32>
    }
    func.call @scale(%x, %o) : (memref<16777216xf32>, memref<16777216xf32>) -> ()
    // out[i] = 3 * (i mod 8): the sum is 2^21 * 3 * 28 = 176160768.
    %zero = arith.constant 0.0 : f64
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %o[%i] : memref<16777216xf32>
      %d = arith.extf %v : f32 to f64
      %a = arith.addf %acc, %d : f64
      scf.yield %a : f64
    }
    %last = arith.constant 16777215 : index
    %l = memref.load %o[%last] : memref<16777216xf32>
    // CHECK: sum: 1.76161e+08
    vector.print str "sum: "
    vector.print %sum : f64
    // CHECK-NEXT: last: 21
    vector.print str "last: "
    vector.print %l : f32
    return
  }
}
