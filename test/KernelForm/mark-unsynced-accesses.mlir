// --mgpu-mark-unsynced-accesses: the memory accesses of a kernel whose
// compiler params set unsafe_no_auto_barriers get `mgpu.unsynced`; other
// kernels and other ops are left alone. The params round-trip.
// RUN: mgpu-opt %s --mgpu-mark-unsynced-accesses | FileCheck %s
// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s --check-prefix=ROUND

// ROUND: #mgpu.compiler_params<unsafe_no_auto_barriers = true, lowering_semantics = lane>
// ROUND: #mgpu.compiler_params<max_concurrent_steps = 2>

#one = #mgpu.mesh<grid = [1], grid_names = ["i"]>
#unsafe = #mgpu.compiler_params<unsafe_no_auto_barriers = true, lowering_semantics = lane>
#safe = #mgpu.compiler_params<max_concurrent_steps = 2, lowering_semantics = warpgroup>
!smem = memref<512xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @unsafe
// CHECK: vector.load {{.*}} {mgpu.unsynced}
// CHECK: arith.addf
// CHECK-NOT: mgpu.unsynced
// CHECK: vector.store {{.*}} {mgpu.unsynced}
// CHECK: memref.load {{.*}} {mgpu.unsynced}
// CHECK: memref.store {{.*}} {mgpu.unsynced}
func.func @unsafe(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#one] ins(%x : memref<512xf32>) scratch [!smem] params #unsafe {
  ^bb0(%xg: memref<512xf32>, %s: !smem):
    %c0 = arith.constant 0 : index
    %v = vector.load %xg[%c0] : memref<512xf32>, vector<512xf32>
    %d = arith.addf %v, %v : vector<512xf32>
    vector.store %d, %s[%c0] : !smem, vector<512xf32>
    %e = memref.load %s[%c0] : !smem
    memref.store %e, %s[%c0] : !smem
  }
  return
}

// CHECK-LABEL: func.func @safe
// CHECK-NOT: mgpu.unsynced
// CHECK: return
func.func @safe(%x: memref<512xf32>) {
  mgpu.mpmd_map meshes [#one] ins(%x : memref<512xf32>) scratch [!smem] params #safe {
  ^bb0(%xg: memref<512xf32>, %s: !smem):
    %c0 = arith.constant 0 : index
    %v = vector.load %xg[%c0] : memref<512xf32>, vector<512xf32>
    vector.store %v, %s[%c0] : !smem, vector<512xf32>
  }
  return
}
