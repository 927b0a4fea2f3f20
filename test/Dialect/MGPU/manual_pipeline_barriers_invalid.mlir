// The rules of manual_consumed_barriers, manual_ready_barriers and
// mgpu.eval_pipeline (JAX's compute_context(pipeline_callback)); the two
// messages about calling the pipeline are JAX's (pipeline.py).
// RUN: mgpu-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
#gmem = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @global_input(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op manual_consumed_barriers needs every input staged in shared memory, but ins[0] stays in global memory}}
    // expected-note @below {{JAX's memory thread still uses its consumed barrier; stage the block (memory_space = smem)}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#gmem] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: memref<256x64xf16>, %c: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %c[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#late = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>, delay_release = 1>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @delay_release(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op manual_consumed_barriers with delay_release = 1 is not supported}}
    // expected-note @below {{JAX would pass barrier.at[(step - 1) % max_concurrent_steps], a negative index at the first 1 steps}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#late] out_specs []
        params #mgpu.compiler_params<max_concurrent_steps = 2>
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %c: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %c[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @waited_on(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-note @below {{the pipeline's memory thread waits on it before refilling the slot}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %c: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %c[%c0] : !cons
      // expected-error @below {{'mgpu.barrier_wait' op uses the consumed barrier of ins[0], which may only be arrived on (mgpu.barrier_arrive)}}
      mgpu.barrier_wait %c[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @never_arrived(%x: memref<256x64xf16>, %y: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x64xf16>, memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>, %ya: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op consumed barrier of ins[1] is never arrived on}}
    // expected-note @below {{When manual_consumed_barriers is True, the user must arrive on all the consumed barriers from all compute warpgroups at each pipeline step.}}
    mgpu.emit_pipeline grid [4] ins(%xa, %ya : memref<256x64xf16>, memref<256x64xf16>) in_specs [#rows, #rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %ys: !blk, %cx: !cons, %cy: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %cx[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @consumed_type(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op body argument #2 (for consumed barrier of ins[0]) has type '!mgpu.barrier<count = 1>', expected '!mgpu.barrier<count = 1, arrivals = 2>'}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %c: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %c[%c0] : !mgpu.barrier<count = 1>
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @missing_consumed(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op body has 2 arguments, expected 3 (grid indices, one per input and output block, ready and consumed barriers, carries)}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk):
      "test.step"(%xs) : (!blk) -> ()
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @twice(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk):
      "test.step"(%xs) : (!blk) -> ()
    } compute_context {
      mgpu.eval_pipeline()
      // expected-error @below {{'mgpu.eval_pipeline' op Cannot call pipeline more than once in `compute_context`}}
      mgpu.eval_pipeline()
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @never_called(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op Pipeline was not called in `compute_context`}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk):
      "test.step"(%xs) : (!blk) -> ()
    } compute_context {
      "test.epilogue"() : () -> ()
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @in_loop(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk):
      "test.step"(%xs) : (!blk) -> ()
    } compute_context {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-note @below {{the memory thread runs the steps once; a loop or a condition here would run the compute threads' steps another number of times}}
      scf.for %j = %c0 to %c1 step %c1 {
        // expected-error @below {{'mgpu.eval_pipeline' op runs the pipeline once, so only mgpu.run_scoped may enclose it inside the compute_context, got 'scf.for'}}
        mgpu.eval_pipeline()
      }
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
func.func @outside(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.eval_pipeline' op must be inside the compute_context of a warp-specialized mgpu.emit_pipeline}}
    mgpu.eval_pipeline()
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @both_carries(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op has both init_carry and an mgpu.eval_pipeline in its compute_context}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) init_carry(%zero : vector<16xf32>)
        in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> -> vector<16xf32> {
    ^bb0(%i: index, %xs: !blk, %acc: vector<16xf32>):
      mgpu.yield %acc : vector<16xf32>
    } compute_context {
      // expected-note @below {{the carry's initial values are eval_pipeline's operands}}
      %last = mgpu.eval_pipeline(%zero : vector<16xf32>)
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @context_arguments(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op compute_context calls mgpu.eval_pipeline, so it takes no arguments, got ('vector<16xf32>')}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk, %acc: vector<16xf32>):
      mgpu.yield %acc : vector<16xf32>
    } compute_context {
    ^bb0(%v: vector<16xf32>):
      %last = mgpu.eval_pipeline(%v : vector<16xf32>)
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @carry_types(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op body must end with one argument per carried value, of types ('vector<16xf32>')}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%i: index, %xs: !blk, %acc: vector<8xf32>):
      mgpu.yield %acc : vector<8xf32>
    } compute_context {
      %last = mgpu.eval_pipeline(%zero : vector<16xf32>)
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @results(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    %zero = arith.constant dense<0.0> : vector<16xf32>
    // expected-error @below {{'mgpu.emit_pipeline' op returns values, but its compute_context calls mgpu.eval_pipeline: the pipeline returns nothing}}
    %r = mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<> -> vector<16xf32> {
    ^bb0(%i: index, %xs: !blk, %acc: vector<16xf32>):
      mgpu.yield %acc : vector<16xf32>
    } compute_context {
      %last = mgpu.eval_pipeline(%zero : vector<16xf32>)
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [2], grid_names = ["j"], cluster = [2], cluster_names = ["c"], num_threads = 3, thread_name = "wg">
#mc = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>, collective_axes = ["c"]>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @multicast(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op manual_consumed_barriers with a multicast input (in_specs[0] has collective_axes) is not supported}}
    // expected-note @below {{its slot is filled and released by every CTA of the cluster group: let the pipeline synchronize it (drop manual_consumed_barriers)}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#mc] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %c: !cons):
      %c0 = arith.constant 0 : index
      mgpu.barrier_arrive %c[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!ready = !mgpu.barrier<count = 1>
func.func @ready_arrived_on(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-note @below {{the pipeline's memory thread's copy arrives on it}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %r: !ready):
      %c0 = arith.constant 0 : index
      mgpu.barrier_wait %r[%c0] : !ready
      // expected-error @below {{'mgpu.barrier_arrive' op uses the ready barrier of ins[0], which may only be waited on (mgpu.barrier_wait)}}
      mgpu.barrier_arrive %r[%c0] : !ready
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!ready = !mgpu.barrier<count = 1>
func.func @never_waited(%x: memref<256x64xf16>, %y: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x, %y : memref<256x64xf16>, memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>, %ya: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op ready barrier of ins[0] is never waited on}}
    // expected-note @below {{with manual_ready_barriers the body waits for each block's copy before reading it}}
    mgpu.emit_pipeline grid [4] ins(%xa, %ya : memref<256x64xf16>, memref<256x64xf16>) in_specs [#rows, #rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %ys: !blk, %rx: !ready, %ry: !ready):
      %c0 = arith.constant 0 : index
      mgpu.barrier_wait %ry[%c0] : !ready
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#rows = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(i) -> (i, 0)>>
!blk = memref<64x64xf16, #gpu.address_space<workgroup>>
!cons = !mgpu.barrier<count = 1, arrivals = 2>
func.func @ready_type(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op body argument #2 (for ready barrier of ins[0]) has type '!mgpu.barrier<count = 1, arrivals = 2>', expected '!mgpu.barrier<count = 1>'}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#rows] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true, manual_consumed_barriers = true> {
    ^bb0(%i: index, %xs: !blk, %c: !cons, %r: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      mgpu.barrier_wait %r[%c0] : !mgpu.barrier<count = 1>
      mgpu.barrier_arrive %c[%c0] : !cons
    }
  }
  return
}

// -----

#mesh = #mgpu.mesh<grid = [1], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#gmem = #mgpu.block_spec<shape = [256, 64], index_map = affine_map<(i) -> (0, 0)>, memory_space = gmem>
func.func @ready_global_input(%x: memref<256x64xf16>) {
  mgpu.mpmd_map meshes [#mesh] ins(%x : memref<256x64xf16>) {
  ^bb0(%xa: memref<256x64xf16>):
    // expected-error @below {{'mgpu.emit_pipeline' op manual_ready_barriers needs every input staged in shared memory, but ins[0] stays in global memory}}
    // expected-note @below {{JAX's memory thread still uses its ready barrier; stage the block (memory_space = smem)}}
    mgpu.emit_pipeline grid [4] ins(%xa : memref<256x64xf16>) in_specs [#gmem] out_specs []
        warp_specialization #mgpu.warp_specialization<manual_ready_barriers = true> {
    ^bb0(%i: index, %xs: memref<256x64xf16>, %r: !mgpu.barrier<count = 1>):
      %c0 = arith.constant 0 : index
      mgpu.barrier_wait %r[%c0] : !mgpu.barrier<count = 1>
    }
  }
  return
}
