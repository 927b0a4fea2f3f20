//===- MGPUProfilerOps.td - The in-kernel profiler ------------*- tablegen -*-===//
//
// JAX's in-kernel profiler (CompilerParams profile_space / profile_dir,
// jax/experimental/mosaic/gpu/profiler.py): named scopes that each Pallas
// thread times, the event a profiled kernel records, and the clock it reads.
// --mgpu-profile-kernels turns scopes into events (or drops them when the
// kernel is not profiled) before any other kernel-form pass.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUPROFILEROPS_TD
#define MGPU_DIALECT_MGPU_MGPUPROFILEROPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_TraceScopeOp : MGPU_Op<"trace_scope", [
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a named region of a kernel body that the profiler times";
  let description = [{
    JAX's `jax.named_scope(name)` in a Pallas Mosaic GPU kernel: when the
    kernel is profiled (`profile_space` in its compiler params), each
    Pallas thread records the time it enters and leaves the region, and the
    trace shows the region under `name` on that thread's row. Otherwise the
    region is just its body. Scopes nest. Values the body computes leave it
    through its `mgpu.yield`, as the scope's results.

    ```mlir
    mgpu.trace_scope "load" {
      ...
    }
    %y = mgpu.trace_scope "compute" {
      %s = arith.mulf %x, %x : vector<128xf32>
      mgpu.yield %s : vector<128xf32>
    } -> vector<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name attr-dict-with-keyword $body (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def MGPU_ProfileEventOp : MGPU_Op<"profile_event"> {
  let summary = "a profiled kernel's record of entering or leaving a scope";
  let description = [{
    What --mgpu-profile-kernels makes of a scope's entry (`begin`) and exit
    (`end`): once per Pallas thread, the time (`mgpu.global_timer`) and the
    tag `scope` (or `scope | 2^31` at the end) are appended to this Pallas
    thread's trace, the `1 + 2 * capacity` words of `buffer` from `base`:
    word 0 counts the events, event `k` is words `1 + 2k` (tag) and
    `2 + 2k` (time). An event past `capacity` is dropped, never written.

    ```mlir
    mgpu.profile_event begin 1 in %prof[%base] capacity 8 : memref<68xi64>
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[I64], [1]>, "the traces", [MemRead, MemWrite]>:$buffer,
    Index:$base,
    I64Attr:$scope,
    UnitAttr:$end,
    I64Attr:$capacity
  );
  let assemblyFormat = [{
    (`end` $end^) : (`begin`)? $scope `in` $buffer `[` $base `]`
    `capacity` $capacity attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tag stored with the event: the scope, with bit 31 at the end.
    int64_t getTag() { return getScope() | (getEnd() ? (int64_t(1) << 31) : 0); }
  }];
}

def MGPU_GlobalTimerOp : MGPU_Op<"global_timer",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a nanosecond clock (%globaltimer on the GPU)";
  let description = [{
    Nanoseconds since an unspecified origin, as the GPU's `%globaltimer`
    (PTX `mov.u64 %r, %globaltimer`) counts them; the host backends read
    the host's steady clock. Its effects keep two reads apart and in
    program order.

    ```mlir
    %t = mgpu.global_timer : i64
    ```
  }];
  let results = (outs I64:$time);
  let assemblyFormat = "attr-dict `:` type($time)";
}

#endif // MGPU_DIALECT_MGPU_MGPUPROFILEROPS_TD
