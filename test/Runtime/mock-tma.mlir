// nvgpu.tma.create.descriptor lowers to mgpuTensorMapEncodeTiledMemref,
// which turns a memref descriptor into cuTensorMapEncodeTiled's arguments
// (dimensions innermost first, byte strides of the outer dimensions, box)
// and copies the tensor map to device memory. Checked on the mock driver,
// for a whole memref and for a strided subview of it, whose strides come
// from the memref's layout rather than from its sizes.

// RUN: mlir-opt %s \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa" \
// RUN: | env MGPU_CUDA_DRIVER=%mgpu_mock_cuda mlir-runner -e main --entry-point-result=void \
// RUN:   --shared-libs=%mgpu_cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 \
// RUN: | FileCheck %s

// f16 is data type 6; swizzle_128b is 3, l2promo_128b 2, oob nan 1.
// CHECK: mock: cuTensorMapEncodeTiled(type 6, rank 2, dims [128,64], strides [256], box [64,32], element strides [1,1], interleave 0, swizzle 3, l2 2, oob 1)
// CHECK-NEXT: mock: cuMemAlloc(128)
// CHECK-NEXT: mock: cuMemcpyHtoD(128 bytes)
// CHECK-NEXT: mock: cuTensorMapEncodeTiled(type 6, rank 2, dims [64,32], strides [256], box [64,32], element strides [1,1], interleave 0, swizzle 3, l2 2, oob 1)
// CHECK-NEXT: mock: cuMemAlloc(128)
// CHECK-NEXT: mock: cuMemcpyHtoD(128 bytes)

!tensorMap = !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>,
    swizzle = swizzle_128b, l2promo = l2promo_128b, oob = nan,
    interleave = none>

func.func @main() {
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %tensor = memref.alloc() : memref<64x128xf16>
  %whole = memref.cast %tensor : memref<64x128xf16> to memref<*xf16>
  %map = nvgpu.tma.create.descriptor %whole box[%c32, %c64]
      : memref<*xf16> -> !tensorMap
  %view = memref.subview %tensor[16, 64] [32, 64] [1, 1]
      : memref<64x128xf16> to memref<32x64xf16, strided<[128, 1], offset: 2112>>
  %part = memref.cast %view
      : memref<32x64xf16, strided<[128, 1], offset: 2112>> to memref<*xf16>
  %viewMap = nvgpu.tma.create.descriptor %part box[%c32, %c64]
      : memref<*xf16> -> !tensorMap
  memref.dealloc %tensor : memref<64x128xf16>
  return
}
