// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// The kernel-level ops (SPEC section 7) round trip: barrier arrays as
// scratch, both forms of each copy (a whole window, or offsets into a larger
// array), bulk-group waits, barrier arrivals and waits with and without a
// parity, barrier tests (an i1) with and without a parity, emit_pipeline
// with block transforms.

// CHECK-DAG: #[[SPEC:.*]] = #mgpu.block_spec<shape = [64, 64], index_map = #{{.*}}, transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
// CHECK-DAG: #[[T:.*]] = #mgpu.block_spec<shape = [64, 32], index_map = #{{.*}}, transforms = [#mgpu.transpose<[1, 0]>]>
#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>,
                         transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
#t = #mgpu.block_spec<shape = [64, 32], index_map = affine_map<(k) -> (k, 0)>,
                      transforms = [#mgpu.transpose<[1, 0]>]>
#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 2, thread_name = "wg">
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @primitives
func.func @primitives(%a: memref<256x256xf16>, %o: memref<256x256xf16>) {
  // CHECK: scratch [memref<64x64xf16, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>, !mgpu.barrier<count = 1, arrivals = 2>]
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<256x256xf16>) outs(%o : memref<256x256xf16>)
      scratch [!smem, !mgpu.barrier<count = 2, arrivals = 1>, !mgpu.barrier<count = 1, arrivals = 2>] {
  ^bb0(%a0: memref<256x256xf16>, %o0: memref<256x256xf16>, %buf: !smem,
       %bar: !mgpu.barrier<count = 2>, %done: !mgpu.barrier<count = 1, arrivals = 2>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    // CHECK: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}, 64], %{{.*}}, %{{.*}}[%{{.*}}] : memref<256x256xf16>, memref<64x64xf16, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 2>
    mgpu.copy_gmem_to_smem %a0[%c0, 64], %buf, %bar[%c0] : memref<256x256xf16>, !smem, !mgpu.barrier<count = 2>
    %sv = memref.subview %a0[0, 0] [64, 64] [1, 1] : memref<256x256xf16> to memref<64x64xf16, strided<[256, 1]>>
    // CHECK: mgpu.copy_gmem_to_smem %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] : memref<64x64xf16, strided<[256, 1]>>
    mgpu.copy_gmem_to_smem %sv, %buf, %bar[%c1] : memref<64x64xf16, strided<[256, 1]>>, !smem, !mgpu.barrier<count = 2>
    // CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 2>
    mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 2>
    // CHECK: mgpu.barrier_wait %{{.*}}[%{{.*}}] parity %{{.*}} : !mgpu.barrier<count = 2>
    mgpu.barrier_wait %bar[%c1] parity %true : !mgpu.barrier<count = 2>
    // CHECK: %{{.*}} = mgpu.barrier_test %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 2>
    %t0 = mgpu.barrier_test %bar[%c0] : !mgpu.barrier<count = 2>
    // CHECK: %{{.*}} = mgpu.barrier_test %{{.*}}[%{{.*}}] parity %{{.*}} : !mgpu.barrier<count = 2>
    %t1 = mgpu.barrier_test %bar[%c1] parity %t0 : !mgpu.barrier<count = 2>
    // CHECK: mgpu.barrier_arrive %{{.*}}[%{{.*}}] : !mgpu.barrier<count = 1, arrivals = 2>
    mgpu.barrier_arrive %done[%c0] : !mgpu.barrier<count = 1, arrivals = 2>
    // CHECK: mgpu.commit_smem
    mgpu.commit_smem
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[0, %{{.*}}] : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<256x256xf16>
    mgpu.copy_smem_to_gmem %buf, %o0[0, %c0] : !smem, memref<256x256xf16>
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[0, 64] {commit_group = false}
    mgpu.copy_smem_to_gmem %buf, %o0[0, 64] {commit_group = false} : !smem, memref<256x256xf16>
    // CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[0, 128] transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] :
    mgpu.copy_smem_to_gmem %buf, %o0[0, 128] transforms [#mgpu.tile<[8, 64]>, #mgpu.swizzle<128>] : !smem, memref<256x256xf16>
    // CHECK: mgpu.commit_smem_to_gmem_group
    mgpu.commit_smem_to_gmem_group
    // CHECK: mgpu.wait_smem_to_gmem 1 read_only
    mgpu.wait_smem_to_gmem 1 read_only
    // CHECK: mgpu.wait_smem_to_gmem 0{{$}}
    mgpu.wait_smem_to_gmem 0
    // CHECK: mgpu.barrier_init %{{.*}} : !mgpu.barrier<count = 2>
    mgpu.barrier_init %bar : !mgpu.barrier<count = 2>
  }
  return
}

// CHECK-LABEL: func.func @pipeline
func.func @pipeline(%a: memref<256x256xf16>, %b: memref<256x64xf32>, %n: index) {
  mgpu.mpmd_map meshes [#mesh] ins(%a, %b : memref<256x256xf16>, memref<256x64xf32>) {
  ^bb0(%a0: memref<256x256xf16>, %b0: memref<256x64xf32>):
    // CHECK: mgpu.emit_pipeline grid [%{{.*}}] ins(%{{.*}}, %{{.*}} : memref<256x256xf16>, memref<256x64xf32>) in_specs [#[[SPEC]], #[[T]]] out_specs [] params #{{.*}} {
    // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: memref<64x64xf16, #gpu.address_space<workgroup>>, %{{.*}}: memref<64x32xf32, #gpu.address_space<workgroup>>):
    %c4 = arith.constant 4 : index
    mgpu.emit_pipeline grid [%c4] ins(%a0, %b0 : memref<256x256xf16>, memref<256x64xf32>)
        in_specs [#spec, #t] out_specs []
        params #mgpu.compiler_params<max_concurrent_steps = 2> {
    ^bb0(%k: index, %x: !smem, %y: memref<64x32xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}
