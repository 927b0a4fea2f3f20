// RUN: mgpu-opt %s --mgpu-form-launches="mpmd-form=cta-partitioned" --mgpu-lower-to-cpu -split-input-file -verify-diagnostics

#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>

func.func @tensor_form(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @below {{'mgpu.pallas_call' op must be bufferized before --mgpu-form-launches (run --mgpu-bufferize)}}
  %r = mgpu.pallas_call grid [1] ins(%a : tensor<64xf32>) outs(%a : tensor<64xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>,
       %y: memref<64xf32, #gpu.address_space<workgroup>>):
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>

// Launches are formed from the kernel form.
func.func @not_expanded(%a: memref<64xf32>, %o: memref<64xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op must be in kernel form before --mgpu-form-launches (run --mgpu-expand-pipelines)}}
  mgpu.pallas_call grid [1] ins(%a : memref<64xf32>) outs(%o : memref<64xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>,
       %y: memref<64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#g = #mgpu.block_spec<shape = [4], index_map = affine_map<(i) -> (0)>, memory_space = gmem>

// Programs of a pallas_call that waits on a semaphore run on their own host
// threads in interpret mode: the grid must be static and small enough.
func.func @pallas_wait(%sem: memref<4xi32>) {
  // expected-error @below {{'mgpu.launch' op waits on a semaphore: interpret mode runs each of its Pallas threads on its own host thread, at most 1024, for a static grid}}
  // expected-note @below {{use a smaller static grid to run it on the CPU}}
  mgpu.pallas_call grid [2048] outs(%sem : memref<4xi32>) in_specs [] out_specs [#g] expanded {
  ^bb0(%s: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %s[%c0], %one : memref<4xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>

// The phase of a wait must be explicit by now.
func.func @implicit_phase(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) scratch [!mgpu.barrier<count = 1>] {
  ^bb0(%o0: memref<4xf32>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.barrier_wait' op needs the parity of its phase before --mgpu-form-launches (run --mgpu-track-barrier-phases)}}
    mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
  }
  return
}

// -----

#big = #mgpu.mesh<grid = [64, 16], grid_names = ["g1", "g2"]>
#one = #mgpu.mesh<grid = [1], grid_names = ["g3"]>

// 1025 programs that may wait on each other would need 1025 host threads.
func.func @too_many_threads(%o: memref<4xf32>) {
  // expected-error @below {{'mgpu.launch' op waits on a semaphore: interpret mode runs each of its Pallas threads on its own host thread, at most 1024, for a static grid}}
  // expected-note @below {{use a smaller static grid to run it on the CPU}}
  mgpu.mpmd_map meshes [#big, #one] outs(%o : memref<4xf32>) scratch [memref<1xi32>] {
  ^bb0(%o0: memref<4xf32>, %s0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%o1: memref<4xf32>, %s1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %n = arith.constant 1024 : i32
    mgpu.semaphore_wait %s1[%c0], %n : memref<1xi32>
  }
  return
}
