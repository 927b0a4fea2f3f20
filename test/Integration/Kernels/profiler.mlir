// JAX's in-kernel profiler (CompilerParams profile_space / profile_dir):
// a kernel of 4 programs with two Pallas threads each (mesh num_threads =
// 2), out = x * x + 1, its threads timing the scopes "load" and "compute"
// (jax.named_scope). Each launch writes profile/<kernel>-<n>.json: 8
// threads, each entering the implicit whole-body scope (named after the
// function) then the two scopes, properly nested. profile_space = 1 leaves
// room for two events only: the rest are dropped, and the trace closes the
// scopes left open. The numbers are the same with and without profiling.
// RUN: rm -rf %t && mkdir -p %t/cpu %t/emulate %t/all
// RUN: cd %t/cpu && mgpu-run --backend=cpu %s | FileCheck %s --match-full-lines
// RUN: %python %S/check_profile_trace.py %t/cpu/profile/profiled-0.json --threads 8 --scopes profiled,load,compute | FileCheck %s --check-prefix=TRACE
// RUN: %python %S/check_profile_trace.py %t/cpu/profile/profiled-1.json --threads 8 --scopes profiled,load,compute | FileCheck %s --check-prefix=TRACE
// RUN: %python %S/check_profile_trace.py %t/cpu/profile/truncated-0.json --threads 8 --scopes truncated,load | FileCheck %s --check-prefix=TRACE
// RUN: cd %t/emulate && mgpu-run --backend=emulate %s | FileCheck %s --match-full-lines
// RUN: %python %S/check_profile_trace.py %t/emulate/profile/profiled-0.json --threads 8 --scopes profiled,load,compute | FileCheck %s --check-prefix=TRACE
// RUN: %python %S/check_profile_trace.py %t/emulate/profile/profiled-1.json --threads 8 --scopes profiled,load,compute | FileCheck %s --check-prefix=TRACE
// RUN: %python %S/check_profile_trace.py %t/emulate/profile/truncated-0.json --threads 8 --scopes truncated,load | FileCheck %s --check-prefix=TRACE
// No other file, and no temporary left behind.
// RUN: ls %t/cpu/profile %t/emulate/profile | FileCheck %s --check-prefix=FILES
// Every backend this machine has (the GPU's trace too, where there is one).
// RUN: cd %t/all && %run_on_backends %s --match-full-lines
// RUN: %python %S/check_profile_trace.py %t/all/profile/profiled-1.json --threads 8 --scopes profiled,load,compute | FileCheck %s --check-prefix=TRACE

// CHECK: wrong: 0
// CHECK-NEXT: differ: 0
// CHECK-NEXT: o[5] = 8.5625

// TRACE: trace ok: 8 threads

// FILES: {{.*}}cpu/profile:
// FILES-NEXT: profiled-0.json
// FILES-NEXT: profiled-1.json
// FILES-NEXT: truncated-0.json
// FILES-EMPTY:
// FILES-NEXT: {{.*}}emulate/profile:
// FILES-NEXT: profiled-0.json
// FILES-NEXT: profiled-1.json
// FILES-NEXT: truncated-0.json
// FILES-NOT: {{.}}

#mesh = #mgpu.mesh<grid = [4], grid_names = ["i"], num_threads = 2, thread_name = "wg">
#block = #mgpu.block_spec<shape = [256], index_map = affine_map<(i, t) -> (i)>>
#profiled = #mgpu.compiler_params<profile_space = 3, profile_dir = "profile">
#truncated = #mgpu.compiler_params<profile_space = 1, profile_dir = "profile">

module {
  func.func @plain(%x: memref<1024xf32>, %o: memref<1024xf32>) {
    mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
        in_specs [#block] out_specs [#block] mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      // This thread's half of the block.
      %wg = mgpu.axis_index "wg"
      %c128 = arith.constant 128 : index
      %start = arith.muli %wg, %c128 : index
      %v = mgpu.trace_scope "load" {
        %r = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
            : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.yield %r : vector<128xf32>
      } -> vector<128xf32>
      mgpu.trace_scope "compute" {
        %sq = arith.mulf %v, %v : vector<128xf32>
        %y = arith.addf %sq, %one : vector<128xf32>
        vector.transfer_write %y, %os[%start] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @profiled(%x: memref<1024xf32>, %o: memref<1024xf32>) {
    mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
        in_specs [#block] out_specs [#block] params #profiled mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      // This thread's half of the block.
      %wg = mgpu.axis_index "wg"
      %c128 = arith.constant 128 : index
      %start = arith.muli %wg, %c128 : index
      %v = mgpu.trace_scope "load" {
        %r = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
            : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.yield %r : vector<128xf32>
      } -> vector<128xf32>
      mgpu.trace_scope "compute" {
        %sq = arith.mulf %v, %v : vector<128xf32>
        %y = arith.addf %sq, %one : vector<128xf32>
        vector.transfer_write %y, %os[%start] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  func.func @truncated(%x: memref<1024xf32>, %o: memref<1024xf32>) {
    mgpu.pallas_call grid [4, 2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
        in_specs [#block] out_specs [#block] params #truncated mesh #mesh {
    ^bb0(%xs: memref<256xf32, #gpu.address_space<workgroup>>,
         %os: memref<256xf32, #gpu.address_space<workgroup>>):
      %pad = arith.constant 0.0 : f32
      %one = arith.constant dense<1.0> : vector<128xf32>
      // This thread's half of the block.
      %wg = mgpu.axis_index "wg"
      %c128 = arith.constant 128 : index
      %start = arith.muli %wg, %c128 : index
      %v = mgpu.trace_scope "load" {
        %r = vector.transfer_read %xs[%start], %pad {in_bounds = [true]}
            : memref<256xf32, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.yield %r : vector<128xf32>
      } -> vector<128xf32>
      mgpu.trace_scope "compute" {
        %sq = arith.mulf %v, %v : vector<128xf32>
        %y = arith.addf %sq, %one : vector<128xf32>
        vector.transfer_write %y, %os[%start] {in_bounds = [true]}
            : vector<128xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      }
    }
    return
  }

  // x[i] = (i mod 37) / 4 - 4, so x * x + 1 is exact in f32.
  func.func @input(%i: index) -> f32 {
    %c37 = arith.constant 37 : index
    %quarter = arith.constant 0.25 : f32
    %four = arith.constant 4.0 : f32
    %m = arith.remui %i, %c37 : index
    %mi = arith.index_cast %m : index to i32
    %mf = arith.sitofp %mi : i32 to f32
    %q = arith.mulf %mf, %quarter : f32
    %v = arith.subf %q, %four : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1024 : index
    %f1 = arith.constant 1.0 : f32
    %garbage = arith.constant -7.0 : f32
    %x = memref.alloc() : memref<1024xf32>
    %plain = memref.alloc() : memref<1024xf32>
    %prof0 = memref.alloc() : memref<1024xf32>
    %prof1 = memref.alloc() : memref<1024xf32>
    %trunc = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %v = func.call @input(%i) : (index) -> f32
      memref.store %v, %x[%i] : memref<1024xf32>
      memref.store %garbage, %plain[%i] : memref<1024xf32>
      memref.store %garbage, %prof0[%i] : memref<1024xf32>
      memref.store %garbage, %prof1[%i] : memref<1024xf32>
      memref.store %garbage, %trunc[%i] : memref<1024xf32>
    }
    func.call @plain(%x, %plain) : (memref<1024xf32>, memref<1024xf32>) -> ()
    func.call @profiled(%x, %prof0) : (memref<1024xf32>, memref<1024xf32>) -> ()
    func.call @profiled(%x, %prof1) : (memref<1024xf32>, memref<1024xf32>) -> ()
    func.call @truncated(%x, %trunc) : (memref<1024xf32>, memref<1024xf32>) -> ()

    // The reference, and the profiled results against the plain one.
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %wrong, %differ = scf.for %i = %c0 to %n step %c1
        iter_args(%w = %zero, %d = %zero) -> (i32, i32) {
      %v = memref.load %x[%i] : memref<1024xf32>
      %sq = arith.mulf %v, %v : f32
      %ref = arith.addf %sq, %f1 : f32
      %p = memref.load %plain[%i] : memref<1024xf32>
      %bad = arith.cmpf une, %p, %ref : f32
      %wb = arith.select %bad, %one, %zero : i32
      %w1 = arith.addi %w, %wb : i32
      %a = memref.load %prof0[%i] : memref<1024xf32>
      %b = memref.load %prof1[%i] : memref<1024xf32>
      %c = memref.load %trunc[%i] : memref<1024xf32>
      %da = arith.cmpf une, %a, %p : f32
      %db = arith.cmpf une, %b, %p : f32
      %dc = arith.cmpf une, %c, %p : f32
      %dab = arith.ori %da, %db : i1
      %dabc = arith.ori %dab, %dc : i1
      %di = arith.select %dabc, %one, %zero : i32
      %d1 = arith.addi %d, %di : i32
      scf.yield %w1, %d1 : i32, i32
    }
    vector.print str "wrong: "
    vector.print %wrong : i32
    vector.print str "differ: "
    vector.print %differ : i32
    %c5 = arith.constant 5 : index
    %o5 = memref.load %plain[%c5] : memref<1024xf32>
    vector.print str "o[5] = "
    vector.print %o5 : f32
    return
  }
}
