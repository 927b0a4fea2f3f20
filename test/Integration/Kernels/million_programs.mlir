// A grid of 2^17 programs, each adding one to one element: the emulator
// runs their 2^24 CUDA threads as fibers on a pool of one host thread per
// core (one host thread per CUDA thread took well over 200 s for 4096
// programs' worth); every backend gives the same numbers. The grid of 2^20
// programs that the file is named for is bench/emulator-scale.sh: a
// measurement, not a test (77 s wall, 150 s of CPU with the checks on 2
// cores, 2026-12-07; this grid takes an eighth of that).
// One schedule: its copies are one element each (the seeded schedules are
// exercised by the pipelined kernels).
// RUN: %run_on_backends %s --match-full-lines -- --emulate-schedules=1
// FUZZ-SKIP: utils/fuzz.py leaves it out (under the sanitizers it outlasts
// the fuzzer's 60 s timeout).

// CHECK: mismatches: 0
// CHECK-NEXT: 131072

#block = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @add_one(%x: memref<131072xf32>, %o: memref<131072xf32>) {
    mgpu.pallas_call grid [131072]
        ins(%x : memref<131072xf32>) outs(%o : memref<131072xf32>)
        in_specs [#block] out_specs [#block] params #params {
    ^bb0(%xs: memref<1xf32, #gpu.address_space<workgroup>>,
         %os: memref<1xf32, #gpu.address_space<workgroup>>):
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %v = memref.load %xs[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %v, %one : f32
      memref.store %r, %os[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 131072 : index
    %x = memref.alloc() : memref<131072xf32>
    %o = memref.alloc() : memref<131072xf32>
    scf.for %i = %c0 to %n step %c1 {
      %k = arith.index_cast %i : index to i32
      %f = arith.sitofp %k : i32 to f32
      memref.store %f, %x[%i] : memref<131072xf32>
    }
    func.call @add_one(%x, %o)
        : (memref<131072xf32>, memref<131072xf32>) -> ()
    // out[i] = i + 1 (exact in f32).
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
      %got = memref.load %o[%i] : memref<131072xf32>
      %k = arith.index_cast %i : index to i32
      %f = arith.sitofp %k : i32 to f32
      %one = arith.constant 1.0 : f32
      %want = arith.addf %f, %one : f32
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %next = arith.addi %count, %inc : index
      scf.yield %next : index
    }
    vector.print str "mismatches: "
    vector.print %bad : index
    %last = arith.constant 131071 : index
    %v = memref.load %o[%last] : memref<131072xf32>
    vector.print %v : f32
    return
  }
}
