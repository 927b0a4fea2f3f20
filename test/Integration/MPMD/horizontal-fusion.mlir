// Horizontal fusion: four unrelated elementwise kernels with different grids
// in one mpmd_map, which JAX refuses ("Lowering multiple mesh/function pairs
// is not supported by the Mosaic GPU backend"). On the GPU they share one
// CTA-partitioned launch of 1 + 2 + 3 + 4 CTAs (--mgpu-lower-to-gpu), here
// run in interpret mode and on the GPU emulator; the references are scalar
// loops in @main.
// RUN: %run_on_backends %s
// RUN: mgpu-opt %s --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu | FileCheck %s --check-prefix=LAUNCH

// CHECK: mismatches: 0
// LAUNCH-COUNT-1: gpu.launch
// LAUNCH-NOT: gpu.launch

#g1 = #mgpu.mesh<grid = [1], grid_names = ["a"]>
#g2 = #mgpu.mesh<grid = [2], grid_names = ["b"]>
#g3 = #mgpu.mesh<grid = [3], grid_names = ["c"]>
#g4 = #mgpu.mesh<grid = [4], grid_names = ["d"]>

module {
  // Kernel k (1..4) covers k blocks of 128 elements of its own array:
  // o1 = x + 1, o2 = 2 x, o3 = x * x, o4 = x - program id.
  func.func @fused(%x: memref<512xf32>, %o1: memref<512xf32>,
                   %o2: memref<512xf32>, %o3: memref<512xf32>,
                   %o4: memref<512xf32>) {
    mgpu.mpmd_map meshes [#g1, #g2, #g3, #g4]
        ins(%x : memref<512xf32>)
        outs(%o1, %o2, %o3, %o4 : memref<512xf32>, memref<512xf32>,
                                  memref<512xf32>, memref<512xf32>) {
    ^bb0(%xa: memref<512xf32>, %a: memref<512xf32>, %b: memref<512xf32>,
         %c: memref<512xf32>, %d: memref<512xf32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      %v = vector.load %xa[%at] : memref<512xf32>, vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.store %r, %a[%at] : memref<512xf32>, vector<128xf32>
    }, {
    ^bb0(%xa: memref<512xf32>, %a: memref<512xf32>, %b: memref<512xf32>,
         %c: memref<512xf32>, %d: memref<512xf32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      %v = vector.load %xa[%at] : memref<512xf32>, vector<128xf32>
      %r = arith.addf %v, %v : vector<128xf32>
      vector.store %r, %b[%at] : memref<512xf32>, vector<128xf32>
    }, {
    ^bb0(%xa: memref<512xf32>, %a: memref<512xf32>, %b: memref<512xf32>,
         %c: memref<512xf32>, %d: memref<512xf32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      %v = vector.load %xa[%at] : memref<512xf32>, vector<128xf32>
      %r = arith.mulf %v, %v : vector<128xf32>
      vector.store %r, %c[%at] : memref<512xf32>, vector<128xf32>
    }, {
    ^bb0(%xa: memref<512xf32>, %a: memref<512xf32>, %b: memref<512xf32>,
         %c: memref<512xf32>, %d: memref<512xf32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      %v = vector.load %xa[%at] : memref<512xf32>, vector<128xf32>
      %ii = arith.index_cast %i : index to i32
      %if = arith.sitofp %ii : i32 to f32
      %p = vector.broadcast %if : f32 to vector<128xf32>
      %r = arith.subf %v, %p : vector<128xf32>
      vector.store %r, %d[%at] : memref<512xf32>, vector<128xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 512 : index
    %zero = arith.constant 0 : i32
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %x = memref.alloc() : memref<512xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c128 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      %q = arith.constant 0.25 : f32
      %v = arith.mulf %mf, %q : f32
      memref.store %v, %x[%i] : memref<512xf32>
    }
    %o1 = memref.alloc() : memref<512xf32>
    %o2 = memref.alloc() : memref<512xf32>
    %o3 = memref.alloc() : memref<512xf32>
    %o4 = memref.alloc() : memref<512xf32>
    linalg.fill ins(%f0 : f32) outs(%o1 : memref<512xf32>)
    linalg.fill ins(%f0 : f32) outs(%o2 : memref<512xf32>)
    linalg.fill ins(%f0 : f32) outs(%o3 : memref<512xf32>)
    linalg.fill ins(%f0 : f32) outs(%o4 : memref<512xf32>)
    func.call @fused(%x, %o1, %o2, %o3, %o4)
        : (memref<512xf32>, memref<512xf32>, memref<512xf32>, memref<512xf32>,
           memref<512xf32>) -> ()
    // Kernel k writes its first k blocks and leaves the rest zero.
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x[%i] : memref<512xf32>
      %blk = arith.divui %i, %c128 : index
      %bi = arith.index_cast %blk : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      %in1 = arith.cmpi ult, %blk, %c1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %in2 = arith.cmpi ult, %blk, %c2 : index
      %in3 = arith.cmpi ult, %blk, %c3 : index
      %in4 = arith.cmpi ult, %blk, %c4 : index
      %e1 = arith.addf %v, %f1 : f32
      %e2 = arith.addf %v, %v : f32
      %e3 = arith.mulf %v, %v : f32
      %e4 = arith.subf %v, %bf : f32
      %w1 = arith.select %in1, %e1, %f0 : f32
      %w2 = arith.select %in2, %e2, %f0 : f32
      %w3 = arith.select %in3, %e3, %f0 : f32
      %w4 = arith.select %in4, %e4, %f0 : f32
      %g1 = memref.load %o1[%i] : memref<512xf32>
      %g2 = memref.load %o2[%i] : memref<512xf32>
      %g3 = memref.load %o3[%i] : memref<512xf32>
      %g4 = memref.load %o4[%i] : memref<512xf32>
      %n1 = arith.cmpf une, %g1, %w1 : f32
      %n2 = arith.cmpf une, %g2, %w2 : f32
      %n3 = arith.cmpf une, %g3, %w3 : f32
      %n4 = arith.cmpf une, %g4, %w4 : f32
      %a = arith.ori %n1, %n2 : i1
      %b = arith.ori %n3, %n4 : i1
      %any = arith.ori %a, %b : i1
      %inc = arith.extui %any : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    memref.dealloc %x : memref<512xf32>
    memref.dealloc %o1 : memref<512xf32>
    memref.dealloc %o2 : memref<512xf32>
    memref.dealloc %o3 : memref<512xf32>
    memref.dealloc %o4 : memref<512xf32>
    return
  }
}
