//===- Passes.td - Pipelines passes ------------------------*- tablegen -*-===//
//
// The passes of the pipelines' own (lib/Pipelines): the chip entrance and
// the checks that run before a pipeline. Each lives in one file of lib/Pipelines;
// mgpu/Passes.h declares the passes of every layer, mgpu/Pipelines.h
// composes them.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_PIPELINES_PASSES_TD
#define MGPU_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def MGPUPipelineError : Pass<"mgpu-pipeline-error"> {
  let summary = "Reports a pipeline that cannot run, and fails";
  let description = [{
    What the mgpu pipelines add instead of their passes when they cannot
    run as asked (nested under an op other than `builtin.module`, an
    unknown option value): it emits `message` as an error at the op it runs
    on and fails, so the tool exits with status 1 instead of aborting.
  }];
  let options = [
    Option<"message", "message", "std::string", "\"\"",
           "the error to report">
  ];
}

def MGPUSetTarget : Pass<"mgpu-set-target", "::mlir::ModuleOp"> {
  let summary = "Write the chip a pipeline compiles for into mgpu.target";
  let description = [{
    With `chip=`, sets the chip of the module's `mgpu.target` (keeping its
    profile; adding one where the module has none): the GPU pipeline's
    `chip=` runs this pass first, so that every later pass reads the same
    chip from the module (the one entrance of the chip). An unknown chip is
    an error that lists the known ones. Without `chip=` it does nothing.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip (sm_80, sm_90, sm_90a, sm_100, sm_100a)">
  ];
}

def MGPUCheckModuleLevel : Pass<"mgpu-check-module-level", "::mlir::ModuleOp"> {
  let summary = "Refuses code at module level, outside any function";
  let description = [{
    The first pass of the mgpu pipelines. An op directly in a
    `builtin.module` that is not a symbol (a function, a global, a
    `gpu.module`), not isolated from above (a nested module) and not one of
    the LLVM dialect's module-level declarations (`llvm.mlir.global_ctors`,
    `llvm.module_flags`, ...: no operands, no results) is code that no
    function runs, e.g. a `vector.print`. The lowering would carry it into
    LLVM IR as an instruction with no function, which LLVM's verifier
    rejects with a dump and no location; this pass reports it at the op.
  }];
}

#endif // MGPU_PIPELINES_PASSES_TD
