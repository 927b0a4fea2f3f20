// A kernel that picks one of two shared-memory buffers (an arith.select of
// refs, as a compute thread picks its block) compiles to PTX without a
// diagnostic: the kernels' arith ops are lowered with the NVVM type
// converter, which knows the shared address space (the host's arith
// lowering printed "conversion of memref memory space ... failed" and went
// on).
// REQUIRES: ptxas
// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" 2>&1 | FileCheck %s --implicit-check-not=error:

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!smem = memref<128xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: llvm.func @pick
// CHECK: gpu.binary @pick_kernel
// CHECK-SAME: selp.b64
// CHECK-SAME: st.shared
func.func @pick(%o: memref<256xf32>) {
  mgpu.mpmd_map meshes [#mesh] outs(%o : memref<256xf32>) scratch [!smem, !smem] {
  ^bb0(%og: memref<256xf32>, %p: !smem, %q: !smem):
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %wg = mgpu.axis_index "wg"
    %first = arith.cmpi eq, %wg, %c0 : index
    %mine = arith.select %first, %p, %q : !smem
    %ones = arith.constant dense<1.0> : vector<128xf32>
    vector.transfer_write %ones, %mine[%c0] {in_bounds = [true]} : vector<128xf32>, !smem
    %v = vector.transfer_read %mine[%c0], %pad {in_bounds = [true]} : !smem, vector<128xf32>
    %at = arith.muli %wg, %c128 : index
    vector.transfer_write %v, %og[%at] {in_bounds = [true]} : vector<128xf32>, memref<256xf32>
  }
  return
}
