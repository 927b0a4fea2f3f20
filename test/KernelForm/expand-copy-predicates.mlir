// --mgpu-expand-copy-predicates: a predicated copy becomes an scf.if around
// the copy without its predicate. A copy in still arrives on its barrier
// where the predicate does not hold; a copy out that closes its bulk group
// still closes one; one that leaves it open does nothing then. Copies
// without a predicate stay as they are.
// RUN: mgpu-opt %s --mgpu-expand-copy-predicates | FileCheck %s
// The round trip of the predicate:
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s --check-prefix=ROUND

#one = #mgpu.mesh<grid = [1], grid_names = ["g"]>
!smem = memref<128xf32, #gpu.address_space<workgroup>>
!bar = !mgpu.barrier<count = 1>

// ROUND-LABEL: func.func @copies
// ROUND: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}] predicate %{{.*}} : memref<256xf32>
// ROUND: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}] predicate %{{.*}} :
// ROUND: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}] predicate %{{.*}} {commit_group = false}

// CHECK-LABEL: func.func @copies
// CHECK: %[[P:.*]] = arith.cmpi eq
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: mgpu.copy_gmem_to_smem %{{.*}}[%{{.*}}], %{{.*}}, %[[B:.*]][%[[I:.*]]] : memref<256xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: mgpu.barrier_arrive %[[B]][%[[I]]] : !mgpu.barrier<count = 1>
// CHECK-NEXT: }
// CHECK: mgpu.barrier_wait
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}] : memref<128xf32
// CHECK-NEXT: } else {
// CHECK-NEXT: mgpu.commit_smem_to_gmem_group
// CHECK-NEXT: }
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}] {commit_group = false}
// CHECK-NEXT: }
// CHECK-NOT: else
// CHECK: mgpu.copy_smem_to_gmem %{{.*}}, %{{.*}}[%{{.*}}] :
// CHECK-NOT: scf.if
// CHECK: mgpu.wait_smem_to_gmem 0
func.func @copies(%x: memref<256xf32>, %o: memref<256xf32>) {
  mgpu.mpmd_map meshes [#one] ins(%x : memref<256xf32>) outs(%o : memref<256xf32>)
      scratch [!smem, !bar] {
  ^bb0(%xg: memref<256xf32>, %og: memref<256xf32>, %s: !smem, %b: !bar):
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %g = mgpu.axis_index "g"
    %p = arith.cmpi eq, %g, %c0 : index
    mgpu.copy_gmem_to_smem %xg[%c128], %s, %b[%c0] predicate %p
        : memref<256xf32>, !smem, !bar
    mgpu.barrier_wait %b[%c0] : !bar
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %s, %og[%c0] predicate %p : !smem, memref<256xf32>
    mgpu.copy_smem_to_gmem %s, %og[%c128] predicate %p {commit_group = false}
        : !smem, memref<256xf32>
    mgpu.copy_smem_to_gmem %s, %og[%c128] : !smem, memref<256xf32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}
