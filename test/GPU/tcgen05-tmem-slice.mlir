// A TMEM slice on the GPU (--mgpu-primitives-to-nvvm for sm_100a): the
// buffer's TMEM address plus the slice's first column (f32: one column per
// element; bf16: half the element, two to a column).
// RUN: mgpu-opt %s --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-select-tensor-cores --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_100a" | FileCheck %s

// CHECK-LABEL: func.func @slice
// CHECK: %[[C:.*]] = arith.muli %{{.*}}, %c2 : index
// CHECK-NEXT: %[[COL:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK-NEXT: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[BASE]], %[[COL]] : i32
// CHECK-NEXT: llvm.inttoptr %[[AT]] : i32 to !llvm.ptr<6>
// CHECK: %[[PCOL:.*]] = arith.index_cast %[[C]] : index to i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[HALF:.*]] = arith.shrui %[[PCOL]], %{{.*}} : i32
// CHECK-NEXT: %[[PBASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<6> to i32
// CHECK-NEXT: arith.addi %[[PBASE]], %[[HALF]] : i32

#m = #mgpu.mesh<grid = [1], grid_names = ["i"]>
!acc = !mgpu.tmem<128x256xf32>
!p = !mgpu.tmem<128x64xbf16>
module attributes {mgpu.target = #mgpu.target<chip = "sm_100a">} {
  func.func @slice(%o: memref<128x128xf32>, %q: memref<128x32xbf16>) {
    mgpu.mpmd_map meshes [#m] outs(%o, %q : memref<128x128xf32>, memref<128x32xbf16>) scratch [!acc, !p] {
    ^bb0(%og: memref<128x128xf32>, %qg: memref<128x32xbf16>, %acc: !acc, %p: !p):
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %i = mgpu.program_id 0
      %c = arith.muli %i, %c2 : index
      %s = mgpu.tmem_slice %acc[%c] : !acc -> !mgpu.tmem<128x128xf32>
      %v = mgpu.async_load_tmem %s : !mgpu.tmem<128x128xf32> -> vector<128x128xf32>
      mgpu.wait_load_tmem
      vector.transfer_write %v, %og[%c0, %c0] {in_bounds = [true, true]} : vector<128x128xf32>, memref<128x128xf32>
      %ps = mgpu.tmem_slice %p[%c] : !p -> !mgpu.tmem<128x32xbf16>
      %w = mgpu.async_load_tmem %ps : !mgpu.tmem<128x32xbf16> -> vector<128x32xbf16>
      mgpu.wait_load_tmem
      vector.transfer_write %w, %qg[%c0, %c0] {in_bounds = [true, true]} : vector<128x32xbf16>, memref<128x32xbf16>
    }
    return
  }
}
