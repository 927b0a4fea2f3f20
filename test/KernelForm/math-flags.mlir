// RUN: mgpu-opt --mgpu-math-flags %s | FileCheck %s
// RUN: mgpu-opt --mgpu-to-binary="format=isa" %s | %extract_ptx | FileCheck %s --check-prefix=PTX
// REQUIRES: ptxas

#b = #mgpu.block_spec<shape = [512], index_map = affine_map<(i) -> (i)>>
#exact = #mgpu.compiler_params<dimension_semantics = [parallel]>
#approx = #mgpu.compiler_params<dimension_semantics = [parallel], approx_math = true>

// Every kernel may fuse multiply-adds (as nvcc does); flags already there
// stay.
// CHECK-LABEL: func.func @exact(
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<512xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : vector<512xf32>
// CHECK: math.exp %{{.*}} fastmath<contract> : vector<512xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<contract> : vector<512xf32>
// The host code outside kernels is left alone.
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: return
// PTX-LABEL: .entry exact_kernel(
// PTX-NOT: div.approx
// PTX: fma.rn.f32
// PTX-NOT: div.approx
// PTX: div.rn.f32
// PTX-NOT: div.approx
// PTX: ret;
func.func @exact(%x: memref<1024xf32>, %o: memref<1024xf32>, %s: f32) -> f32 {
  mgpu.pallas_call grid [2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #exact {
  ^bb0(%xs: memref<512xf32, #gpu.address_space<workgroup>>,
       %os: memref<512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %two = arith.constant dense<2.0> : vector<512xf32>
    %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %m = arith.mulf %v, %two : vector<512xf32>
    %a = arith.addf %m, %v fastmath<nnan> : vector<512xf32>
    %e = math.exp %a : vector<512xf32>
    %d = arith.divf %e, %v : vector<512xf32>
    vector.transfer_write %d, %os[%c0] {in_bounds = [true]} : vector<512xf32>, memref<512xf32, #gpu.address_space<workgroup>>
  }
  %r = arith.mulf %s, %s : f32
  return %r : f32
}

// approx_math = true: approximate functions and reciprocals too, which the
// GPU lowering turns into ex2.approx and div.approx.
// CHECK-LABEL: func.func @approx(
// CHECK: math.exp %{{.*}} fastmath<arcp,contract,afn> : vector<512xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<arcp,contract,afn> : vector<512xf32>
// PTX-LABEL: .entry approx_kernel(
// PTX-NOT: div.rn.f32
// PTX: ex2.approx
// PTX-NOT: div.rn.f32
// PTX: div.approx.f32
// PTX-NOT: div.rn.f32
// PTX: ret;
func.func @approx(%x: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.pallas_call grid [2] ins(%x : memref<1024xf32>) outs(%o : memref<1024xf32>)
      in_specs [#b] out_specs [#b] params #approx {
  ^bb0(%xs: memref<512xf32, #gpu.address_space<workgroup>>,
       %os: memref<512xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %xs[%c0], %pad {in_bounds = [true]} : memref<512xf32, #gpu.address_space<workgroup>>, vector<512xf32>
    %e = math.exp %v : vector<512xf32>
    %d = arith.divf %e, %v : vector<512xf32>
    vector.transfer_write %d, %os[%c0] {in_bounds = [true]} : vector<512xf32>, memref<512xf32, #gpu.address_space<workgroup>>
  }
  return
}
