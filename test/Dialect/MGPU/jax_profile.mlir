// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Rules S3-S6 fire only in the jax profile; extended_profile.mlir has their
// positive twins.

// S3
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s3_two_pairs() {
    // expected-error @+2 {{Lowering multiple mesh/function pairs is not supported by the Mosaic GPU backend}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2]>, #mgpu.mesh<grid = [4]>] {
    }, {
    }
    return
  }
}

// -----

// S4
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = jax>} {
  func.func @s4_external_meshes() {
    // expected-error @+2 {{External meshes are not supported by the Mosaic GPU backend}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2]>] external_meshes [#mgpu.mesh<grid = [2]>] {
    }
    return
  }
}

// -----

// S5
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s5_scratch(%a: memref<16xf32>) {
    // expected-error @+2 {{Scratch operands are not supported by the Mosaic GPU mpmd_map lowering}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2]>] ins(%a : memref<16xf32>) scratch [memref<8xi32>] {
    ^bb0(%a0: memref<16xf32>, %s0: memref<8xi32>):
    }
    return
  }
}

// -----

// S6
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s6_dynamic_grid(%n: index) {
    // expected-error @+2 {{dynamic grid bounds not supported in the Mosaic GPU backend}}
    // expected-note @+1 {{the extended profile (the default) supports dynamic grids}}
    mgpu.pallas_call grid [4, %n] in_specs [] out_specs [] {
    }
    return
  }
}

// -----

// The profile of the nearest enclosing module applies: jax inside extended.
module attributes {mgpu.target = #mgpu.target<profile = extended>} {
  module attributes {mgpu.target = #mgpu.target<chip = "sm_80", profile = jax>} {
    func.func @s6_nested_module(%n: index) {
      // expected-error @+2 {{dynamic grid bounds not supported in the Mosaic GPU backend}}
      // expected-note @+1 {{supports dynamic grids}}
      mgpu.pallas_call grid [%n] in_specs [] out_specs [] {
      }
      return
    }
  }
}

// -----

// S3 comes before S4 and S5: only the first broken rule is reported.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s3_first() {
    // expected-error @+2 {{Lowering multiple mesh/function pairs is not supported by the Mosaic GPU backend}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2]>, #mgpu.mesh<grid = [2]>]
        scratch [memref<8xi32>] external_meshes [#mgpu.mesh<>] {
    ^bb0(%s0: memref<8xi32>):
    }, {
    ^bb0(%s1: memref<8xi32>):
    }
    return
  }
}
