// Input of plugin.mlir (not a test itself): a rule of the jax profile, checked
// by the verifier that the plugin brings into stock mlir-opt.
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = jax>} {
  func.func @two_pairs() {
    // expected-error @+1 {{Lowering multiple mesh/function pairs is not supported by the Mosaic GPU backend}}
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>, #mgpu.mesh<grid = [2], grid_names = ["g1"]>] {
    }, {
    }
    return
  }
}
