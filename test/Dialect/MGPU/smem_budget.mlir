// RUN: mgpu-opt %s -split-input-file | FileCheck %s

// S25 positive twins of smem_budget_invalid.mlir: kernels at or under the
// shared-memory limit, GMEM blocks and global scratch (which do not count).

// Exactly 227 KiB = 232448 bytes of scratch on sm_90a.
// CHECK-LABEL: func.func @sm90a_at_limit
// CHECK: scratch [memref<232448xi8, #gpu.address_space<workgroup>>]
func.func @sm90a_at_limit() {
  mgpu.pallas_call grid [8] in_specs [] out_specs []
      scratch [memref<232448xi8, #gpu.address_space<workgroup>>] {
  ^bb0(%s: memref<232448xi8, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(d0) -> (d0, 0)>>
// The kernel that overflows sm_80 (196608 bytes) fits sm_90a.
// CHECK-LABEL: func.func @sm90a_blocks_and_scratch
// CHECK: mgpu.pallas_call
module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = jax>} {
  func.func @sm90a_blocks_and_scratch(%a: tensor<1024x128xf32>, %o: tensor<1024x128xf32>) -> tensor<1024x128xf32> {
    %r = mgpu.pallas_call grid [8] ins(%a : tensor<1024x128xf32>) outs(%o : tensor<1024x128xf32>)
        in_specs [#b] out_specs [#b]
        scratch [memref<128x128xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%x: memref<128x128xf32, #gpu.address_space<workgroup>>,
         %y: memref<128x128xf32, #gpu.address_space<workgroup>>,
         %s: memref<128x128xf32, #gpu.address_space<workgroup>>):
    } -> tensor<1024x128xf32>
    return %r : tensor<1024x128xf32>
  }
}

// -----

// Exactly 163 KiB = 166912 bytes of mpmd_map scratch on sm_80.
// CHECK-LABEL: func.func @sm80_at_limit
// CHECK: scratch [memref<8xi32>, memref<41728xf32, #gpu.address_space<workgroup>>]
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @sm80_at_limit() {
    mgpu.mpmd_map meshes [#mgpu.mesh<grid = [2], grid_names = ["g0"]>]
        scratch [memref<8xi32>, memref<41728xf32, #gpu.address_space<workgroup>>] {
    ^bb0(%sem: memref<8xi32>, %s: memref<41728xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(d0) -> (d0, 0)>>
#p = #mgpu.compiler_params<max_concurrent_steps = 1>
// One buffer instead of two: 131072 bytes fit sm_90a.
// CHECK-LABEL: func.func @sm90a_one_buffer
// CHECK: mgpu.pallas_call
func.func @sm90a_one_buffer(%a: memref<1024x128xf32>, %o: memref<1024x128xf32>) {
  mgpu.pallas_call grid [8] ins(%a : memref<1024x128xf32>) outs(%o : memref<1024x128xf32>)
      in_specs [#b] out_specs [#b] params #p {
  ^bb0(%x: memref<128x128xf32, #gpu.address_space<workgroup>>,
       %y: memref<128x128xf32, #gpu.address_space<workgroup>>):
  }
  return
}

// -----

#g = #mgpu.block_spec<shape = [4096, 4096], index_map = affine_map<(d0) -> (0, 0)>, memory_space = gmem>
#p = #mgpu.compiler_params<max_concurrent_steps = 8>
// GMEM blocks and global scratch use no shared memory, however large.
// CHECK-LABEL: func.func @gmem_not_counted
// CHECK: scratch [memref<1048576xf32>]
module attributes {mgpu.target = #mgpu.target<chip = "sm_80">} {
  func.func @gmem_not_counted(%a: memref<4096x4096xf32>, %o: memref<4096x4096xf32>) {
    mgpu.pallas_call grid [8] ins(%a : memref<4096x4096xf32>) outs(%o : memref<4096x4096xf32>)
        in_specs [#g] out_specs [#g] scratch [memref<1048576xf32>] params #p {
    ^bb0(%x: memref<4096x4096xf32>, %y: memref<4096x4096xf32>, %s: memref<1048576xf32>):
    }
    return
  }
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i, k) -> (i, k)>>
#p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential], max_concurrent_steps = 16>
// As JAX counts buffers: max_concurrent_steps = 16 over 2 sequential steps
// buffers the 64 KiB block twice (128 KiB), not 16 times (1 MiB).
// CHECK-LABEL: func.func @jax_counting
module attributes {mgpu.target = #mgpu.target<profile = jax>} {
  func.func @jax_counting(%a: memref<1024x256xf32>) {
    mgpu.pallas_call grid [8, 2] ins(%a : memref<1024x256xf32>)
        in_specs [#b] out_specs [] params #p {
    ^bb0(%x: memref<128x128xf32, #gpu.address_space<workgroup>>):
    }
    return
  }
}
