// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// Kernel-body ops: S23 (program_id, num_programs), S24 (axis_index,
// axis_size), the semaphores, and body ops outside a kernel.

// S23
func.func @s23_program_id() {
  mgpu.pallas_call grid [4, 2] in_specs [] out_specs [] {
    // expected-error @+1 {{Axis 2 is out of bounds for grid (4, 2)}}
    %i = mgpu.program_id 2
  }
  return
}

// -----

// S23: a negative axis.
func.func @s23_negative(%n: index) {
  mgpu.pallas_call grid [%n] in_specs [] out_specs [] {
    // expected-error @+1 {{Axis -1 is out of bounds for grid (?,)}}
    %i = mgpu.program_id -1
  }
  return
}

// -----

// S23: num_programs in an empty grid.
func.func @s23_num_programs_empty_grid() {
  mgpu.pallas_call grid [] in_specs [] out_specs [] {
    // expected-error @+1 {{Axis 0 is out of bounds for grid ()}}
    %n = mgpu.num_programs 0
  }
  return
}

// -----

// S23: in an mpmd_map region, the grid is the region's mesh grid (not its
// cluster or thread axes), nested ops included.
func.func @s23_mpmd() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [4, 4], grid_names = ["g0", "g1"]>,
                        #mgpu.mesh<grid = [8], grid_names = ["g2"], cluster = [2], cluster_names = ["c"]>] {
    %i = mgpu.program_id 1
  }, {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %c1 step %c1 {
      // expected-error @+1 {{Axis 1 is out of bounds for grid (8,)}}
      %n = mgpu.num_programs 1
    }
  }
  return
}

// -----

// S24: a pallas_call without a mesh has no named axes.
func.func @s24_no_mesh() {
  mgpu.pallas_call grid [4] in_specs [] out_specs [] {
    // expected-error @+1 {{Axis x does not refer to a GPU mesh axis (available axes: [])}}
    %i = mgpu.axis_index "x"
  }
  return
}

// -----

// S24: the available axes are listed in grid, cluster, thread order.
func.func @s24_listed() {
  mgpu.pallas_call grid [4, 2, 2] in_specs [] out_specs []
      mesh #mgpu.mesh<grid = [4], grid_names = ["i"], cluster = [2],
                      cluster_names = ["c"], num_threads = 2, thread_name = "wg"> {
    // expected-error @+1 {{Axis j does not refer to a GPU mesh axis (available axes: ['i', 'c', 'wg'])}}
    %s = mgpu.axis_size "j"
  }
  return
}

// -----

// S24: axis_index sees only its own region's mesh.
func.func @s24_axis_index_other_mesh() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [4], grid_names = ["i"]>,
                        #mgpu.mesh<grid = [2], grid_names = ["k"]>] {
    // expected-error @+1 {{Axis k does not refer to a GPU mesh axis (available axes: ['i'])}}
    %i = mgpu.axis_index "k"
  }, {
  }
  return
}

// -----

// S24: axis_size sees the whole super-mesh, but not unknown names.
func.func @s24_axis_size_super_mesh() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [4], grid_names = ["i"]>,
                        #mgpu.mesh<grid = [2], grid_names = ["k"]>]
      external_meshes [#mgpu.mesh<num_threads = 2, thread_name = "wg">] {
    %k = mgpu.axis_size "k"
    %w = mgpu.axis_size "wg"
    // expected-error @+1 {{Axis z does not refer to a GPU mesh axis (available axes: ['i', 'k', 'wg'])}}
    %z = mgpu.axis_size "z"
  }, {
  }
  return
}

// -----

// S24: a mesh without axes has none to name.
func.func @s24_no_axes() {
  mgpu.mpmd_map meshes [#mgpu.mesh<>] {
    // expected-error @+1 {{Axis x does not refer to a GPU mesh axis (available axes: [])}}
    %i = mgpu.axis_index "x"
  }
  return
}

// -----

// Body ops outside a kernel.
func.func @program_id_outside() -> index {
  // expected-error @+1 {{'mgpu.program_id' op must be inside an 'mgpu.pallas_call' or 'mgpu.mpmd_map' region}}
  %i = mgpu.program_id 0
  return %i : index
}

// -----

func.func @num_programs_outside() -> index {
  // expected-error @+1 {{'mgpu.num_programs' op must be inside an 'mgpu.pallas_call' or 'mgpu.mpmd_map' region}}
  %i = mgpu.num_programs 0
  return %i : index
}

// -----

func.func @axis_index_outside() -> index {
  // expected-error @+1 {{'mgpu.axis_index' op must be inside an 'mgpu.pallas_call' or 'mgpu.mpmd_map' region}}
  %i = mgpu.axis_index "i"
  return %i : index
}

// -----

func.func @axis_size_outside() -> index {
  // expected-error @+1 {{'mgpu.axis_size' op must be inside an 'mgpu.pallas_call' or 'mgpu.mpmd_map' region}}
  %i = mgpu.axis_size "i"
  return %i : index
}

// -----

func.func @semaphore_outside(%sem: memref<8xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{'mgpu.semaphore_signal' op must be inside a kernel: an 'mgpu.pallas_call', 'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region}}
  mgpu.semaphore_signal %sem[%i], %v : memref<8xi32>
  return
}

// -----

// A semaphore in shared memory cannot synchronize CTAs.
func.func @semaphore_workgroup() {
  mgpu.pallas_call grid [2] in_specs [] out_specs []
      scratch [memref<8xi32, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<8xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    // expected-error @+2 {{'mgpu.semaphore_wait' op expects a semaphore ref in global memory, got one in shared memory}}
    // expected-note @+1 {{semaphores synchronize programs (CTAs): use a global-memory i32 ref, e.g. an mpmd_map scratch}}
    mgpu.semaphore_wait %s[%c0], %c1 : memref<8xi32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// One index per dimension of the semaphore ref.
func.func @semaphore_too_few_indices() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g4"]>] scratch [memref<2x4xi32>] {
  ^bb0(%s: memref<2x4xi32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'mgpu.semaphore_signal' op expects 2 indices for a semaphore ref of rank 2, got 1}}
    mgpu.semaphore_signal %s[%c0], %c1 : memref<2x4xi32>
  }
  return
}

// -----

func.func @semaphore_too_many_indices() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g5"]>] scratch [memref<8xi32>] {
  ^bb0(%s: memref<8xi32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'mgpu.semaphore_wait' op expects 1 indices for a semaphore ref of rank 1, got 2}}
    mgpu.semaphore_wait %s[%c0, %c0], %c1 : memref<8xi32>
  }
  return
}

// -----

// Semaphores are i32.
func.func @semaphore_element_type() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g6"]>] scratch [memref<8xi64>] {
  ^bb0(%s: memref<8xi64>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{'mgpu.semaphore_signal' op operand #0 must be memref of 32-bit signless integer values, but got 'memref<8xi64>'}}
    mgpu.semaphore_signal %s[%c0], %c1 : memref<8xi64>
  }
  return
}

// -----

// The value is an i32.
func.func @semaphore_value_type() {
  mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g7"]>] scratch [memref<8xi32>] {
  ^bb0(%s: memref<8xi32>):
    %c0 = arith.constant 0 : index
    // expected-note @+1 {{prior use here}}
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{use of value '%c1' expects different type than prior uses: 'i32' vs 'index'}}
    mgpu.semaphore_signal %s[%c0], %c1 : memref<8xi32>
  }
  return
}

// -----

// The axis of program_id is an integer.
func.func @program_id_axis_name() {
  mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    // expected-error @+1 {{invalid kind of attribute specified}}
    %i = mgpu.program_id "i"
  }
  return
}

// -----

// The axis of axis_index is a name.
func.func @axis_index_number() {
  mgpu.pallas_call grid [2] in_specs [] out_specs [] {
    // expected-error @+1 {{integer literal not valid for specified type}}
    %i = mgpu.axis_index 0
  }
  return
}
