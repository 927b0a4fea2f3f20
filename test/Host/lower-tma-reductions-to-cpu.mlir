// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-lower-to-cpu --canonicalize | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-form-launches | FileCheck %s --check-prefix=FORM

// copy_smem_to_gmem with a reduction in interpret mode: a loop nest over
// the buffer, each element inside the array combined with a host atomic
// (programs may run on concurrent host threads); add is memref.atomic_rmw,
// inc and dec a generic_atomic_rmw with PTX's unsigned rules. The global
// side is still read before the launch (a reduction is not a write-only
// use).

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!row = memref<1x64xi32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @reduce
// CHECK: scf.for %[[P:.+]] = %c0 to %c2
// CHECK: scf.for %[[J:.+]] = %c0 to %c64
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[P]], %c4 : index
// CHECK: scf.if
// CHECK: %[[X:.+]] = memref.load %{{.+}}[%c0, %[[J]]] : memref<1x64xi32>
// CHECK: memref.atomic_rmw addi %[[X]], %{{.+}}[%[[P]], %[[J]]] : (i32, memref<4x64xi32>) -> i32
// CHECK: scf.for %[[K:.+]] = %c0 to %c64
// CHECK: %[[Y:.+]] = memref.load
// CHECK: memref.generic_atomic_rmw %{{.+}}[%c2, %[[K]]] : memref<4x64xi32> {
// CHECK-NEXT: ^bb0(%[[OLD:.+]]: i32):
// CHECK-NEXT: %[[WRAP:.+]] = arith.cmpi uge, %[[OLD]], %[[Y]] : i32
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[OLD]], %c1_i32 : i32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[WRAP]], %c0_i32, %[[NEXT]] : i32
// CHECK-NEXT: memref.atomic_yield %[[R]] : i32
// CHECK: memref.generic_atomic_rmw %{{.+}}[%c3, %{{.+}}]
// CHECK-DAG: arith.cmpi ugt
// CHECK-DAG: arith.cmpi eq
// CHECK: arith.ori
// CHECK: arith.subi
func.func @reduce(%o: memref<4x64xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4x64xi32>) scratch [!row] {
  ^bb0(%og: memref<4x64xi32>, %r: !row):
    %p = mgpu.program_id 0
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %r, %og[%p, 0] reduction add : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[2, 0] reduction inc : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[3, 0] reduction dec : !row, memref<4x64xi32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

// A pallas_call output written only by a reduce-store is read (its
// launch's outs are not write_only_outs), unlike one written by a copy.
// FORM-LABEL: func.func @not_write_only
// FORM: mgpu.launch grid [2] warpgroups 1 outs(%{{.*}} : memref<1x64xf32>) shared [
#g = #mgpu.block_spec<shape = [1, 64], index_map = affine_map<(p) -> (0, 0)>, memory_space = gmem>
func.func @not_write_only(%o: memref<1x64xf32>) {
  mgpu.pallas_call grid [2] outs(%o : memref<1x64xf32>) in_specs [] out_specs [#g]
      scratch [memref<1x64xf32, #gpu.address_space<workgroup>>] {
  ^bb0(%og: memref<1x64xf32>, %s: memref<1x64xf32, #gpu.address_space<workgroup>>):
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %s, %og reduction add : memref<1x64xf32, #gpu.address_space<workgroup>>, memref<1x64xf32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}
