// RUN: mgpu-opt %s -split-input-file -verify-diagnostics

// The rules of a warp-specialized emit_pipeline: a program of at least two
// Pallas threads, no array both read and written, register budgets that
// setmaxnreg accepts and the register file holds.

#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#one = #mgpu.mesh<grid = [2], grid_names = ["i"]>
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

func.func @one_thread(%a: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#one] ins(%a : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>):
    // expected-error @+2 {{'mgpu.emit_pipeline' op is warp-specialized, but its program runs 1 Pallas thread: it needs a memory thread and at least one compute thread}}
    // expected-note @+1 {{give the enclosing kernel's mesh num_threads >= 2 and a thread_name (the last thread copies, the others compute)}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs [] warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}

// -----

#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

func.func @aliased(%a: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>):
    // expected-error @+2 {{'mgpu.emit_pipeline' op is warp-specialized, but ins[0] is also an output: the memory thread cannot read it in step order}}
    // expected-note @+1 {{drop warp_specialization, or pass separate input and output arrays}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>) outs(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs [#spec] warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%k: index, %x: !smem, %y: !smem):
    }
  }
  return
}

// -----

// expected-error @+1 {{memory_registers must be a multiple of 8 in [24, 256] (setmaxnreg), got 20}}
#bad = #mgpu.warp_specialization<memory_registers = 20>

// -----

// expected-error @+1 {{compute_registers must be a multiple of 8 in [24, 256] (setmaxnreg), got 250}}
#bad = #mgpu.warp_specialization<memory_registers = 40, compute_registers = 250>

// -----

// expected-error @+2 {{compute_registers needs memory_registers}}
// expected-note @+1 {{the compute threads grow into the registers the memory thread gives up}}
#bad = #mgpu.warp_specialization<compute_registers = 232>

// -----

#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

func.func @memory_above_entry(%a: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op gives the memory thread 176 registers, more than the 168 each of the 3 Pallas threads starts with: setmaxnreg can only lower it}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs [] warp_specialization #mgpu.warp_specialization<memory_registers = 176> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}

// -----

#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

func.func @compute_below_entry(%a: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op gives each compute thread 160 registers, fewer than the 168 each of the 3 Pallas threads starts with: setmaxnreg can only raise them}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40, compute_registers = 160> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}

// -----

#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

func.func @over_register_file(%a: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>):
    // expected-error @+1 {{'mgpu.emit_pipeline' op needs 40 + 2 x 240 registers per lane, more than the register file's 512}}
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40, compute_registers = 240> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}
