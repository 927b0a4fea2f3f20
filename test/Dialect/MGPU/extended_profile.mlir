// RUN: mgpu-opt %s -split-input-file | FileCheck %s
// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Positive twins of jax_profile.mlir: what the jax profile refuses (S3-S6)
// verifies in the extended profile, explicit or by default, and what the jax
// profile accepts verifies there.

// S3 twin: two pairs, explicit extended profile.
// CHECK: module attributes {mgpu.target = #{{target[0-9]*}}}
// CHECK-LABEL: func.func @s3_two_pairs
// CHECK: mgpu.mpmd_map meshes [#{{mesh[0-9]*}}, #{{mesh[0-9]*}}] {
// CHECK: }, {
module attributes {mgpu.target = #mgpu.target<profile = extended>} {
  func.func @s3_two_pairs() {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>, #mgpu.mesh<grid = [4], grid_names = ["g1"]>] {
    }, {
    }
    return
  }
}

// -----

// S4 twin: external meshes, no mgpu.target (extended by default).
// CHECK-LABEL: func.func @s4_external_meshes
// CHECK: mgpu.mpmd_map meshes [#[[M:mesh[0-9]*]]] external_meshes [#[[M]]] {
func.func @s4_external_meshes() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g2"]>] external_meshes [#mgpu.mesh<grid = [2], grid_names = ["g2"]>] {
  }
  return
}

// -----

// S5 twin: scratch operands, a target that only names the chip.
// CHECK: #[[T:target[0-9]*]] = #mgpu.target<chip = "sm_80">
// CHECK: module attributes {mgpu.target = #[[T]]}
// CHECK-LABEL: func.func @s5_scratch
// CHECK: mgpu.mpmd_map meshes [#{{mesh[0-9]*}}] ins(%{{.*}} : memref<16xf32>) scratch [memref<8xi32>] {
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @s5_scratch(%a: memref<16xf32>) {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g4"]>] ins(%a : memref<16xf32>) scratch [memref<8xi32>] {
    ^bb0(%a0: memref<16xf32>, %s0: memref<8xi32>):
    }
    return
  }
}

// -----

// S6 twin: a dynamic grid.
// CHECK-LABEL: func.func @s6_dynamic_grid
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: mgpu.pallas_call grid [4, %[[N]]] in_specs [] out_specs [] {
module attributes {mgpu.target = #mgpu.target<profile = extended>} {
  func.func @s6_dynamic_grid(%n: index) {
    mgpu.pallas_call grid [4, %n] in_specs [] out_specs [] {
      %s = mgpu.num_programs 1
    }
    return
  }
}

// -----

// The nearest module decides: extended inside jax.
// CHECK-LABEL: func.func @s6_nested_module
// CHECK: mgpu.pallas_call grid [%{{.*}}]
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  module attributes {mgpu.target = #mgpu.target<profile = extended>} {
    func.func @s6_nested_module(%n: index) {
      mgpu.pallas_call grid [%n] in_specs [] out_specs [] {
      }
      return
    }
  }
}

// -----

// What the jax profile accepts: one pair without scratch or external
// meshes, a static grid.
// CHECK: #[[JAX:target[0-9]*]] = #mgpu.target<profile = jax>
// CHECK: module attributes {mgpu.target = #[[JAX]]}
// CHECK-LABEL: func.func @jax_ok
// CHECK: mgpu.mpmd_map meshes [#{{mesh[0-9]*}}] ins(%{{.*}} : memref<16xf32>) outs(%{{.*}} : memref<16xf32>) {
// CHECK: mgpu.pallas_call grid [4, 2] ins(%{{.*}} : memref<16xf32>) in_specs [#{{block_spec[0-9]*}}] out_specs [] {
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = jax>} {
  func.func @jax_ok(%a: memref<16xf32>, %o: memref<16xf32>) {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g5"], num_threads = 2, thread_name = "wg">]
        ins(%a : memref<16xf32>) outs(%o : memref<16xf32>) {
    ^bb0(%a0: memref<16xf32>, %o0: memref<16xf32>):
      %w = mgpu.axis_index "wg"
    }
    mgpu.pallas_call grid [4, 2] ins(%a : memref<16xf32>)
        in_specs [#mgpu.block_spec<shape = [16], index_map = affine_map<(d0, d1) -> (0)>, memory_space = gmem>]
        out_specs [] {
    ^bb0(%x: memref<16xf32>):
    }
    return
  }
}
