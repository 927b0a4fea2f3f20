// RUN: mgpu-opt %s --mgpu-track-barrier-phases -split-input-file -verify-diagnostics

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
!bar = !mgpu.barrier<count = 1>

// The phase bits flow through scf.for, scf.while and scf.if only.
func.func @index_switch() {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    %i = mgpu.program_id 0
    // expected-error @below {{'scf.index_switch' op holds an mgpu.barrier_wait or mgpu.barrier_test without a parity, whose phase cannot be tracked through this op}}
    // expected-note @below {{give the wait its phase (`parity %p`), or use scf.for, scf.while and scf.if around it}}
    scf.index_switch %i
    case 1 {
      %done = mgpu.barrier_test %bar[%c0] : !bar
      scf.yield
    }
    default {
      scf.yield
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g1"]>
!bar = !mgpu.barrier<count = 65>

// One i64 of phase bits: at most 64 barriers.
func.func @too_many(%i: index) {
  mgpu.mpmd_map meshes [#m] scratch [!bar] {
  ^bb0(%bar: !bar):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.barrier_wait' op waits without a parity on an array of 65 barriers; phases are tracked for at most 64}}
    // expected-note @below {{give the wait its phase (`parity %p`)}}
    mgpu.barrier_wait %bar[%c0] : !bar
  }
  return
}
