// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm="chip=sm_80" --canonicalize --cse | FileCheck %s --check-prefix=SM80
// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-emulate-gpu | FileCheck %s --check-prefix=EMU

// copy_smem_to_gmem with a reduction on the GPU. On sm_90 it is a TMA store
// that reduces: nvvm.cp.async.bulk.tensor.reduce with the op's kind, issued
// by lane 0 through the array's tensor map, then the bulk group's commit.
// sm_80 has no TMA: the warpgroup's lanes combine the elements with
// atomics (atomic_rmw, or a compare-and-swap loop for inc and dec). The
// emulator queues each as a copy out of the bulk group (commit, kind, and
// element type: 3 is i32) that combines when it lands.

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!row = memref<1x64xi32, #gpu.address_space<workgroup>>

// The tensor map gives the reduction its PTX type: as in JAX, integers are
// unsigned (inc and dec take only .u32) except for smin/smax (below).
// CHECK-LABEL: func.func @reduce
// CHECK: %[[U:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<*xi32> to memref<*xui32>
// CHECK: %[[D:.*]] = nvgpu.tma.create.descriptor %[[U]] box[%c1, %c64] : memref<*xui32> -> <tensor = memref<1x64xui32, #gpu.address_space<workgroup>>
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[D]]
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[M]], %{{.*}}, box[%c0_i32, %{{.*}}] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[M]], %{{.*}}, box[%c0_i32, %c2_i32] {redKind = #nvvm.tma_redux_kind<inc>}
// CHECK-NOT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[M]], %{{.*}}, box[%c0_i32, %c3_i32] {redKind = #nvvm.tma_redux_kind<xor>}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0

// SM80-LABEL: func.func @reduce
// SM80-NOT: nvvm.cp.async.bulk
// SM80: memref.atomic_rmw addi
// SM80: memref.generic_atomic_rmw
// SM80: arith.cmpi uge
// SM80: memref.atomic_rmw xori
// EMU-LABEL: func.func @reduce
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c0_i64, %c3_i64, %{{.*}})
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c3_i64, %c3_i64{{.*}})
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c7_i64, %c3_i64{{.*}}, %{{.*}})
func.func @reduce(%o: memref<4x64xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4x64xi32>) scratch [!row] {
  ^bb0(%og: memref<4x64xi32>, %r: !row):
    %p = mgpu.program_id 0
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %r, %og[%p, 0] reduction add : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[2, 0] reduction inc {commit_group = false} : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[3, 0] reduction xor : !row, memref<4x64xi32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}

// smin/smax read the elements signed (a signless i32 map: INT32), umin/umax
// unsigned (a ui32 view of the same array: UINT32); both are PTX min/max.
// Without TMA, and in the emulator, the kinds compare as they say.
// CHECK-LABEL: func.func @minmax
// CHECK-DAG: %[[S:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c64] : memref<*xi32> -> <tensor = memref<1x64xi32,
// CHECK-DAG: %[[U:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c64] : memref<*xui32> -> <tensor = memref<1x64xui32,
// CHECK-DAG: %[[MS:.*]] = builtin.unrealized_conversion_cast %[[S]]
// CHECK-DAG: %[[MU:.*]] = builtin.unrealized_conversion_cast %[[U]]
// CHECK: gpu.launch
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MS]], %{{.*}}, box[%c0_i32, %c0_i32] {redKind = #nvvm.tma_redux_kind<min>}
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MS]], %{{.*}}, box[%c0_i32, %c1_i32] {redKind = #nvvm.tma_redux_kind<max>}
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MU]], %{{.*}}, box[%c0_i32, %c2_i32] {redKind = #nvvm.tma_redux_kind<min>}
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MU]], %{{.*}}, box[%c0_i32, %c3_i32] {redKind = #nvvm.tma_redux_kind<max>}
// SM80-LABEL: func.func @minmax
// SM80: memref.atomic_rmw mins
// SM80: memref.atomic_rmw maxs
// SM80: memref.atomic_rmw minu
// SM80: memref.atomic_rmw maxu
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c8_i64, %c3_i64{{.*}})
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c9_i64, %c3_i64{{.*}})
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64, %c10_i64, %c3_i64{{.*}})
// EMU: call @mgpuEmuReduceToGlobal(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c11_i64, %c3_i64{{.*}})
func.func @minmax(%o: memref<4x64xi32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4x64xi32>) scratch [!row] {
  ^bb0(%og: memref<4x64xi32>, %r: !row):
    mgpu.commit_smem
    mgpu.copy_smem_to_gmem %r, %og[0, 0] reduction smin {commit_group = false} : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[1, 0] reduction smax {commit_group = false} : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[2, 0] reduction umin {commit_group = false} : !row, memref<4x64xi32>
    mgpu.copy_smem_to_gmem %r, %og[3, 0] reduction umax : !row, memref<4x64xi32>
    mgpu.wait_smem_to_gmem 0
  }
  return
}
