// plgpu.async_prefetch on every backend, in the shape of JAX's
// test_async_prefetch (tests/pallas/mosaic_gpu_test.py:1494): a kernel
// prefetches a window of x into L2, copies the same window into shared
// memory, waits, and writes it plus one. @whole uses all of x (JAX's
// indexer `...`), @head the first 128 elements (`slice(128)`, a
// memref.subview). A prefetch changes no values: out = x + 1 on the
// window.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

// On sm_90a, lane 0 prefetches each TMA box of the window through the
// tensor map that the copy uses, before the copy.
// PTX-LABEL: .entry whole_kernel(
// PTX: cp.async.bulk.prefetch.tensor.1d.L2.global.tile
// PTX: cp.async.bulk.tensor.1d.shared::cluster.global
// PTX-LABEL: .entry head_kernel(
// PTX: cp.async.bulk.prefetch.tensor.1d.L2.global.tile
// PTX: cp.async.bulk.tensor.1d.shared::cluster.global
// PTXAS0: Compiling entry function 'whole_kernel' for 'sm_90a'
// PTXAS1: Compiling entry function 'head_kernel' for 'sm_90a'

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!smem = memref<256xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @whole(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
        scratch [!smem, !bar] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s: !smem, %b: !bar):
      %c0 = arith.constant 0 : index
      mgpu.async_prefetch %xg : memref<256xf32>
      mgpu.copy_gmem_to_smem %xg, %s, %b[%c0] : memref<256xf32>, !smem, !bar
      mgpu.barrier_wait %b[%c0] : !bar
      %v = vector.load %s[%c0] : !smem, vector<256xf32>
      %one = arith.constant dense<1.0> : vector<256xf32>
      %r = arith.addf %v, %one : vector<256xf32>
      vector.store %r, %og[%c0] : memref<256xf32>, vector<256xf32>
    }
    return
  }

  func.func @head(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
        scratch [!smem, !bar] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s: !smem, %b: !bar):
      %c0 = arith.constant 0 : index
      %xw = memref.subview %xg[0] [128] [1] : memref<256xf32> to memref<128xf32>
      %sw = memref.subview %s[0] [128] [1] : !smem to memref<128xf32, #gpu.address_space<workgroup>>
      mgpu.async_prefetch %xw : memref<128xf32>
      mgpu.copy_gmem_to_smem %xw, %sw, %b[%c0]
          : memref<128xf32>, memref<128xf32, #gpu.address_space<workgroup>>, !bar
      mgpu.barrier_wait %b[%c0] : !bar
      %v = vector.load %s[%c0] : !smem, vector<128xf32>
      %one = arith.constant dense<1.0> : vector<128xf32>
      %r = arith.addf %v, %one : vector<128xf32>
      vector.store %r, %og[%c0] : memref<256xf32>, vector<128xf32>
    }
    return
  }

  // Counts the elements of o[0:n] that are not x + 1, with x = 0 .. 255.
  func.func @mismatches(%o: memref<256xf32>, %n: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %onef = arith.constant 1.0 : f32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%k = %zero) -> i32 {
      %ii = arith.index_cast %i : index to i32
      %xf = arith.sitofp %ii : i32 to f32
      %want = arith.addf %xf, %onef : f32
      %got = memref.load %o[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %k, %inc : i32
      scf.yield %next : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %xf = arith.sitofp %ii : i32 to f32
      memref.store %xf, %x[%i] : memref<256xf32>
    }
    %o = memref.alloc() : memref<256xf32>
    func.call @whole(%x, %o) : (memref<256xf32>, memref<256xf32>) -> ()
    %bw = func.call @mismatches(%o, %c256) : (memref<256xf32>, index) -> i32
    // CHECK: whole mismatches: 0
    vector.print str "whole mismatches: "
    vector.print %bw : i32
    %o2 = memref.alloc() : memref<256xf32>
    func.call @head(%x, %o2) : (memref<256xf32>, memref<256xf32>) -> ()
    %bh = func.call @mismatches(%o2, %c128) : (memref<256xf32>, index) -> i32
    // CHECK-NEXT: head mismatches: 0
    vector.print str "head mismatches: "
    vector.print %bh : i32
    return
  }
}
