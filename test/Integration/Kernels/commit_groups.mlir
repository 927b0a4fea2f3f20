// Copies out batched into one bulk group, as JAX writes them with
// `plgpu.copy_smem_to_gmem(..., commit_group=False)` and
// `plgpu.commit_smem_to_gmem_group()`: two halves of a block go out as one
// group, and `wait_smem_to_gmem(0)` waits for both. The second kernel keeps
// one group in flight (`wait_smem_to_gmem(1)`) before reusing the buffer of
// the group before it, as a double-buffered epilogue does.
// RUN: %run_on_backends %s --match-full-lines
// REQUIRES: ptxas
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s -o %t.mlir
// RUN: %extract_ptx %t.mlir -o %t.ptx
// RUN: %extract_ptx %t.mlir --object 0 -o %t.0.ptx
// RUN: %extract_ptx %t.mlir --object 1 -o %t.1.ptx
// RUN: %ptxas -arch=sm_90a %t.0.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.1.ptx -o %t.1.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// One commit for the two halves of @one_group's block:
// PTX-LABEL: .entry one_group
// PTX-COUNT-2: cp.async.bulk.tensor.1d.global.shared::cta
// PTX-NOT: cp.async.bulk.tensor
// PTX: cp.async.bulk.commit_group
// PTX-NOT: cp.async.bulk.commit_group
// PTX: cp.async.bulk.wait_group 0

// CHECK: one group: 0 1 127 128 255
// CHECK-NEXT: two buffers: 0 100 255 256 356 511

#m = #mgpu.mesh<grid = [1], grid_names = ["g"]>
!half = memref<128xf32, #gpu.address_space<workgroup>>
!whole = memref<256xf32, #gpu.address_space<workgroup>>

module attributes {mgpu.target = #mgpu.target<chip = "sm_90a">} {
  func.func @one_group(%o: memref<256xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<256xf32>) scratch [!whole] {
    ^bb0(%oa: memref<256xf32>, %s: !whole):
      %c0 = arith.constant 0 : index
      %iota = vector.step : vector<256xindex>
      %v = arith.index_cast %iota : vector<256xindex> to vector<256xi32>
      %f = arith.sitofp %v : vector<256xi32> to vector<256xf32>
      vector.store %f, %s[%c0] : !whole, vector<256xf32>
      mgpu.commit_smem
      %lo = memref.subview %s[0] [128] [1] : !whole to !half
      %hi = memref.subview %s[128] [128] [1]
          : !whole to memref<128xf32, strided<[1], offset: 128>, #gpu.address_space<workgroup>>
      mgpu.copy_smem_to_gmem %lo, %oa[0] {commit_group = false}
          : !half, memref<256xf32>
      mgpu.copy_smem_to_gmem %hi, %oa[128] {commit_group = false}
          : memref<128xf32, strided<[1], offset: 128>, #gpu.address_space<workgroup>>, memref<256xf32>
      mgpu.commit_smem_to_gmem_group
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  // Four chunks of 128 through two buffers: before a buffer is written
  // again, the group that read it (two chunks back) must be done.
  func.func @two_buffers(%o: memref<512xf32>) {
    mgpu.mpmd_map meshes [#m] outs(%o : memref<512xf32>) scratch [!whole] {
    ^bb0(%oa: memref<512xf32>, %s: !whole):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c128 = arith.constant 128 : index
      %iota = vector.step : vector<128xindex>
      scf.for %chunk = %c0 to %c4 step %c1 {
        %slot = arith.remui %chunk, %c2 : index
        %at = arith.muli %slot, %c128 : index
        %buf = memref.subview %s[%at] [128] [1]
            : !whole to memref<128xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
        // The group two chunks back read this buffer.
        mgpu.wait_smem_to_gmem 1 read_only
        %base = arith.muli %chunk, %c128 : index
        %basev = vector.broadcast %base : index to vector<128xindex>
        %idx = arith.addi %iota, %basev : vector<128xindex>
        %v = arith.index_cast %idx : vector<128xindex> to vector<128xi32>
        %f = arith.sitofp %v : vector<128xi32> to vector<128xf32>
        vector.store %f, %buf[%c0]
            : memref<128xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<128xf32>
        mgpu.commit_smem
        mgpu.copy_smem_to_gmem %buf, %oa[%base] {commit_group = false}
            : memref<128xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, memref<512xf32>
        mgpu.commit_smem_to_gmem_group
      }
      mgpu.wait_smem_to_gmem 0
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %c356 = arith.constant 356 : index
    %c511 = arith.constant 511 : index
    %minus = arith.constant -1.0 : f32
    %o = memref.alloc() : memref<256xf32>
    linalg.fill ins(%minus : f32) outs(%o : memref<256xf32>)
    func.call @one_group(%o) : (memref<256xf32>) -> ()
    %a0 = memref.load %o[%c0] : memref<256xf32>
    %a1 = memref.load %o[%c1] : memref<256xf32>
    %a2 = memref.load %o[%c127] : memref<256xf32>
    %a3 = memref.load %o[%c128] : memref<256xf32>
    %a4 = memref.load %o[%c255] : memref<256xf32>
    gpu.printf "one group: %g %g %g %g %g\n", %a0, %a1, %a2, %a3, %a4 : f32, f32, f32, f32, f32
    %p = memref.alloc() : memref<512xf32>
    linalg.fill ins(%minus : f32) outs(%p : memref<512xf32>)
    func.call @two_buffers(%p) : (memref<512xf32>) -> ()
    %b0 = memref.load %p[%c0] : memref<512xf32>
    %b1 = memref.load %p[%c100] : memref<512xf32>
    %b2 = memref.load %p[%c255] : memref<512xf32>
    %b3 = memref.load %p[%c256] : memref<512xf32>
    %b4 = memref.load %p[%c356] : memref<512xf32>
    %b5 = memref.load %p[%c511] : memref<512xf32>
    gpu.printf "two buffers: %g %g %g %g %g %g\n", %b0, %b1, %b2, %b3, %b4, %b5 : f32, f32, f32, f32, f32, f32
    memref.dealloc %o : memref<256xf32>
    memref.dealloc %p : memref<512xf32>
    return
  }
}
