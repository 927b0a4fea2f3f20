// The whole GPU pipeline: tensor-form kernels to a gpu.binary plus host code
// in the LLVM dialect, which mlir-translate turns into LLVM IR.
// REQUIRES: ptxas

// RUN: mgpu-opt %s --mgpu-to-binary="format=isa" | FileCheck %s
// RUN: mgpu-opt %s --mgpu-to-binary="chip=sm_80 format=isa opt-level=2" | FileCheck %s --check-prefix=SM80
// RUN: mgpu-opt %s --mgpu-to-binary="format=fatbin" | FileCheck %s --check-prefix=FATBIN
// RUN: mgpu-opt %s --mgpu-to-binary | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-NOT: mgpu.
// CHECK-LABEL: llvm.func @scale
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @scale_kernel::@scale_kernel blocks in
// CHECK: gpu.binary @scale_kernel {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {{.*}}, assembly = "{{.*}}.target sm_90a
// CHECK-NOT: mgpu.

// SM80: #nvvm.target<chip = "sm_80", features = "+ptx80">
// SM80-SAME: .target sm_80

// FATBIN: gpu.binary @scale_kernel {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {{.*}}, "

// LLVMIR: @scale_kernel_binary = internal constant
// LLVMIR-LABEL: define {{.*}} @scale(
// LLVMIR: call ptr @mgpuMemAlloc(i64 2048,
// One tensor map (rank 1, f32) for the array read and written in place.
// LLVMIR: call ptr @mgpuTensorMapEncodeTiledMemref(i64 1, ptr %{{.*}}, i64 7,
// LLVMIR-NOT: @mgpuTensorMapEncodeTiledMemref(
// One shared-memory slot for the aliased block (512 bytes), its barrier.
// LLVMIR: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 4, i64 1, i64 1, i64 128, i64 1, i64 1, i32 520,
// LLVMIR: call ptr @mgpuModuleLoad(

#block = #mgpu.block_spec<shape = [128], index_map = affine_map<(i) -> (i)>>
func.func @scale(%x: tensor<512xf32>) -> tensor<512xf32> {
  %r = mgpu.pallas_call grid [4] ins(%x : tensor<512xf32>) outs(%x : tensor<512xf32>)
      in_specs [#block] out_specs [#block] {
  ^bb0(%xs: memref<128xf32, #gpu.address_space<workgroup>>, %os: memref<128xf32, #gpu.address_space<workgroup>>):
    %c0 = arith.constant 0 : index
    %two = arith.constant dense<2.0> : vector<128xf32>
    %v = vector.load %xs[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
    %s = arith.mulf %v, %two : vector<128xf32>
    vector.store %s, %os[%c0] : memref<128xf32, #gpu.address_space<workgroup>>, vector<128xf32>
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}
