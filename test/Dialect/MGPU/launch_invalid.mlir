// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The launch form's verifier: its arguments and scratch plan.

func.func @missing_operand(%n: index) {
  // expected-error @below {{'mgpu.launch' op expects one grid operand per dynamic size (2), got 1}}
  "mgpu.launch"(%n) <{static_grid = array<i64: -9223372036854775808, -9223372036854775808>, warpgroups = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 0>}> ({
  ^bb0(%i: index, %j: index, %wg: index):
    mgpu.yield
  }) : (index) -> ()
  return
}

// -----

func.func @empty_grid() {
  // expected-error @below {{'mgpu.launch' op grid size #0 must be positive, got 0}}
  mgpu.launch grid [0] warpgroups 1 {
  ^bb0(%i: index, %wg: index):
  }
  return
}

// -----

func.func @cluster_rank() {
  // expected-error @below {{'mgpu.launch' op expects a cluster of at most 3 dimensions, got 4}}
  mgpu.launch grid [1] cluster [1, 1, 1, 1] warpgroups 1 {
  ^bb0(%i: index, %a: index, %b: index, %c: index, %d: index, %wg: index):
  }
  return
}

// -----

func.func @big_cluster() {
  // expected-error @below {{'mgpu.launch' op has clusters of 16 CTAs (4, 4); a portable cluster holds at most 8}}
  mgpu.launch grid [1] cluster [4, 4] warpgroups 1 {
  ^bb0(%i: index, %a: index, %b: index, %wg: index):
  }
  return
}

// -----

func.func @too_many_warpgroups() {
  // expected-error @below {{'mgpu.launch' op runs 9 warpgroups per CTA, expected 1 to 8 (128 threads each)}}
  mgpu.launch grid [1] warpgroups 9 {
  ^bb0(%i: index, %wg: index):
  }
  return
}

// -----

func.func @global_in_shared_memory() {
  // expected-error @below {{'mgpu.launch' op expects global scratch of statically shaped global-memory buffers, got 'memref<4xi32, #gpu.address_space<workgroup>>'}}
  mgpu.launch grid [1] warpgroups 1 global [memref<4xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%i: index, %wg: index, %s: memref<4xi32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

func.func @shared_in_global_memory() {
  // expected-error @below {{'mgpu.launch' op expects shared scratch of statically shaped, row-major workgroup-memory buffers, barrier arrays and TMEM buffers, got 'memref<4xi32>'}}
  mgpu.launch grid [1] warpgroups 1 shared [memref<4xi32>] at [0] {
  ^bb0(%i: index, %wg: index, %s: memref<4xi32>):
  }
  return
}

// -----

func.func @offsets_count() {
  // expected-error @below {{'mgpu.launch' op expects one offset per shared scratch entry (1), got 2}}
  mgpu.launch grid [1] warpgroups 1 shared [!mgpu.barrier<count = 1>] at [0, 128] {
  ^bb0(%i: index, %wg: index, %b: !mgpu.barrier<count = 1>):
  }
  return
}

// -----

func.func @overlap() {
  // expected-error @below {{'mgpu.launch' op expects shared scratch #1 at a multiple of 128 bytes after the entries before it (from 1024), got offset 512}}
  mgpu.launch grid [1] warpgroups 1 shared [memref<256xf32, #gpu.address_space<workgroup>>, !mgpu.barrier<count = 1>] at [0, 512] {
  ^bb0(%i: index, %wg: index, %s: memref<256xf32, #gpu.address_space<workgroup>>, %b: !mgpu.barrier<count = 1>):
  }
  return
}

// -----

func.func @unaligned() {
  // expected-error @below {{'mgpu.launch' op expects shared scratch #0 at a multiple of 128 bytes after the entries before it (from 0), got offset 8}}
  mgpu.launch grid [1] warpgroups 1 shared [!mgpu.barrier<count = 1>] at [8] {
  ^bb0(%i: index, %wg: index, %b: !mgpu.barrier<count = 1>):
  }
  return
}

// -----

func.func @argument_count(%o: memref<4xf32>) {
  // expected-error @below {{'mgpu.launch' op expects 3 body arguments (grid and cluster indices, warpgroup, scalars, arrays, scratch), got 2}}
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<4xf32>) {
  ^bb0(%i: index, %wg: index):
  }
  return
}

// -----

func.func @argument_type(%o: memref<4xf32>) {
  // expected-error @below {{'mgpu.launch' op expects body argument #2 of type 'memref<4xf32>', got 'memref<8xf32>'}}
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<4xf32>) {
  ^bb0(%i: index, %wg: index, %y: memref<8xf32>):
  }
  return
}

// -----

// The queries are computed by --mgpu-form-launches; a launch has no grid or
// mesh they could refer to.
func.func @query(%o: memref<4xindex>) {
  mgpu.launch grid [1] warpgroups 1 outs(%o : memref<4xindex>) {
  ^bb0(%i: index, %wg: index, %y: memref<4xindex>):
    // expected-error @below {{'mgpu.program_id' op}}
    %p = mgpu.program_id 0
  }
  return
}

// -----

// A launch runs from host code, not inside another kernel.
func.func @nested(%o: memref<4xf32>) {
  // expected-note @below {{enclosing kernel is here}}
  mgpu.launch grid [1] warpgroups 1 {
  ^bb0(%i: index, %wg: index):
    // expected-error @below {{'mgpu.pallas_call' op cannot be nested inside 'mgpu.launch': kernels are launched from host code}}
    mgpu.pallas_call grid [1] in_specs [] out_specs [] {
    }
  }
  return
}
