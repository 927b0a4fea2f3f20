// The C ABI of libmgpu_cuda_runtime.so against what MLIR 22 emits: a host
// program using every GPU-dialect host op (and an nvgpu TMA descriptor) is
// lowered and translated to LLVM IR; every mgpu* function it declares must
// be defined by the library, with the signatures checked below. The library
// must not depend on libcuda (it opens the driver at run time) or on MLIR.

// RUN: mlir-opt %s --convert-nvgpu-to-nvvm --gpu-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: llvm-nm -D --defined-only %mgpu_cuda_runtime > %t.nm
// RUN: %python %S/check_abi.py %t.nm %t.ll | FileCheck %s --check-prefix=ABI
// RUN: FileCheck %s --check-prefix=DECL < %t.ll
// RUN: FileCheck %s --check-prefix=NM < %t.nm
// RUN: llvm-readelf -d %mgpu_cuda_runtime | FileCheck %s --check-prefix=NEEDED
// RUN: ldd %mgpu_cuda_runtime | FileCheck %s --check-prefix=LDD

// ABI-NOT: missing
// ABI: 22 declared, 0 missing

// The signatures this runtime implements, as MLIR 22 declares them.
// DECL-DAG: declare ptr @mgpuModuleLoad(ptr, i64)
// DECL-DAG: declare ptr @mgpuModuleLoadJIT(ptr, i32)
// DECL-DAG: declare void @mgpuModuleUnload(ptr)
// DECL-DAG: declare ptr @mgpuModuleGetFunction(ptr, ptr)
// DECL-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
// DECL-DAG: declare void @mgpuLaunchClusterKernel(ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr)
// DECL-DAG: declare ptr @mgpuStreamCreate()
// DECL-DAG: declare void @mgpuStreamSynchronize(ptr)
// DECL-DAG: declare void @mgpuStreamDestroy(ptr)
// DECL-DAG: declare void @mgpuStreamWaitEvent(ptr, ptr)
// DECL-DAG: declare ptr @mgpuEventCreate()
// DECL-DAG: declare void @mgpuEventRecord(ptr, ptr)
// DECL-DAG: declare void @mgpuEventDestroy(ptr)
// DECL-DAG: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// DECL-DAG: declare void @mgpuMemFree(ptr, ptr)
// DECL-DAG: declare void @mgpuMemcpy(ptr, ptr, i64, ptr)
// DECL-DAG: declare void @mgpuMemset32(ptr, i32, i64, ptr)
// DECL-DAG: declare void @mgpuMemset16(ptr, i16, i64, ptr)
// DECL-DAG: declare void @mgpuMemHostRegisterMemRef(i64, ptr, i64)
// DECL-DAG: declare void @mgpuMemHostUnregisterMemRef(i64, ptr, i64)
// DECL-DAG: declare void @mgpuSetDefaultDevice(i32)
// DECL-DAG: declare ptr @mgpuTensorMapEncodeTiledMemref(i64, ptr, i64, i64, i64, i64, i64, ptr)

// Everything the library exports, including what no op above emits
// (mgpuEventSynchronize is declared by MLIR too) and the device query.
// NM-DAG: T mgpuEventCreate
// NM-DAG: T mgpuEventDestroy
// NM-DAG: T mgpuEventRecord
// NM-DAG: T mgpuEventSynchronize
// NM-DAG: T mgpuLaunchClusterKernel
// NM-DAG: T mgpuLaunchKernel
// NM-DAG: T mgpuMemAlloc
// NM-DAG: T mgpuMemFree
// NM-DAG: T mgpuMemHostRegister
// NM-DAG: T mgpuMemHostRegisterMemRef
// NM-DAG: T mgpuMemHostUnregister
// NM-DAG: T mgpuMemHostUnregisterMemRef
// NM-DAG: T mgpuMemcpy
// NM-DAG: T mgpuMemset16
// NM-DAG: T mgpuMemset32
// NM-DAG: T mgpuModuleGetFunction
// NM-DAG: T mgpuModuleLoad
// NM-DAG: T mgpuModuleLoadJIT
// NM-DAG: T mgpuModuleUnload
// NM-DAG: T mgpuRuntimeHasDevice
// NM-DAG: T mgpuRuntimeNoDeviceReason
// NM-DAG: T mgpuSetDefaultDevice
// NM-DAG: T mgpuStreamCreate
// NM-DAG: T mgpuStreamDestroy
// NM-DAG: T mgpuStreamSynchronize
// NM-DAG: T mgpuStreamWaitEvent
// NM-DAG: T mgpuTensorMapEncodeTiled
// NM-DAG: T mgpuTensorMapEncodeTiledMemref
// NM-NOT: {{ cu[A-Z]}}

// NEEDED-NOT: libcuda
// NEEDED-NOT: libMLIR
// NEEDED: Library soname: [libmgpu_cuda_runtime.so]
// NEEDED-NOT: libcuda
// NEEDED-NOT: libMLIR

// LDD-NOT: libcuda
// LDD: libc.so
// LDD-NOT: libcuda

!tensorMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>,
    swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

module attributes {gpu.container_module} {
  // A cubin (loaded with mgpuModuleLoad) and PTX (mgpuModuleLoadJIT); the
  // contents do not matter, nothing runs.
  gpu.binary @cubin [#gpu.object<#nvvm.target, bin = "CUBIN">]
  gpu.binary @ptx [#gpu.object<#nvvm.target, assembly = "PTX">]

  func.func @host(%host: memref<16xf32>, %unranked: memref<*xf32>,
                  %device: i32) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.set_default_device %device
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %buffer, %t2 = gpu.alloc async [%t0] () : memref<16xf32>
    %shared = gpu.alloc host_shared () : memref<16xf32>
    %t3 = gpu.memcpy async [%t2] %buffer, %host : memref<16xf32>, memref<16xf32>
    %one = arith.constant 1.0 : f32
    %t4 = gpu.memset async [%t3] %buffer, %one : memref<16xf32>, f32
    %halves, %t5 = gpu.alloc async [%t4] () : memref<16xi16>
    %h = arith.constant 1 : i16
    %t6 = gpu.memset async [%t5] %halves, %h : memref<16xi16>, i16
    %t7 = gpu.launch_func async [%t6] @cubin::@k
        blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
        args(%buffer : memref<16xf32>)
    %t8 = gpu.launch_func async [%t7] @ptx::@k
        clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1) args(%buffer : memref<16xf32>)
    %t9 = gpu.dealloc async [%t8] %buffer : memref<16xf32>
    // Joining two streams records an event on one and waits for it.
    %t10 = gpu.wait async [%t9, %t1]
    gpu.wait [%t10]
    gpu.host_register %unranked : memref<*xf32>
    gpu.host_unregister %unranked : memref<*xf32>
    return
  }

  // The descriptor is left unused: only the call that creates it matters.
  func.func @tma(%tensor: memref<64x64xf16>) {
    %c64 = arith.constant 64 : index
    %unranked = memref.cast %tensor : memref<64x64xf16> to memref<*xf16>
    %map = nvgpu.tma.create.descriptor %unranked box[%c64, %c64]
        : memref<*xf16> -> !tensorMap
    return
  }
}
