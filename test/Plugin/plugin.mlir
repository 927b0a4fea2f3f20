// Stock mlir-opt (from the MLIR packages, not mgpu-opt) works on mgpu IR with
// MGPUPlugin.so: the same file is loaded as a dialect plugin and as a pass
// plugin in one run (no duplicate-registration abort), parses and verifies
// the IR, and runs --mgpu-split-mpmd.
//
// UNSUPPORTED: mgpu-sanitize
//
// Without the plugin, stock mlir-opt knows nothing of mgpu.
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: error: #"mgpu"<"mesh<{{.*}}"> : 'none' attribute created with unregistered dialect
//
// Both plugins from the one file. Plugin passes are named in --pass-pipeline:
// mlir-opt fixes its --<pass> flags before it loads plugins.
// RUN: %mlir_opt --load-dialect-plugin=%mgpu_plugin --load-pass-plugin=%mgpu_plugin \
// RUN:   --pass-pipeline='builtin.module(mgpu-split-mpmd)' %s | FileCheck %s
//
// The dialect plugin alone registers the passes too; its output parses again.
// RUN: %mlir_opt --load-dialect-plugin=%mgpu_plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(mgpu-split-mpmd))' %s \
// RUN:   | %mlir_opt --load-dialect-plugin=%mgpu_plugin | FileCheck %s
//
// The pass plugin alone registers the passes (the IR needs the dialect).
// RUN: %mlir_opt --load-pass-plugin=%mgpu_plugin --list-passes | FileCheck %s --check-prefix=PASSES
// PASSES: --mgpu-split-mpmd
//
// Round trip without passes: the verifiers run (the jax profile refuses two
// pairs, with the backend's message; notes are the verifier tests' business).
// RUN: %mlir_opt --load-dialect-plugin=%mgpu_plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %mlir_opt --load-dialect-plugin=%mgpu_plugin --load-pass-plugin=%mgpu_plugin \
// RUN:   -verify-diagnostics=only-expected %S/Inputs/jax-two-pairs.mlir

#m0 = #mgpu.mesh<grid = [4], grid_names = ["i"]>
#m1 = #mgpu.mesh<grid = [2], grid_names = ["j"]>

// ROUNDTRIP-LABEL: func.func @two_pairs
// ROUNDTRIP: mgpu.mpmd_map meshes [#{{.+}}, #{{.+}}] ins(%{{.+}} : memref<1024xf32>) outs(%{{.+}} : memref<1024xf32>) {
// ROUNDTRIP: mgpu.axis_index "i"
// ROUNDTRIP: }, {
// ROUNDTRIP: mgpu.axis_index "j"

// CHECK-DAG: #[[M0:.+]] = #mgpu.mesh<grid = [4], grid_names = ["i"]>
// CHECK-DAG: #[[M1:.+]] = #mgpu.mesh<grid = [2], grid_names = ["j"]>
// CHECK-LABEL: func.func @two_pairs
// CHECK-SAME: (%[[A:.+]]: memref<1024xf32>, %[[O:.+]]: memref<1024xf32>)
// CHECK: mgpu.mpmd_map meshes [#[[M0]]] ins(%[[A]] : memref<1024xf32>) outs(%[[O]] : memref<1024xf32>) {
// CHECK: mgpu.axis_index "i"
// CHECK: mgpu.mpmd_map meshes [#[[M1]]] ins(%[[A]] : memref<1024xf32>) outs(%[[O]] : memref<1024xf32>) {
// CHECK: mgpu.axis_index "j"
// CHECK: return
func.func @two_pairs(%a: memref<1024xf32>, %o: memref<1024xf32>) {
  mgpu.mpmd_map meshes [#m0, #m1]
      ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>) {
  ^bb0(%a0: memref<1024xf32>, %o0: memref<1024xf32>):
    %i = mgpu.axis_index "i"
  }, {
  ^bb0(%a1: memref<1024xf32>, %o1: memref<1024xf32>):
    %j = mgpu.axis_index "j"
  }
  return
}
