// --mgpu-lower-to-gpu lowers only the kernel form: pipelines expanded
// (--mgpu-expand-pipelines) and barrier phases explicit
// (--mgpu-track-barrier-phases).
// RUN: mgpu-opt %s --mgpu-lower-to-gpu -split-input-file -verify-diagnostics

#b = #mgpu.block_spec<shape = [64], index_map = affine_map<(i) -> (i)>>

func.func @not_expanded(%a: memref<64xf32>, %o: memref<64xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op must be in kernel form before --mgpu-lower-to-gpu (run --mgpu-expand-pipelines)}}
  mgpu.pallas_call grid [1] ins(%a : memref<64xf32>) outs(%o : memref<64xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%x: memref<64xf32, #gpu.address_space<workgroup>>,
       %y: memref<64xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g0"]>
#s = #mgpu.block_spec<shape = [64], index_map = affine_map<(k) -> (k)>>

func.func @pipeline_inside(%a: memref<256xf32>) {
  mgpu.mpmd_map meshes [#m] ins(%a : memref<256xf32>) {
  ^bb0(%a0: memref<256xf32>):
    // expected-error @below {{'mgpu.emit_pipeline' op must be expanded before --mgpu-lower-to-gpu (run --mgpu-expand-pipelines)}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<256xf32>) in_specs [#s] out_specs [] {
    ^bb0(%k: index, %x: memref<64xf32, #gpu.address_space<workgroup>>):
    }
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [1], grid_names = ["g1"]>

func.func @implicit_phase(%o: memref<4xf32>) {
  mgpu.mpmd_map meshes [#m] outs(%o : memref<4xf32>) scratch [!mgpu.barrier<count = 1>] {
  ^bb0(%o0: memref<4xf32>, %bar: !mgpu.barrier<count = 1>):
    %c0 = arith.constant 0 : index
    // expected-error @below {{'mgpu.barrier_wait' op needs the parity of its phase before --mgpu-lower-to-gpu (run --mgpu-track-barrier-phases)}}
    mgpu.barrier_wait %bar[%c0] : !mgpu.barrier<count = 1>
  }
  return
}
