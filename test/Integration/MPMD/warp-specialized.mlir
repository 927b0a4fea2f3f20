// Warp specialization inside one CTA: two meshes with the same grid, so
// --mgpu-lower-to-gpu gives each CTA two warpgroups, one per region. The
// loader region copies its block from global memory into shared-memory
// scratch and signals; the compute region waits on the semaphore and works
// from shared memory. (Each program uses its own row of the scratch, so the
// program also means the same in interpret mode, where scratch is one host
// buffer.) Checked in interpret mode and on the GPU emulator against scalar
// references in @main; the lowering is checked to put both regions in one
// CTA of 256 threads.
// RUN: mgpu-run %s -e main --backend=cpu | FileCheck %s
// RUN: mgpu-run %s -e main --backend=emulate | FileCheck %s
// RUN: mgpu-opt %s --mgpu-lower-to-gpu --canonicalize | FileCheck %s --check-prefix=WS

// CHECK: mismatches: 0
// WS: %[[C256:.*]] = arith.constant 256 : index
// WS: gpu.launch_func {{.*}} blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[C256]],

#loader = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#compute = #mgpu.mesh<grid = [4], grid_names = ["i"]>

module {
  func.func @pipeline(%x: memref<512xf32>, %o: memref<512xf32>) {
    mgpu.mpmd_map meshes [#loader, #compute]
        ins(%x : memref<512xf32>) outs(%o : memref<512xf32>)
        scratch [memref<4x128xf32, #gpu.address_space<workgroup>>, memref<4xi32>] {
    ^bb0(%xa: memref<512xf32>, %oa: memref<512xf32>,
         %stage: memref<4x128xf32, #gpu.address_space<workgroup>>,
         %ready: memref<4xi32>):
      %i = mgpu.program_id 0
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      %c0 = arith.constant 0 : index
      %v = vector.load %xa[%at] : memref<512xf32>, vector<128xf32>
      vector.store %v, %stage[%i, %c0] : memref<4x128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %one = arith.constant 1 : i32
      mgpu.semaphore_signal %ready[%i], %one : memref<4xi32>
    }, {
    ^bb0(%xa: memref<512xf32>, %oa: memref<512xf32>,
         %stage: memref<4x128xf32, #gpu.address_space<workgroup>>,
         %ready: memref<4xi32>):
      %i = mgpu.program_id 0
      %one = arith.constant 1 : i32
      mgpu.semaphore_wait %ready[%i], %one : memref<4xi32>
      %c0 = arith.constant 0 : index
      %v = vector.load %stage[%i, %c0] : memref<4x128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
      %three = arith.constant dense<3.0> : vector<128xf32>
      %half = arith.constant dense<0.5> : vector<128xf32>
      %t = arith.mulf %v, %three : vector<128xf32>
      %r = arith.addf %t, %half : vector<128xf32>
      %c128 = arith.constant 128 : index
      %at = arith.muli %i, %c128 : index
      vector.store %r, %oa[%at] : memref<512xf32>, vector<128xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 512 : index
    %zero = arith.constant 0 : i32
    %f3 = arith.constant 3.0 : f32
    %fh = arith.constant 0.5 : f32
    %x = memref.alloc() : memref<512xf32>
    %o = memref.alloc() : memref<512xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<512xf32>
    }
    func.call @pipeline(%x, %o) : (memref<512xf32>, memref<512xf32>) -> ()
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i32 {
      %v = memref.load %x[%i] : memref<512xf32>
      %t = arith.mulf %v, %f3 : f32
      %want = arith.addf %t, %fh : f32
      %got = memref.load %o[%i] : memref<512xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %count, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "mismatches: "
    vector.print %bad : i32
    memref.dealloc %x : memref<512xf32>
    memref.dealloc %o : memref<512xf32>
    return
  }
}
