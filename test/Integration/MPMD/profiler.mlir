// The in-kernel profiler on an mpmd_map (plgpu.kernel / core_map with
// CompilerParams(profile_space=, profile_dir=)): two mesh/function pairs,
// the first one program of two Pallas threads (o1 = x + 1, a half each),
// the second two programs of one (o2 = 2 x, a half each). Each region's
// Pallas threads get their own traces (the first region's first): 4
// threads, each timing the whole body (named after the function) and its
// region's scope. The numbers are the same as without profiling.
// RUN: rm -rf %t && mkdir -p %t/cpu %t/emulate %t/all
// RUN: cd %t/cpu && mgpu-run --backend=cpu %s | FileCheck %s
// RUN: %python %S/../Kernels/check_profile_trace.py %t/cpu/profile/fused-0.json --threads 4 --scopes fused,add --thread-scopes 3=fused,double --thread-scopes 4=fused,double | FileCheck %s --check-prefix=TRACE
// RUN: cd %t/emulate && mgpu-run --backend=emulate %s | FileCheck %s
// RUN: %python %S/../Kernels/check_profile_trace.py %t/emulate/profile/fused-0.json --threads 4 --scopes fused,add --thread-scopes 3=fused,double --thread-scopes 4=fused,double | FileCheck %s --check-prefix=TRACE
// RUN: cd %t/all && %run_on_backends %s

// CHECK: mismatches: 0
// TRACE: trace ok: 4 threads

#m1 = #mgpu.mesh<grid = [1], grid_names = ["a"], num_threads = 2, thread_name = "t">
#m2 = #mgpu.mesh<grid = [2], grid_names = ["b"]>
#p = #mgpu.compiler_params<profile_space = 2, profile_dir = "profile">

module {
  func.func @fused(%x: memref<256xf32>, %o1: memref<256xf32>,
                   %o2: memref<256xf32>) {
    mgpu.mpmd_map meshes [#m1, #m2] ins(%x : memref<256xf32>)
        outs(%o1, %o2 : memref<256xf32>, memref<256xf32>) params #p {
    ^bb0(%xa: memref<256xf32>, %a: memref<256xf32>, %b: memref<256xf32>):
      %t = mgpu.axis_index "t"
      %c128 = arith.constant 128 : index
      %at = arith.muli %t, %c128 : index
      mgpu.trace_scope "add" {
        %v = vector.load %xa[%at] : memref<256xf32>, vector<128xf32>
        %one = arith.constant dense<1.0> : vector<128xf32>
        %r = arith.addf %v, %one : vector<128xf32>
        vector.store %r, %a[%at] : memref<256xf32>, vector<128xf32>
      }
    }, {
    ^bb0(%xa: memref<256xf32>, %a: memref<256xf32>, %b: memref<256xf32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      mgpu.trace_scope "double" {
        %v = vector.load %xa[%at] : memref<256xf32>, vector<128xf32>
        %r = arith.addf %v, %v : vector<128xf32>
        vector.store %r, %b[%at] : memref<256xf32>, vector<128xf32>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 256 : index
    %f1 = arith.constant 1.0 : f32
    %x = memref.alloc() : memref<256xf32>
    %o1 = memref.alloc() : memref<256xf32>
    %o2 = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    func.call @fused(%x, %o1, %o2)
        : (memref<256xf32>, memref<256xf32>, memref<256xf32>) -> ()
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x[%i] : memref<256xf32>
      %e1 = arith.addf %v, %f1 : f32
      %e2 = arith.addf %v, %v : f32
      %g1 = memref.load %o1[%i] : memref<256xf32>
      %g2 = memref.load %o2[%i] : memref<256xf32>
      %d1 = arith.cmpf une, %g1, %e1 : f32
      %d2 = arith.cmpf une, %g2, %e2 : f32
      %d = arith.ori %d1, %d2 : i1
      %inc = arith.select %d, %one, %zero : i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    return
  }
}
