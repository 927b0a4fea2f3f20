// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Misused cluster ops (SPEC section 8): each gets a diagnostic at the op.

func.func @sync_outside() {
  // expected-error @below {{'mgpu.cluster_sync' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.cluster_sync
  return
}
