// Predicated copies (JAX's `predicate=` on copy_gmem_to_smem and
// copy_smem_to_gmem), in the shape of JAX's test_copy_smem_to_gmem_predicate
// and test_copy_gmem_to_smem_predicate (tests/pallas/mosaic_gpu_test.py:959,
// 1414), with the predicate `block_id == 0` over a grid of two programs so
// that one kernel sees it hold and not hold:
// - @copy_out: every program zeroes its half of o through the GMEM ref,
//   fills its shared buffer with ones and copies it out where the predicate
//   holds: o = [1] * 128 + [0] * 128;
// - @copy_in: every program zeroes its buffer, copies its half of x in where
//   the predicate holds and waits on the barrier (which completes either
//   way), then copies the buffer out: o = x[:128] ++ [0] * 128.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %extract_ptx --object 0 %t.mlir -o %t.0.ptx
// RUN: %ptxas -arch=sm_90a -v %t.0.ptx -o %t.0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS0 --implicit-check-not=warning
// RUN: %extract_ptx --object 1 %t.mlir -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS1 --implicit-check-not=warning

// The copy out is made under the predicate; a bulk group is closed either
// way (the two commits merge into one after the branch). The copy in is
// made under it, with a bare arrival (no expect_tx) otherwise.
// PTX-LABEL: .entry copy_out_kernel(
// PTX: @%p{{[0-9]+}} bra
// PTX: cp.async.bulk.tensor.1d.global.shared::cta
// PTX-NEXT: $L__BB0_{{[0-9]+}}:
// PTX-NEXT: cp.async.bulk.commit_group
// PTX-LABEL: .entry copy_in_kernel(
// PTX: mbarrier.arrive.shared.b64
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.1d.shared::cluster.global
// PTXAS0: Compiling entry function 'copy_out_kernel' for 'sm_90a'
// PTXAS0: 0 bytes spill stores, 0 bytes spill loads
// PTXAS1: Compiling entry function 'copy_in_kernel' for 'sm_90a'
// PTXAS1: 0 bytes spill stores, 0 bytes spill loads

// CHECK: copy out: 1 1 0 0
// CHECK-NEXT: copy in: 0 127 0 0

#two = #mgpu.mesh<grid = [2], grid_names = ["block"]>
!half = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

module {
  func.func @copy_out(%o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#two] outs(%o : memref<256xf32>) scratch [!half] {
    ^bb0(%og: memref<256xf32>, %s: !half):
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %block = mgpu.axis_index "block"
      %at = arith.muli %block, %c128 : index
      %zeros = arith.constant dense<0.0> : vector<128xf32>
      vector.store %zeros, %og[%at] : memref<256xf32>, vector<128xf32>
      %ones = arith.constant dense<1.0> : vector<128xf32>
      vector.store %ones, %s[%c0] : !half, vector<128xf32>
      mgpu.commit_smem
      %first = arith.cmpi eq, %block, %c0 : index
      mgpu.copy_smem_to_gmem %s, %og[%at] predicate %first
          : !half, memref<256xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @copy_in(%x: memref<256xf32>, %o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#two] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
        scratch [!half, !bar] {
    ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s: !half, %b: !bar):
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<128xf32>
      vector.store %zeros, %s[%c0] : !half, vector<128xf32>
      mgpu.commit_smem
      %block = mgpu.axis_index "block"
      %at = arith.muli %block, %c128 : index
      %first = arith.cmpi eq, %block, %c0 : index
      mgpu.copy_gmem_to_smem %xg[%at], %s, %b[%c0] predicate %first
          : memref<256xf32>, !half, !bar
      mgpu.barrier_wait %b[%c0] : !bar
      mgpu.commit_smem
      mgpu.copy_smem_to_gmem %s, %og[%at] : !half, memref<256xf32>
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %minus = arith.constant -1.0 : f32
    %o = memref.alloc() : memref<256xf32>
    linalg.fill ins(%minus : f32) outs(%o : memref<256xf32>)
    func.call @copy_out(%o) : (memref<256xf32>) -> ()
    %a0 = memref.load %o[%c0] : memref<256xf32>
    %a1 = memref.load %o[%c127] : memref<256xf32>
    %a2 = memref.load %o[%c128] : memref<256xf32>
    %a3 = memref.load %o[%c255] : memref<256xf32>
    gpu.printf "copy out: %g %g %g %g\n", %a0, %a1, %a2, %a3 : f32, f32, f32, f32

    %x = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<256xf32>
    }
    %p = memref.alloc() : memref<256xf32>
    linalg.fill ins(%minus : f32) outs(%p : memref<256xf32>)
    func.call @copy_in(%x, %p) : (memref<256xf32>, memref<256xf32>) -> ()
    %b0 = memref.load %p[%c0] : memref<256xf32>
    %b1 = memref.load %p[%c127] : memref<256xf32>
    %b2 = memref.load %p[%c128] : memref<256xf32>
    %b3 = memref.load %p[%c255] : memref<256xf32>
    gpu.printf "copy in: %g %g %g %g\n", %b0, %b1, %b2, %b3 : f32, f32, f32, f32
    return
  }
}
