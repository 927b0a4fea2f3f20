// Pre-Hopper copies into shared memory (JAX's cp.async implementation of
// copy_gmem_to_smem without a barrier, and wait_gmem_to_smem), on sm_80:
// - @dynamic_slice, in the shape of JAX's
//   test_copy_gmem_to_smem_dynamic_slice (tests/pallas/mosaic_gpu_test.py
//   :1208): a loop copies each 128-element slice of x in, waits for it
//   (wait_gmem_to_smem 0), and writes it out plus one: o = x + 1;
// - @double_buffered, in the shape of test_copy_gmem_to_smem_squeeze
//   (:1240) with two buffers: the copy of x[i + 1] is in flight while x[i]
//   is read (wait_gmem_to_smem 1 waits for the older group only):
//   o = x + 1 again, over 4 x 8 x 16.
// RUN: %run_on_backends %s --match-full-lines
// Copies landed at the wait on every seeded schedule too (at issue, later,
// at the wait), with the hazard checks on.
// RUN: mgpu-run %s -e main --backend=emulate --emulate-schedules 4 | FileCheck %s --match-full-lines
// Breaking the wait (1 where the group must be complete) is caught:
// RUN: sed -e 's/wait_gmem_to_smem 0 {break}/wait_gmem_to_smem 1/' %s > %t.broken.mlir
// RUN: not mgpu-run %t.broken.mlir -e main --backend=emulate 2>&1 | FileCheck %s --check-prefix=BROKEN
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_80 -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_80 -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

// Every lane copies 16-byte pieces and closes the group; no TMA, no
// mbarrier.
// PTX-LABEL: .entry dynamic_slice_kernel(
// PTX-NOT: mbarrier
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 0;
// PTX: bar.sync
// PTX-LABEL: .entry double_buffered_kernel(
// PTX-NOT: mbarrier
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 1;
// PTX: cp.async.wait_group 0;
// PTXAS0: Compiling entry function 'dynamic_slice_kernel' for 'sm_80'
// PTXAS1: Compiling entry function 'double_buffered_kernel' for 'sm_80'

// CHECK: dynamic_slice mismatches: 0
// CHECK-NEXT: double_buffered mismatches: 0
// BROKEN: {{.*}}shared memory that an async copy in{{.*}}

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!slice = memref<128xf32, #gpu.address_space<workgroup>>
!tile = memref<8x16xf32, #gpu.address_space<workgroup>>
!xs = memref<4x8x16xf32>
!row = memref<8x16xf32, strided<[16, 1], offset: ?>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @dynamic_slice(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>)
        outs(%o : memref<256xf32>) scratch [!slice] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s: !slice):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %one = arith.constant dense<1.0> : vector<128xf32>
      scf.for %i = %c0 to %c2 step %c1 {
        %at = arith.muli %i, %c128 : index
        mgpu.copy_gmem_to_smem %xg[%at], %s : memref<256xf32>, !slice
        mgpu.wait_gmem_to_smem 0 {break}
        %v = vector.load %s[%c0] : !slice, vector<128xf32>
        %r = arith.addf %v, %one : vector<128xf32>
        vector.store %r, %og[%at] : memref<256xf32>, vector<128xf32>
      }
    }
    return
  }

  func.func @double_buffered(%x: !xs, %o: !xs) {
    mgpu.mpmd_map meshes [#one] ins(%x : !xs) outs(%o : !xs)
        scratch [!tile, !tile] {
    ^bb0(%xg: !xs, %og: !xs, %a: !tile, %b: !tile):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %one = arith.constant dense<1.0> : vector<8x16xf32>
      %x0 = memref.subview %xg[%c0, 0, 0] [1, 8, 16] [1, 1, 1] : !xs to !row
      %x1 = memref.subview %xg[%c1, 0, 0] [1, 8, 16] [1, 1, 1] : !xs to !row
      %x2 = memref.subview %xg[%c2, 0, 0] [1, 8, 16] [1, 1, 1] : !xs to !row
      %x3 = memref.subview %xg[%c3, 0, 0] [1, 8, 16] [1, 1, 1] : !xs to !row
      mgpu.copy_gmem_to_smem %x0, %a : !row, !tile
      mgpu.copy_gmem_to_smem %x1, %b : !row, !tile
      mgpu.wait_gmem_to_smem 1
      %v0 = vector.load %a[%c0, %c0] : !tile, vector<8x16xf32>
      %r0 = arith.addf %v0, %one : vector<8x16xf32>
      vector.store %r0, %og[%c0, %c0, %c0] : !xs, vector<8x16xf32>
      mgpu.copy_gmem_to_smem %x2, %a : !row, !tile
      mgpu.wait_gmem_to_smem 1
      %v1 = vector.load %b[%c0, %c0] : !tile, vector<8x16xf32>
      %r1 = arith.addf %v1, %one : vector<8x16xf32>
      vector.store %r1, %og[%c1, %c0, %c0] : !xs, vector<8x16xf32>
      mgpu.copy_gmem_to_smem %x3, %b : !row, !tile
      mgpu.wait_gmem_to_smem 1
      %v2 = vector.load %a[%c0, %c0] : !tile, vector<8x16xf32>
      %r2 = arith.addf %v2, %one : vector<8x16xf32>
      vector.store %r2, %og[%c2, %c0, %c0] : !xs, vector<8x16xf32>
      mgpu.wait_gmem_to_smem 0
      %v3 = vector.load %b[%c0, %c0] : !tile, vector<8x16xf32>
      %r3 = arith.addf %v3, %one : vector<8x16xf32>
      vector.store %r3, %og[%c3, %c0, %c0] : !xs, vector<8x16xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0 : i32
    %onef = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    %o = memref.alloc() : memref<256xf32>
    linalg.fill ins(%minus : f32) outs(%o : memref<256xf32>)
    func.call @dynamic_slice(%x, %o) : (memref<256xf32>, memref<256xf32>) -> ()
    %bad = scf.for %i = %c0 to %c256 step %c1 iter_args(%n = %zero) -> i32 {
      %want0 = memref.load %x[%i] : memref<256xf32>
      %want = arith.addf %want0, %onef : f32
      %got = memref.load %o[%i] : memref<256xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "dynamic_slice mismatches: "
    vector.print %bad : i32

    %x3 = memref.alloc() : memref<512xf32>
    scf.for %i = %c0 to %c512 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x3[%i] : memref<512xf32>
    }
    %o3 = memref.alloc() : memref<512xf32>
    linalg.fill ins(%minus : f32) outs(%o3 : memref<512xf32>)
    %xs = memref.expand_shape %x3 [[0, 1, 2]] output_shape [4, 8, 16]
        : memref<512xf32> into !xs
    %os = memref.expand_shape %o3 [[0, 1, 2]] output_shape [4, 8, 16]
        : memref<512xf32> into !xs
    func.call @double_buffered(%xs, %os) : (!xs, !xs) -> ()
    %bad3 = scf.for %i = %c0 to %c512 step %c1 iter_args(%n = %zero) -> i32 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %want = arith.addf %f, %onef : f32
      %got = memref.load %o3[%i] : memref<512xf32>
      %ne = arith.cmpf une, %got, %want : f32
      %inc = arith.extui %ne : i1 to i32
      %next = arith.addi %n, %inc : i32
      scf.yield %next : i32
    }
    vector.print str "double_buffered mismatches: "
    vector.print %bad3 : i32
    return
  }
}
