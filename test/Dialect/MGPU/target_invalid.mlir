// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The discardable mgpu attributes: only `mgpu.target`, only a #mgpu.target,
// only on a builtin.module.

// expected-error @+1 {{'mgpu.target' must be a #mgpu.target attribute, got "sm_90a"}}
module attributes {mgpu.target = "sm_90a"} {
}

// -----

// expected-error @+1 {{'mgpu.target' must be a #mgpu.target attribute, got #mgpu.mesh<>}}
module attributes {mgpu.target = #mgpu.mesh<>} {
}

// -----

// expected-error @+1 {{'mgpu.target' must be attached to a builtin.module}}
func.func @target_on_func() attributes {mgpu.target = #mgpu.target<profile = jax>} {
  return
}

// -----

func.func @target_on_op() {
  // expected-error @+1 {{'mgpu.target' must be attached to a builtin.module}}
  mgpu.pallas_call grid [1] in_specs [] out_specs [] attributes {mgpu.target = #mgpu.target<>} {
  }
  return
}

// -----

// expected-error @+1 {{unknown mgpu attribute 'mgpu.foo'; the discardable ones are 'mgpu.target', 'mgpu.lane_private', 'mgpu.unsynced' and 'mgpu.compute_steps'}}
module attributes {mgpu.foo = 1 : i64} {
}

// -----

func.func @unknown_on_func() {
  // expected-error @+1 {{unknown mgpu attribute 'mgpu.targets'; the discardable ones are 'mgpu.target', 'mgpu.lane_private', 'mgpu.unsynced' and 'mgpu.compute_steps'}}
  %c = arith.constant {mgpu.targets = #mgpu.target<>} 0 : index
  return
}

// -----

// A bad chip is reported where the target is written.
// expected-error @+2 {{unknown chip "sm_90x"}}
// expected-note @+1 {{known chips: sm_80, sm_90, sm_90a, sm_100, sm_100a}}
module attributes {mgpu.target = #mgpu.target<chip = "sm_90x">} {
}

// -----

// expected-error @+1 {{unknown attribute `targets` in dialect `mgpu`}}
module attributes {mgpu.target = #mgpu.targets<>} {
}

// -----

// Argument and result attributes are checked too.
// expected-error @+1 {{unknown mgpu attribute 'mgpu.foo' on argument #1; the discardable ones are 'mgpu.target', 'mgpu.lane_private', 'mgpu.unsynced' and 'mgpu.compute_steps'}}
func.func @unknown_on_arg(%a: memref<4xf32>, %b: memref<4xf32> {mgpu.foo = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{'mgpu.target' must be attached to a builtin.module, not result #0}}
func.func @target_on_result() -> (i32 {mgpu.target = #mgpu.target<>}) {
  %c = arith.constant 0 : i32
  return %c : i32
}

// -----

func.func @lane_private_not_a_view(%m: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'mgpu.lane_private' must be a unit attribute of a memref.subview}}
  %v = memref.load %m[%c0] {mgpu.lane_private} : memref<16xf32>
  return
}
