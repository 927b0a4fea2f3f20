// RUN: mgpu-opt %s --mgpu-expand-pipelines --mgpu-lower-to-gpu -split-input-file -verify-diagnostics
// RUN: not mgpu-opt %s --mgpu-lower-to-gpu="mpmd-form=warp-specialized" -split-input-file 2>&1 | FileCheck %s --check-prefix=WS
// RUN: not mgpu-opt %s --mgpu-lower-to-gpu="mpmd-form=diagonal" -split-input-file 2>&1 | FileCheck %s --check-prefix=FORM

// FORM: mgpu-lower-to-gpu: unknown mpmd-form 'diagonal' (expected auto, warp-specialized or cta-partitioned)

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @tensor_form(%x: tensor<256xf32>) -> tensor<256xf32> {
  // expected-error @below {{'mgpu.pallas_call' op must be bufferized before --mgpu-expand-pipelines (run --mgpu-bufferize)}}
  %r = mgpu.pallas_call grid [2] ins(%x : tensor<256xf32>) outs(%x : tensor<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @alloca(%x: memref<256xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xf32>) outs(%x : memref<256xf32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    // expected-error @below {{'memref.alloca' op cannot be lowered to the GPU: a kernel body cannot allocate memory on the GPU (each lane would get its own buffer); use a scratch operand}}
    %t = memref.alloca() : memref<128xf32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @unknown_vector_op(%x: memref<256xi32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256xi32>) outs(%x : memref<256xi32>)
      in_specs [#b] out_specs [#b] {
  ^bb0(%xs: memref<128xi32, #gpu.address_space<workgroup>>, %os: memref<128xi32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %a = arith.constant dense<1> : vector<64xi32>
    // expected-error @below {{'vector.interleave' op cannot be lowered to the GPU: no distribution of this vector op over the 128 lanes of a warpgroup}}
    %v = vector.interleave %a, %a : vector<64xi32> -> vector<128xi32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [256, 128], index_map = affine_map<(i) -> (i, 0)>>
// The 128 KiB block and the 128 KiB a transpose exchanges between lanes do
// not fit together.
func.func @too_much_shared_memory(%x: memref<512x128xf32>, %o: memref<128xf32>) {
  // expected-error @below {{'mgpu.pallas_call' op needs}}
  // expected-note @below {{use smaller blocks or vectors}}
  mgpu.pallas_call grid [2] ins(%x : memref<512x128xf32>) outs(%o : memref<128xf32>)
      in_specs [#b] out_specs [#mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (0)>, memory_space = gmem>] {
  ^bb0(%xs: memref<256x128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : vector<128xf32>
    %v = vector.load %xs[%c0, %c0] : memref<256x128xf32, #gpu.address_space<workgroup>>, vector<256x128xf32>
    %t = vector.transpose %v, [1, 0] : vector<256x128xf32> to vector<128x256xf32>
    %r = vector.multi_reduction <add>, %t, %zero [1] : vector<128x256xf32> to vector<128xf32>
    vector.store %r, %os[%c0] : memref<128xf32>, vector<128xf32>
  }
  return
}

// -----

#b = #mgpu.block_spec<shape = [128, 128], index_map = affine_map<(i) -> (i, 0)>>
// S31: a vector too large to live in registers, refused before any backend.
func.func @too_large_for_registers(%x: memref<256x128xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<256x128xf32>)
      in_specs [#b] out_specs [] {
  ^bb0(%xs: memref<128x128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %v = vector.load %xs[%c0, %c0] : memref<128x128xf32, #gpu.address_space<workgroup>>, vector<128x128xf32>
    // expected-error @below {{'vector.broadcast' op holds 'vector<3x128x128xf32>', 384 32-bit registers per lane across a warpgroup's 128 lanes; at most 256 fit}}
    // expected-note @below {{work on smaller vectors (a loop over slices of the block)}}
    %b = vector.broadcast %v : vector<128x128xf32> to vector<3x128x128xf32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [100], grid_names = ["p"]>
#n = #mgpu.mesh<grid = [50], grid_names = ["q"]>
func.func @not_resident(%s: memref<1xi32>) {
  // expected-error @below {{'mgpu.mpmd_map' op waits on a semaphore, so all its CTAs must be resident at once, but it launches 150 CTAs and only 114 are guaranteed to be resident on sm_90a}}
  // expected-note @below {{a launch that waits for CTAs that cannot start would deadlock; use fewer programs}}
  mgpu.mpmd_map meshes [#m, #n] outs(%s : memref<1xi32>) {
  ^bb0(%s0: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_signal %s0[%c0], %one : memref<1xi32>
  }, {
  ^bb0(%s1: memref<1xi32>):
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    mgpu.semaphore_wait %s1[%c0], %one : memref<1xi32>
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["p"]>
#n = #mgpu.mesh<grid = [4], grid_names = ["q"]>
func.func @different_grids(%x: memref<8xf32>) {
  // WS: error: 'mgpu.mpmd_map' op cannot be warp-specialized: its meshes do not all have the same grid and cluster
  // WS: note: use mpmd-form=cta-partitioned
  mgpu.mpmd_map meshes [#m, #n] outs(%x : memref<8xf32>) {
  ^bb0(%x0: memref<8xf32>):
  }, {
  ^bb0(%x1: memref<8xf32>):
  }
  return
}

// -----

#m = #mgpu.mesh<grid = [2], grid_names = ["p"], cluster = [2], cluster_names = ["c"]>
#n = #mgpu.mesh<grid = [4], grid_names = ["q"]>
func.func @different_clusters(%x: memref<8xf32>) {
  // expected-error @below {{'mgpu.mpmd_map' op cannot be CTA-partitioned: its meshes have different clusters, and one launch has one cluster shape}}
  // expected-note @below {{give every mesh the same cluster}}
  mgpu.mpmd_map meshes [#m, #n] outs(%x : memref<8xf32>) {
  ^bb0(%x0: memref<8xf32>):
  }, {
  ^bb0(%x1: memref<8xf32>):
  }
  return
}
