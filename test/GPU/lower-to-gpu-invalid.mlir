// RUN: mgpu-opt %s --mgpu-lower-to-gpu -split-input-file -verify-diagnostics

// The GPU lowering takes per-lane launches.
func.func @not_distributed(%o: memref<128xf32>) {
  // expected-error @below {{'mgpu.launch' op must be per-lane code before --mgpu-lower-to-gpu (run --mgpu-distribute-warpgroups)}}
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<128xf32>) {
  ^bb0(%i: index, %wg: index, %y: memref<128xf32>):
  }
  return
}

// -----

func.func @kernel_form(%o: memref<128xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op must be in launch form before --mgpu-lower-to-gpu (run --mgpu-form-launches and --mgpu-distribute-warpgroups)}}
  mgpu.pallas_call grid [1] outs(%o : memref<128xf32>) in_specs []
      out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] expanded {
  ^bb0(%y: memref<128xf32>):
  }
  return
}

// -----

// CTAs that wait on each other must all be resident: 150 are more than any
// H100 keeps (114 SMs on the PCIe part).
func.func @not_resident(%s: memref<1xi32>) {
  // expected-error @below {{'mgpu.launch' op waits on a semaphore, so all its CTAs must be resident at once, but it launches 150 CTAs and only 114 are guaranteed to be resident on sm_90a}}
  // expected-note @below {{a launch that waits for CTAs that cannot start would deadlock; use fewer programs}}
  mgpu.launch grid [150] warpgroups 1 lanes outs(%s : memref<1xi32>) {
  ^bb0(%cta: index, %wg: index, %lane: index, %sem: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
  }
  return
}

// -----

// A dynamic grid cannot be known to fit.
func.func @dynamic_not_resident(%n: index, %s: memref<1xi32>) {
  // expected-error @below {{'mgpu.launch' op waits on a semaphore, so all its CTAs must be resident at once, but its grid is dynamic}}
  // expected-note @below {{use fewer programs}}
  mgpu.launch grid [%n] warpgroups 1 lanes outs(%s : memref<1xi32>) {
  ^bb0(%cta: index, %wg: index, %lane: index, %sem: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %sem[%c0], %one : memref<1xi32>
  }
  return
}
