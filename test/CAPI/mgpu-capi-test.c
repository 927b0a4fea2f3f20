//===- mgpu-capi-test.c - The mgpu C API, from C --------------------------===//
//
// A C program that uses only the C API (MGPUCAPI): creates a context, loads the
// func and mgpu dialects through their handles, parses and verifies a module
// with an mgpu.mpmd_map, runs --mgpu-split-mpmd through the C pass manager
// (once as a pass object, once by name after registering the mgpu passes),
// and checks that a rule violation comes back as a diagnostic.
//
//===----------------------------------------------------------------------===//

// RUN: %mgpu_capi_test 2>&1 | FileCheck %s

#include "mgpu-c/Dialects.h"
#include "mgpu-c/Passes.h"
#include "mgpu-c/RegisterEverything.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>

static const char *kTwoPairs =
    "#m0 = #mgpu.mesh<grid = [4], grid_names = [\"i\"]>\n"
    "#m1 = #mgpu.mesh<grid = [2], grid_names = [\"j\"]>\n"
    "func.func @two_pairs(%a: memref<64xf32>, %o: memref<64xf32>) {\n"
    "  mgpu.mpmd_map meshes [#m0, #m1]\n"
    "      ins(%a : memref<64xf32>) outs(%o : memref<64xf32>) {\n"
    "  ^bb0(%a0: memref<64xf32>, %o0: memref<64xf32>):\n"
    "    %i = mgpu.axis_index \"i\"\n"
    "  }, {\n"
    "  ^bb0(%a1: memref<64xf32>, %o1: memref<64xf32>):\n"
    "    %j = mgpu.axis_index \"j\"\n"
    "  }\n"
    "  return\n"
    "}\n";

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirModule parse(MlirContext ctx, const char *text) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "failed to parse\n");
    exit(1);
  }
  return module;
}

static void runPipeline(MlirContext ctx, MlirModule module, MlirPass pass,
                        const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (pipeline) {
    MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
    MlirLogicalResult parsed = mlirParsePassPipeline(
        opm, mlirStringRefCreateFromCString(pipeline), printToStdout, NULL);
    if (mlirLogicalResultIsFailure(parsed)) {
      fprintf(stderr, "failed to parse the pipeline\n");
      exit(1);
    }
  } else {
    mlirPassManagerAddOwnedPass(pm, pass);
  }
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("pass manager: %s\n",
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirPassManagerDestroy(pm);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();

  // The dialect handle: its namespace, then load it with func.
  MlirDialectHandle mgpu = mlirGetDialectHandle__mgpu__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(mgpu);
  printf("handle: %.*s\n", (int)ns.length, ns.data);
  // CHECK: handle: mgpu
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  MlirDialect dialect = mlirDialectHandleLoadDialect(mgpu, ctx);
  printf("loaded: %d\n", !mlirDialectIsNull(dialect));
  // CHECK: loaded: 1

  // Parse, verify, print.
  MlirModule module = parse(ctx, kTwoPairs);
  MlirOperation op = mlirModuleGetOperation(module);
  printf("verified: %d\n", mlirOperationVerify(op));
  // CHECK: verified: 1
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  // CHECK-LABEL: func.func @two_pairs
  // CHECK: mgpu.mpmd_map meshes [#{{.+}}, #{{.+}}] ins({{.+}}) outs({{.+}}) {
  // CHECK: }, {

  // --mgpu-split-mpmd as a pass object: one launch per pair, in order.
  runPipeline(ctx, module, mlirCreateMGPUMGPUSplitMpmd(), NULL);
  // CHECK: pass manager: success
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  // CHECK-LABEL: func.func @two_pairs
  // CHECK: mgpu.mpmd_map meshes [#{{[^,]+}}] ins(%{{.+}} : memref<64xf32>)
  // CHECK: mgpu.axis_index "i"
  // CHECK: mgpu.mpmd_map meshes [#{{[^,]+}}] ins(%{{.+}} : memref<64xf32>)
  // CHECK: mgpu.axis_index "j"
  mlirModuleDestroy(module);

  // The same pass by name, once the group is registered.
  mlirRegisterMGPUPasses();
  module = parse(ctx, kTwoPairs);
  runPipeline(ctx, module, (MlirPass){NULL},
              "builtin.module(func.func(mgpu-split-mpmd))");
  // CHECK: pass manager: success
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  // CHECK-LABEL: func.func @two_pairs
  // CHECK-COUNT-2: mgpu.mpmd_map meshes [#{{[^,]+}}] ins
  mlirModuleDestroy(module);

  // A rule violation: with the jax profile set on the module, two pairs are
  // refused (rule S3); the verifier fails and the handler gets the message.
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  module = parse(ctx, kTwoPairs);
  MlirAttribute jax = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#mgpu.target<chip = \"sm_90a\", profile = jax>"));
  mlirOperationSetAttributeByName(mlirModuleGetOperation(module),
                                  mlirStringRefCreateFromCString("mgpu.target"),
                                  jax);
  printf("verified: %d\n", mlirOperationVerify(mlirModuleGetOperation(module)));
  // CHECK: diagnostic: Lowering multiple mesh/function pairs is not supported
  // CHECK-SAME: by the Mosaic GPU backend
  // CHECK: verified: 0
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirModuleDestroy(module);

  // Everything mgpu registers, through the registry of a second context.
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllMGPUDialects(registry);
  mlirRegisterAllMGPUPassesAndPipelines();
  MlirContext ctx2 = mlirContextCreateWithRegistry(registry, false);
  MlirDialect loaded =
      mlirContextGetOrLoadDialect(ctx2, mlirStringRefCreateFromCString("mgpu"));
  printf("registry: %d\n", !mlirDialectIsNull(loaded));
  // CHECK: registry: 1
  mlirContextDestroy(ctx2);
  mlirDialectRegistryDestroy(registry);

  mlirContextDestroy(ctx);
  printf("done\n");
  // CHECK: done
  return 0;
}
