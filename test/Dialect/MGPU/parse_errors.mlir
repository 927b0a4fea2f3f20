// RUN: not mgpu-opt %s -split-input-file 2>&1 | FileCheck %s

// Malformed input must fail cleanly, with a diagnostic and exit code 1,
// never a crash. Each case is checked in order.

// CHECK: parse_errors.mlir:[[@LINE+1]]:16: error: unbalanced '<' character in pretty dialect name
#m = #mgpu.mesh<grid = [4]

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unbalanced '[' character in pretty dialect name
#m = #mgpu.mesh<grid = [4, 2>

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: expected valid keyword
// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a parameter name in struct
#m = #mgpu.mesh<grid = [4], grid_names = ["g0"],>

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: expected '='
func.func @f() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] mesh #mgpu.mesh<grid [1]> {
  }
  return
}

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: custom op 'mgpu.pallas_call' expected 'in_specs'
func.func @f() {
  mgpu.pallas_call grid [1] out_specs [] {
  }
  return
}

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: custom op 'mgpu.mpmd_map' expected 'meshes'
func.func @f() {
  mgpu.mpmd_map [#mgpu.mesh<>] {
  }
  return
}

// -----

// CHECK: [[@LINE+3]]:{{[0-9]+}}: error: expected '[' in dynamic index list
// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: custom op 'mgpu.pallas_call' expected SSA value or integer
func.func @f() {
  mgpu.pallas_call grid 4 in_specs [] out_specs [] {
  }
  return
}

// -----

// A comma promises another region.
// CHECK: [[@LINE+3]]:{{[0-9]+}}: error: expected '{' to begin a region
func.func @f() {
  mgpu.mpmd_map meshes [#mgpu.mesh<>] {
  },
  return
}

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: custom op 'mgpu.semaphore_signal' invalid kind of type specified
func.func @f(%m: memref<*xi32>, %v: i32) {
  mgpu.semaphore_signal %m[], %v : memref<*xi32>
  return
}

// -----

// CHECK: [[@LINE+3]]:{{[0-9]+}}: error: integer constant out of range for attribute
func.func @f() {
  mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    %0 = mgpu.program_id 99999999999999999999
  }
  return
}

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown attribute `kernel` in dialect `mgpu`
#k = #mgpu.kernel<>

// -----

// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: custom op 'mgpu.pallas_calls' is unknown
func.func @f() {
  mgpu.pallas_calls grid [1] in_specs [] out_specs [] {
  }
  return
}

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected '>'
#m = #mgpu.target<chip = "sm_90a" profile = jax>

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected operation name in quotes
}}} garbage {{{
