// Programmatic dependent launch (plgpu.griddepcontrol_wait,
// plgpu.griddepcontrol_launch_dependents) on every backend, in the shape of
// JAX's test_griddepcontrol_multi_kernel (tests/pallas/mosaic_gpu_test.py
// :4419): kernel a writes x + 1 and lets its dependents launch; kernel b
// waits for it and writes twice what a wrote: out = (x + 1) * 2. The
// kernels run in order on every backend, and the ops keep the memory
// accesses around them in place.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning
// Before sm_90 there is no griddepcontrol, and none is emitted.
// RUN: mgpu-opt --mgpu-to-binary="chip=sm_80 format=isa" %s | %extract_ptx | FileCheck %s --check-prefix=SM80

// The stores come before launch_dependents in a, the loads after the wait
// in b.
// PTX-LABEL: .entry kernel_a_kernel(
// PTX: st.global
// PTX: griddepcontrol.launch_dependents;
// PTX-LABEL: .entry kernel_b_kernel(
// PTX: griddepcontrol.wait;
// PTX: ld.global
// PTXAS0: Compiling entry function 'kernel_a_kernel' for 'sm_90a'
// PTXAS1: Compiling entry function 'kernel_b_kernel' for 'sm_90a'
// SM80-NOT: griddepcontrol
// SM80: .entry kernel_b_kernel(
// SM80-NOT: griddepcontrol

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>

module {
  func.func @kernel_a(%x: memref<128xf32>, %o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<128xf32>) outs(%o : memref<128xf32>) {
    ^bb0(%xg: memref<128xf32>, %og: memref<128xf32>):
      %c0 = arith.constant 0 : index
      %v = vector.load %xg[%c0] : memref<128xf32>, vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.store %r, %og[%c0] : memref<128xf32>, vector<128xf32>
      mgpu.griddepcontrol_launch_dependents
    }
    return
  }

  func.func @kernel_b(%x: memref<128xf32>, %o: memref<128xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<128xf32>) outs(%o : memref<128xf32>) {
    ^bb0(%xg: memref<128xf32>, %og: memref<128xf32>):
      %c0 = arith.constant 0 : index
      mgpu.griddepcontrol_wait
      %v = vector.load %xg[%c0] : memref<128xf32>, vector<128xf32>
      %r = arith.addf %v, %v : vector<128xf32>
      vector.store %r, %og[%c0] : memref<128xf32>, vector<128xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %x = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %xf = arith.sitofp %ii : i32 to f32
      memref.store %xf, %x[%i] : memref<128xf32>
    }
    %mid = memref.alloc() : memref<128xf32>
    %o = memref.alloc() : memref<128xf32>
    func.call @kernel_a(%x, %mid) : (memref<128xf32>, memref<128xf32>) -> ()
    func.call @kernel_b(%mid, %o) : (memref<128xf32>, memref<128xf32>) -> ()
    %onef = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%n = %zero) -> i32 {
      %ii = arith.index_cast %i : index to i32
      %xf = arith.sitofp %ii : i32 to f32
      %x1 = arith.addf %xf, %onef : f32
      %want = arith.mulf %x1, %two : f32
      %got = memref.load %o[%i] : memref<128xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    // CHECK: (x + 1) * 2 mismatches: 0
    vector.print str "(x + 1) * 2 mismatches: "
    vector.print %bad : i32
    return
  }
}
