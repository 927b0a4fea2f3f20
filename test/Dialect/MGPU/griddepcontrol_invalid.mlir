// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The programmatic dependent launch ops run inside kernels.

func.func @wait_outside() {
  // expected-error @below {{'mgpu.griddepcontrol_wait' op must be inside a kernel}}
  mgpu.griddepcontrol_wait
  return
}

// -----

func.func @launch_outside() {
  // expected-error @below {{'mgpu.griddepcontrol_launch_dependents' op must be inside a kernel}}
  mgpu.griddepcontrol_launch_dependents
  return
}
