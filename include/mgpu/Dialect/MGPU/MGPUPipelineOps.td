//===- MGPUPipelineOps.td - Scoped allocations, pipelines --*- tablegen -*-===//
//
// The region ops of a kernel body: `run_scoped` (JAX's `pl.run_scoped`,
// allocations that live for its region) and `emit_pipeline` (JAX's
// `plgpu.emit_pipeline` and `emit_pipeline_warp_specialized`), which
// --mgpu-expand-pipelines turns into step loops over kernel-level ops.
// Included at the end of MGPUPrimitiveOps.td, so the op list keeps its
// order.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUPIPELINEOPS_TD
#define MGPU_DIALECT_MGPU_MGPUPIPELINEOPS_TD

include "mgpu/Dialect/MGPU/MGPUTypes.td"

def MGPU_RunScopedOp : MGPU_Op<"run_scoped", [
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a region with its own buffers, barriers and accumulators";
  let description = [{
    Runs its region once, with allocations that live only inside it
    (`pl.run_scoped`), and returns what the region yields. The region's
    arguments are the allocations:
    - a shared-memory buffer (`memref<..., #gpu.address_space<workgroup>>`)
      or a barrier array (`!mgpu.barrier<...>`): one per CTA, its contents
      undefined on entry. In a kernel with several Pallas threads these are
      shared by all of them, which JAX asks to be spelled out:
      `collective_axes [<thread axis>]`.
    - a vector: an accumulator in registers (`plgpu.ACC`), zero on entry,
      one per Pallas thread, so never collective. Thread it through
      `mgpu.wgmma` (and the loops around it) and yield what is needed.

    The lowering (`--mgpu-lower-run-scoped`) gives each buffer and barrier
    a scratch entry of the kernel (an entry of its own: two scopes one after
    the other do not share memory, as they do in JAX) and each accumulator
    a zero vector, then inlines the region.

    ```mlir
    %sum = mgpu.run_scoped collective_axes ["wg"] -> vector<128xf32> {
    ^bb0(%buf: memref<128xf32, #gpu.address_space<workgroup>>,
         %bar: !mgpu.barrier<count = 1>):
      ...
      mgpu.yield %v : vector<128xf32>
    }
    %acc = mgpu.run_scoped -> vector<64x128xf32> {
    ^bb0(%zero: vector<64x128xf32>):
      %d = mgpu.wgmma %zero, %a, %b : ...
      mgpu.wgmma_wait 0
      mgpu.yield %d : vector<64x128xf32>
    }
    ```
  }];
  let arguments = (ins OptionalAttr<StrArrayAttr>:$collective_axes);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`collective_axes` $collective_axes^)? (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def MGPU_EmitPipelineOp : MGPU_Op<"emit_pipeline", [
    AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a pipelined loop over blocks of global refs, inside a kernel";
  let description = [{
    Runs its body once per point of `grid`, in order (last axis innermost),
    with the blocks of `ins` and `outs` (global-memory refs) staged through
    shared memory as in a pallas_call: `max_concurrent_steps` buffers per
    block, inputs fetched up to `max_concurrent_steps - 1` steps ahead, a
    block revisited on consecutive steps fetched (or written back) once,
    outputs written back when their block index changes and at the end.
    Output blocks are not read from memory. Index maps take the pipeline's
    grid indices; refs the kernel has sliced (memref.subview) select the
    part of an array a program works on (plgpu.emit_pipeline). Values of
    the kernel an index map captures (JAX's `lambda k: (k, m_i)`) are its
    symbols: `index_map_symbols(%m_i, ..)` binds `s0, ..` of every spec's
    map, in order (`affine_map<(k)[s0] -> (k, s0)>`).

    The body's arguments are the grid indices (`index`), then one buffer per
    input and output block, then the carried values: with `init_carry`
    (JAX's `init_carry`), the body receives the previous step's carry (the
    initial values at the first step), yields the next one
    (`mgpu.yield %c : T`), and the pipeline returns the last (results of
    the types of `init_carry`). The body may use the values of the enclosing
    kernel (program ids, scalars). The Pallas thread that runs an
    emit_pipeline runs all of it; when several Pallas threads of a CTA run
    the same emit_pipeline, each has its own buffers.

    With `warp_specialization` (JAX's `emit_pipeline_warp_specialized`), the
    Pallas threads of the program share one set of buffers instead: the last
    one (the memory thread) copies the input blocks in, waiting for a buffer
    to be released before refilling it, and the others (the compute threads)
    each run the body at every step, telling their parts of the blocks apart
    with `mgpu.axis_index`. A compute thread releases a step's input buffers
    once its body is done with them (its tensor-core MMAs included: the
    lowering waits for them first). Output blocks are written by the compute
    threads and copied out by thread 0 once all of them have written. Code
    around the pipeline runs on every Pallas thread. Carries (`init_carry`)
    ride in the compute threads' loop; the pipeline returns their last
    values there, and undefined values on the memory thread, which runs no
    step. The optional `compute_context` region (JAX's `compute_context`:
    the code after `eval_pipeline`) runs on the compute threads only, right
    after their last step, on the last carries (one block argument per
    carried value); it yields nothing. An accumulator read there stays in
    the registers the compute threads' budget gives them. The kernel needs at
    least two Pallas threads per program, and no array may be both an input
    and an output of the pipeline.

    A compute_context that takes no arguments is JAX's whole
    `compute_context(pipeline_callback)`: code before the steps (loading
    what the carry starts from), `mgpu.eval_pipeline(%init..)` where the
    steps run, returning the last carries, and code after them. The
    pipeline then has no `init_carry` and no results; the body's carries
    have the types of eval_pipeline's operands.

    With `manual_consumed_barriers = true` in `warp_specialization`, the
    body's arguments after the blocks are one consumed barrier per input
    (`!mgpu.barrier<count = 1, arrivals = C>`, C compute threads; JAX's
    `consumed_barrier.at[slot]`), before the carries; each compute thread
    arrives on each of them once per step, and the memory thread refills an
    input's slot only after every compute thread has. With
    `manual_ready_barriers = true`, one ready barrier per input
    (`!mgpu.barrier<count = 1>`; JAX's `ready_barrier.at[slot]`) comes
    before those: the body waits on it (`mgpu.barrier_wait`) before reading
    the block, and the pipeline does not.

    ```mlir
    mgpu.emit_pipeline grid [%k_steps] ins(...) in_specs [...] out_specs []
        params #mgpu.compiler_params<max_concurrent_steps = 4>
        warp_specialization #mgpu.warp_specialization<memory_registers = 40> {
    ^bb0(%k: index, %a: ..., %b: ...):
      %wg = mgpu.axis_index "wg"   // 0 or 1 on a mesh with num_threads = 3
      ...
    }
    ```

    ```mlir
    mgpu.emit_pipeline grid [%k_steps]
        ins(%a_tile, %b_tile : memref<128x1024xf16, strided<[1024, 1], offset: ?>>,
                               memref<1024x128xf16, strided<[4096, 1], offset: ?>>)
        in_specs [#a_spec, #b_spec]
        params #mgpu.compiler_params<max_concurrent_steps = 4> {
    ^bb0(%k: index, %a: memref<128x64xf16, #gpu.address_space<workgroup>>,
         %b: memref<64x128xf16, #gpu.address_space<workgroup>>):
      ...
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$grid,
    DenseI64ArrayAttr:$static_grid,
    Variadic<AnyMemRef>:$ins,
    Variadic<AnyMemRef>:$outs,
    Variadic<AnyType>:$init_carry,
    Variadic<Index>:$index_map_symbols,
    ArrayAttr:$in_specs,
    ArrayAttr:$out_specs,
    OptionalAttr<MGPU_CompilerParamsAttr>:$params,
    OptionalAttr<MGPU_WarpSpecializationAttr>:$warp_specialization
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body,
                 VariadicRegion<SizedRegion<1>>:$compute_context);
  let assemblyFormat = [{
    `grid` custom<DynamicIndexList>($grid, $static_grid)
    (`ins` `(` $ins^ `:` type($ins) `)`)?
    (`outs` `(` $outs^ `:` type($outs) `)`)?
    (`init_carry` `(` $init_carry^ `:` type($init_carry) `)`)?
    `in_specs` $in_specs `out_specs` $out_specs
    (`index_map_symbols` `(` $index_map_symbols^ `)`)?
    (`params` qualified($params)^)?
    (`warp_specialization` qualified($warp_specialization)^)?
    (`->` type($results)^)?
    attr-dict-with-keyword $body
    (`compute_context` $compute_context^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getGridShape() { return getStaticGrid(); }
    /// Whether the body arrives on the input slots' consumed barriers.
    bool hasManualConsumedBarriers() {
      return getWarpSpecializationAttr() &&
             getWarpSpecializationAttr().getManualConsumedBarriers();
    }
    /// Whether the body waits on the input slots' ready barriers.
    bool hasManualReadyBarriers() {
      return getWarpSpecializationAttr() &&
             getWarpSpecializationAttr().getManualReadyBarriers();
    }
    /// The mgpu.eval_pipeline of the compute_context, or null.
    EvalPipelineOp getEvalPipeline();
  }];
}

def MGPU_EvalPipelineOp : MGPU_Op<"eval_pipeline", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "runs the enclosing warp-specialized pipeline's steps";
  let description = [{
    JAX's `pipeline_callback` (the argument of `compute_context`): inside
    the argument-less `compute_context` region of a warp-specialized
    `mgpu.emit_pipeline`, runs the compute threads' steps with the operands
    as the initial carries and returns the last carries (results of the
    operands' types). Code before it runs on the compute threads before
    their first step, code after it after their last. It runs once: only
    `mgpu.run_scoped` may enclose it inside the compute_context (JAX's
    `pl.run_scoped(.., plgpu.ACC)` around the call).

    ```mlir
    } compute_context {
      %acc0 = mgpu.layout_cast %zero : vector<64x64xf32> to #mgpu.layout<wgmma>
      %acc = mgpu.eval_pipeline(%acc0 : vector<64x64xf32>)
      ...
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$init_carry);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    `(` ($init_carry^ `:` type($init_carry))? `)` attr-dict
  }];
  let hasVerifier = 1;
}

#endif // MGPU_DIALECT_MGPU_MGPUPIPELINEOPS_TD
