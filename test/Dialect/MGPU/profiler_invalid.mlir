// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The profiler's rules: JAX's CompilerParams check (profile_space and
// profile_dir come together, in JAX's words), a non-negative space, scopes
// inside a kernel with a name and the results they yield, events with a
// scope id that leaves the end bit free.

// expected-error @+1 {{Either both profile_space and profile_dir must be set, or neither.}}
#p = #mgpu.compiler_params<profile_space = 4>

// -----

// expected-error @+1 {{Either both profile_space and profile_dir must be set, or neither.}}
#p = #mgpu.compiler_params<profile_dir = "/tmp/traces">

// -----

// expected-error @+1 {{profile_space must be non-negative, got -1}}
#p = #mgpu.compiler_params<profile_space = -1, profile_dir = "/tmp/traces">

// -----

func.func @outside() {
  // expected-error @+1 {{'mgpu.trace_scope' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.trace_scope "host" {
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
func.func @unnamed() {
  mgpu.mpmd_map meshes [#m] {
    // expected-error @+1 {{'mgpu.trace_scope' op needs a non-empty name (the trace shows it)}}
    mgpu.trace_scope "" {
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["i"]>
func.func @results() {
  mgpu.mpmd_map meshes [#m] {
    %r = mgpu.trace_scope "s" {
      %c = arith.constant 1 : i32
      // expected-error @+1 {{'mgpu.yield' op yields 1 value(s) whose types differ from the trace_scope's results}}
      mgpu.yield %c : i32
    } -> f32
  }
  return
}

// -----

func.func @scope_id(%t: memref<34xi64>) {
  mgpu.launch grid [1] warpgroups 1 outs(%t : memref<34xi64>) {
  ^bb0(%cta: index, %wg: index, %trace: memref<34xi64>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'mgpu.profile_event' op scope must be in [0, 2^31), got 2147483648}}
    mgpu.profile_event end 2147483648 in %trace[%c0] capacity 8 : memref<34xi64>
  }
  return
}
