// The installed package: `cmake --install` into a fresh prefix, then a
// downstream project (the CMakeLists.txt and mgpu-downstream.cpp next to this
// file) does find_package(MGPU), links MGPU::MGPUPipelines, registers what
// mgpu provides, and runs --mgpu-split-mpmd on this file through its own
// PassManager; and a C program does the same through MGPU::MGPUCAPI.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cmake --install %mgpu_obj_root --prefix %t/install > %t/install.log
//
// What a downstream user needs is there: headers (with the generated .inc and
// the .td files), the C API, libraries, the plugin, mgpu-opt, the package.
// RUN: cd %t/install && find . -type f | sort \
// RUN:   | FileCheck %s --check-prefix=FILES --implicit-check-not=CMakeFiles
// FILES-DAG: ./bin/mgpu-opt
// FILES-DAG: ./include/mgpu-c/Dialects.h
// FILES-DAG: ./include/mgpu-c/Passes.capi.h.inc
// FILES-DAG: ./include/mgpu/Dialect/MGPU/MGPUDialect.h
// FILES-DAG: ./include/mgpu/Dialect/MGPU/MGPUOps.h.inc
// FILES-DAG: ./include/mgpu/Dialect/MGPU/MGPUOps.td
// FILES-DAG: ./include/mgpu/InitAll.h
// FILES-DAG: ./include/mgpu/Passes.h
// FILES-DAG: ./include/mgpu/GPU/Passes.h.inc
// FILES-DAG: ./include/mgpu/Host/Passes.h.inc
// FILES-DAG: ./include/mgpu/KernelForm/Passes.h.inc
// FILES-DAG: ./include/mgpu/KernelForm/Passes.td
// FILES-DAG: ./include/mgpu/Pipelines/Passes.h.inc
// FILES-DAG: ./lib/MGPUPlugin.so
// FILES-DAG: ./lib/cmake/MGPU/MGPUConfig.cmake
// FILES-DAG: ./lib/cmake/MGPU/MGPUTargets.cmake
// FILES-DAG: ./lib/libMGPUCAPI.so
// FILES-DAG: ./lib/libMGPUDialect.a
// FILES-DAG: ./lib/libMGPUMLIRCAPI.so
// FILES-DAG: ./lib/libMGPUPipelines.a
// FILES-DAG: ./lib/libMGPUTarget.a
//
// The installed mgpu-opt runs from its new place.
// RUN: %t/install/bin/mgpu-opt --mgpu-split-mpmd %s | FileCheck %s
//
// RUN: %cmake -S %mgpu_src_root/test/Downstream -B %t/build %mgpu_downstream_cmake_flags \
// RUN:   -DCMAKE_PREFIX_PATH=%t/install > %t/configure.log
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/mgpu-downstream %s mgpu-split-mpmd | FileCheck %s
//
// The C API from the install: test/CAPI's program, built downstream.
// RUN: %t/build/mgpu-downstream-capi 2>&1 | FileCheck %mgpu_src_root/test/CAPI/mgpu-capi-test.c

#m0 = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#m1 = #mgpu.mesh<grid = [2], grid_names = ["j"]>

// CHECK-DAG: #[[M0:.+]] = #mgpu.mesh<grid = [4], grid_names = ["i"]>
// CHECK-DAG: #[[M1:.+]] = #mgpu.mesh<grid = [2], grid_names = ["j"]>
// CHECK-LABEL: func.func @two_pairs
// CHECK-SAME: (%[[A:.+]]: memref<64xf32>, %[[O:.+]]: memref<64xf32>)
// CHECK: mgpu.mpmd_map meshes [#[[M0]]] ins(%[[A]] : memref<64xf32>) outs(%[[O]] : memref<64xf32>) {
// CHECK: mgpu.axis_index "i"
// CHECK: mgpu.mpmd_map meshes [#[[M1]]] ins(%[[A]] : memref<64xf32>) outs(%[[O]] : memref<64xf32>) {
// CHECK: mgpu.axis_index "j"
// CHECK: return
func.func @two_pairs(%a: memref<64xf32>, %o: memref<64xf32>) {
  mgpu.mpmd_map meshes [#m0, #m1]
      ins(%a : memref<64xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%a0: memref<64xf32>, %o0: memref<64xf32>):
    %i = mgpu.axis_index "i"
  }, {
  ^bb0(%a1: memref<64xf32>, %o1: memref<64xf32>):
    %j = mgpu.axis_index "j"
  }
  return
}
