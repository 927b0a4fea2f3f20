// RUN: mgpu-opt %s | mgpu-opt | FileCheck %s
// RUN: mgpu-opt %s --mlir-print-op-generic | mgpu-opt | FileCheck %s

// A warp-specialized emit_pipeline round trips, with and without register
// budgets, in an mpmd_map and in a pallas_call whose mesh has threads.

#mesh = #mgpu.mesh<grid = [2], grid_names = ["i"], num_threads = 3, thread_name = "wg">
#spec = #mgpu.block_spec<shape = [64, 64], index_map = affine_map<(k) -> (0, k)>>
#two = #mgpu.compiler_params<max_concurrent_steps = 2>
!smem = memref<64x64xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @in_mpmd_map
func.func @in_mpmd_map(%a: memref<64x256xf32>, %o: memref<64x256xf32>) {
  mgpu.mpmd_map meshes [#mesh] ins(%a : memref<64x256xf32>) outs(%o : memref<64x256xf32>) {
  ^bb0(%a0: memref<64x256xf32>, %o0: memref<64x256xf32>):
    // CHECK: mgpu.emit_pipeline grid [4] ins(%{{.*}} : memref<64x256xf32>) outs(%{{.*}} : memref<64x256xf32>) in_specs [#{{.*}}] out_specs [#{{.*}}] params #{{.*}} warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>) outs(%o0 : memref<64x256xf32>)
        in_specs [#spec] out_specs [#spec] params #two
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %x: !smem, %y: !smem):
    }
    // CHECK: warp_specialization #mgpu.warp_specialization<memory_registers = 24, compute_registers = 240> {
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 24, compute_registers = 240> {
    ^bb0(%k: index, %x: !smem):
    }
    // CHECK: warp_specialization #mgpu.warp_specialization<> {
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs [] warp_specialization #mgpu.warp_specialization<> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}

#whole = #mgpu.block_spec<shape = [64, 256], index_map = affine_map<(i, t) -> (0, 0)>, memory_space = gmem>

// CHECK-LABEL: func.func @in_pallas_call
func.func @in_pallas_call(%a: memref<64x256xf32>) {
  mgpu.pallas_call grid [2, 3] ins(%a : memref<64x256xf32>) in_specs [#whole] out_specs [] mesh #mesh {
  ^bb0(%a0: memref<64x256xf32>):
    // CHECK: warp_specialization #mgpu.warp_specialization<memory_registers = 40>
    mgpu.emit_pipeline grid [4] ins(%a0 : memref<64x256xf32>)
        in_specs [#spec] out_specs []
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %x: !smem):
    }
  }
  return
}
