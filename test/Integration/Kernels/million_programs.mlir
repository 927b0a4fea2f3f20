// A grid of 2^20 programs, each adding one to one element: the emulator
// runs its 2^27 CUDA threads as fibers on a pool of one host thread per core,
// so it takes seconds where one host thread per CUDA thread took well over
// 200 s (4096 programs took 21 s); every backend gives the same numbers.
// Expected time: the emulator about 25 s of CPU, so about 13 s on 2 idle
// cores (more on a shared machine); the CPU backend under 1 s.
// One schedule: this test measures the emulator's scale, and its copies
// are one element each (the seeded schedules are exercised by the pipelined
// kernels; under `lit -D emulate_schedules=K` this one would take K times as
// long).
// RUN: %run_on_backends %s --match-full-lines -- --emulate-schedules=1
// FUZZ-SKIP: utils/fuzz.py leaves it out (under the sanitizers it outlasts
// the fuzzer's 60 s timeout).

// CHECK: mismatches: 0
// CHECK-NEXT: 1.04858e+06

#block = #mgpu.block_spec<shape = [1], index_map = affine_map<(i) -> (i)>>
#params = #mgpu.compiler_params<dimension_semantics = [parallel]>

module {
  func.func @add_one(%x: memref<1048576xf32>, %o: memref<1048576xf32>) {
    mgpu.pallas_call grid [1048576]
        ins(%x : memref<1048576xf32>) outs(%o : memref<1048576xf32>)
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
    %n = arith.constant 1048576 : index
    %x = memref.alloc() : memref<1048576xf32>
    %o = memref.alloc() : memref<1048576xf32>
    scf.for %i = %c0 to %n step %c1 {
      %k = arith.index_cast %i : index to i32
      %f = arith.sitofp %k : i32 to f32
      memref.store %f, %x[%i] : memref<1048576xf32>
    }
    func.call @add_one(%x, %o)
        : (memref<1048576xf32>, memref<1048576xf32>) -> ()
    // out[i] = i + 1 (exact in f32 up to 2^24).
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> index {
      %got = memref.load %o[%i] : memref<1048576xf32>
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
    %last = arith.constant 1048575 : index
    %v = memref.load %o[%last] : memref<1048576xf32>
    vector.print %v : f32
    return
  }
}
