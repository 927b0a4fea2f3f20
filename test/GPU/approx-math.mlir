// RUN: mgpu-opt %s --mgpu-math-flags --mgpu-expand-pipelines --mgpu-track-barrier-phases --mgpu-form-launches --mgpu-assign-layouts --mgpu-place-barriers --mgpu-distribute-warpgroups --mgpu-lower-to-gpu --mgpu-primitives-to-nvvm | FileCheck %s

// approx_math's tanh on the GPU: JAX lowers lax.tanh under approx_math to
// tanh.approx.f32; mgpu writes each lane's f32 tanh with `afn` as llvm.tanh
// with `afn` (the NVPTX backend's tanh.approx.f32). Exact tanh, and tanh of
// other types (JAX: NotImplementedError), stay math.tanh for libdevice.

#b = #mgpu.block_spec<shape = [512], index_map = affine_map<(i) -> (i)>>
#exact = #mgpu.compiler_params<dimension_semantics = [parallel]>
#approx = #mgpu.compiler_params<dimension_semantics = [parallel], approx_math = true>

// CHECK-LABEL: func.func @approx
// CHECK: gpu.launch
// CHECK-NOT: math.tanh
// CHECK: llvm.extractelement
// CHECK: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// CHECK: llvm.insertelement
// CHECK-NOT: math.tanh
// CHECK: gpu.terminator
func.func @approx(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #approx {
  ^bb0(%xs: memref<512xf32, #gpu.address_space<workgroup>>,
       %os: memref<512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %t = math.tanh %v : vector<512xf32>
    vector.transfer_write %t, %os[%c0] {in_bounds = [true]} : vector<512xf32>, memref<512xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @exact
// CHECK: gpu.launch
// CHECK-NOT: llvm.intr.tanh
// CHECK: math.tanh %{{.*}} fastmath<contract> : vector<{{[0-9]+}}xf32>
// CHECK-NOT: llvm.intr.tanh
// CHECK: gpu.terminator
func.func @exact(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #exact {
  ^bb0(%xs: memref<512xf32, #gpu.address_space<workgroup>>,
       %os: memref<512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %t = math.tanh %v : vector<512xf32>
    vector.transfer_write %t, %os[%c0] {in_bounds = [true]} : vector<512xf32>, memref<512xf32, #gpu.address_space<workgroup>>
  }
  return
}

// CHECK-LABEL: func.func @approx_bf16
// CHECK: gpu.launch
// CHECK-NOT: llvm.intr.tanh
// CHECK: math.tanh %{{.*}} fastmath<arcp,contract,afn> : vector<{{[0-9]+}}xbf16>
// CHECK-NOT: llvm.intr.tanh
// CHECK: gpu.terminator
func.func @approx_bf16(%x: memref<1024xbf16>, %o: memref<1024xbf16>) {
  mgpu.pallas_call grid [2] ins(%x : memref<1024xbf16>) outs(%o : memref<1024xbf16>)
      in_specs [#b] out_specs [#b] params #approx {
  ^bb0(%xs: memref<512xbf16, #gpu.address_space<workgroup>>,
       %os: memref<512xbf16, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : bf16
    %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<512xbf16, #gpu.address_space<workgroup>>, vector<512xbf16>
    %t = math.tanh %v : vector<512xbf16>
    vector.transfer_write %t, %os[%c0] {in_bounds = [true]} : vector<512xbf16>, memref<512xbf16, #gpu.address_space<workgroup>>
  }
  return
}
