// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Rules S3-S6 fire only in the jax profile; extended_profile.mlir has their
// positive twins.

// S3
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s3_two_pairs() {
    // expected-error @+2 {{Lowering multiple mesh/function pairs is not supported by the Mosaic GPU backend}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>, #mgpu.mesh<grid = [4], grid_names = ["g1"]>] {
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
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g2"]>] external_meshes [#mgpu.mesh<grid = [2], grid_names = ["g3"]>] {
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
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g4"]>] ins(%a : memref<16xf32>) scratch [memref<8xi32>] {
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
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g5"]>, #mgpu.mesh<grid = [2], grid_names = ["g6"]>]
        scratch [memref<8xi32>] external_meshes [#mgpu.mesh<>] {
    ^bb0(%s0: memref<8xi32>):
    }, {
    ^bb0(%s1: memref<8xi32>):
    }
    return
  }
}

// -----

// S27: JAX refuses a ref passed twice to an mpmd_map.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @s27_same_ref(%a: memref<8xf32>) {
    // expected-error @+2 {{Cannot pass the same ref into a mpmd map multiple times}}
    // expected-note @+1 {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"]>] ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) {
    ^bb0(%x: memref<8xf32>, %y: memref<8xf32>):
    }
    return
  }
}

// -----

// JAX's words for a grid size that is not positive (S40; more cases in
// profile_words.mlir).
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @grid_positive() {
    // expected-error @+1 {{All elements in the grid must be strictly positive, but got grid=(4, 0)}}
    mgpu.pallas_call grid [4, 0] in_specs [] out_specs [] {
    }
    return
  }
}

// -----

// JAX names operands args[i] and outputs[i].
#b = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (i)>>
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @origin_names(%a: memref<8xf32>, %o: memref<8x8xf32>) {
    // expected-error @+1 {{Block shape for outputs[0] (= (4,)) must have the same number of dimensions as the array shape (8, 8).}}
    mgpu.pallas_call grid [2] ins(%a : memref<8xf32>) outs(%o : memref<8x8xf32>) in_specs [#b] out_specs [#b] {
    ^bb0(%x: memref<4xf32, #gpu.address_space<workgroup>>, %y: memref<4xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

// JAX also looks among the axes of its device mesh (none here).
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @axis_message() {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["i"]>] {
      // expected-error @+1 {{Axis j does not refer to a GPU mesh axis (available axes: ['i']) or a JAX mesh axis (available axes: [])}}
      %j = mgpu.axis_index "j"
    }
    return
  }
}

// -----

// JAX lists the axes as its launch reverses them: the grid's names
// reversed, the cluster's reversed, then the thread's.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @axis_order() {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2, 3], grid_names = ["x", "y"], cluster = [1, 1], cluster_names = ["cx", "cy"], num_threads = 2, thread_name = "wg">] {
      // expected-error @+1 {{Axis z does not refer to a GPU mesh axis (available axes: ['y', 'x', 'cy', 'cx', 'wg']) or a JAX mesh axis (available axes: [])}}
      %z = mgpu.axis_index "z"
    }
    return
  }
}

// -----

// No named axis at all: JAX's own message.
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @no_axis_names(%o: memref<8xf32>) {
    mgpu.pallas_call grid [2] outs(%o : memref<8xf32>) in_specs []
        out_specs [#mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (i)>>] {
    ^bb0(%y: memref<4xf32, #gpu.address_space<workgroup>>):
      // expected-error @+1 {{No axis names are available. Make sure you are using `pl.core_map` with a `plgpu.Mesh` or an appropriate JAX device mesh.}}
      %z = mgpu.axis_index "z"
    }
    return
  }
}

// -----

// Scratch that a pass added (mgpu.internal_scratch counts it) is not user
// scratch; the user's own entry before it still is.
#mesh4 = #mgpu.mesh<grid = [4], grid_names = ["i"]>
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @internal_scratch_only() {
    mgpu.mpmd_map meshes [#mesh4] scratch [memref<1024xi8, #gpu.address_space<workgroup>>]
        attributes {mgpu.internal_scratch = 1 : i64} {
    ^bb0(%arena: memref<1024xi8, #gpu.address_space<workgroup>>):
    }
    return
  }
  func.func @user_scratch_too() {
    // expected-error @below {{Scratch operands are not supported by the Mosaic GPU mpmd_map lowering}}
    // expected-note @below {{the extended profile (the default) supports this}}
    mgpu.mpmd_map meshes [#mesh4] scratch [memref<16xf32, #gpu.address_space<workgroup>>, memref<1024xi8, #gpu.address_space<workgroup>>]
        attributes {mgpu.internal_scratch = 1 : i64} {
    ^bb0(%mine: memref<16xf32, #gpu.address_space<workgroup>>, %arena: memref<1024xi8, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

#mesh4 = #mgpu.mesh<grid = [4], grid_names = ["i"]>
func.func @internal_scratch_too_many() {
  // expected-error @below {{'mgpu.internal_scratch' must be an integer attribute of a pallas_call or mpmd_map, at most its number of scratch operands}}
  mgpu.mpmd_map meshes [#mesh4] scratch [memref<16xf32, #gpu.address_space<workgroup>>]
      attributes {mgpu.internal_scratch = 2 : i64} {
  ^bb0(%mine: memref<16xf32, #gpu.address_space<workgroup>>):
  }
  return
}
