// RUN: mgpu-opt %s --mgpu-lower-to-cpu -split-input-file -verify-diagnostics

// Interpret mode runs launches at the level of Pallas threads,
func.func @lanes(%o: memref<128xf32>) {
  // expected-error @below {{'mgpu.launch' op is per-lane code (--mgpu-distribute-warpgroups), which interpret mode does not run: --mgpu-lower-to-cpu takes a launch at the level of Pallas threads}}
  mgpu.launch grid [1] warpgroups 1 lanes outs(%o : memref<128xf32>) {
  ^bb0(%i: index, %wg: index, %lane: index, %y: memref<128xf32>):
  }
  return
}

// -----

// formed from the kernel ops by --mgpu-form-launches.
func.func @kernel_form(%o: memref<128xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op must be in launch form before --mgpu-lower-to-cpu (run --mgpu-form-launches)}}
  mgpu.pallas_call grid [1] outs(%o : memref<128xf32>) in_specs []
      out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] expanded {
  ^bb0(%y: memref<128xf32>):
  }
  return
}
