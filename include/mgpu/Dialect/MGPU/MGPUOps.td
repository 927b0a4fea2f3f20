//===- MGPUOps.td - Operations of the mgpu dialect ---------*- tablegen -*-===//
//
// The kernel ops (pallas_call, mpmd_map and their terminator) and the ops a
// kernel body uses to find its place in the grid and to synchronize through
// semaphores. The support rules of the Mosaic GPU backend are checked by the
// C++ verifiers declared here (hasVerifier / hasRegionVerifier).
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUOPS_TD
#define MGPU_DIALECT_MGPU_MGPUOPS_TD

include "mgpu/Dialect/MGPU/MGPUAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class MGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<MGPU_Dialect, mnemonic, traits>;

// Op families, declared on the ops so that the passes dispatch on the
// family and a new op of a family needs no entry in their lists
// (MGPUTraits.h; docs/ARCHITECTURE.md walks through adding an op).

// Issued once per Pallas thread: the warpgroup distribution keeps the op
// whole (not per lane) for each backend to lower (copies, barriers, waits,
// fences, register budgets, prefetches).
def MGPU_PallasThreadPrimitive : NativeOpTrait<"PallasThreadPrimitive"> {
  let cppNamespace = "::mlir::mgpu";
}

// A performance hint or a launch-order signal with no effect on the values
// a kernel computes where programs run one after another: interpret mode
// and the emulator drop it (register budgets, L2 prefetches, programmatic
// dependent launch).
def MGPU_NoEffectOnHost : NativeOpTrait<"NoEffectOnHost"> {
  let cppNamespace = "::mlir::mgpu";
}

// Kernel operands: whole arrays, as tensors (value form) or memrefs (buffer
// form). Ranked, so that block specs can be checked against them.
def MGPU_ArrayOperand : AnyTypeOf<[AnyRankedTensor, AnyMemRef]>;

// Traits shared by both kernel ops.
defvar MGPU_KernelTraits = [
  AttrSizedOperandSegments,
  IsolatedFromAbove,
  SingleBlockImplicitTerminator<"YieldOp">,
  DestinationStyleOpInterface,
  DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
];

//===----------------------------------------------------------------------===//
// pallas_call
//===----------------------------------------------------------------------===//

def MGPU_PallasCallOp : MGPU_Op<"pallas_call", MGPU_KernelTraits> {
  let summary = "a pipelined grid of programs (Pallas pallas_call)";
  let description = [{
    Runs the body once per point of the grid. Each input and output is seen
    through its block spec: an `smem` block is copied into shared memory
    before the body when its block index changes, and outputs are written
    back when their block index changes and at the end; a `gmem` block is the
    whole array. Grid sizes are static integers or SSA `index` values.

    The op is destination-passing: with tensor `outs` it returns one tensor
    per output, with memref `outs` it returns nothing. An input passed again
    as an `outs` init is updated in place (JAX's input_output_aliases).

    The body has one block whose arguments are, in order, one per input
    block, one per output block and one per scratch buffer.

    `expanded` marks the kernel form that --mgpu-expand-pipelines produces:
    every block is in global memory, the body already loops over the
    sequential axes (staging blocks with kernel-level ops), and it runs once
    per point of the parallel axes; the sequential axes only give their
    sizes (`mgpu.num_programs`). Backends lower only this form.

    ```mlir
    %r = mgpu.pallas_call grid [%n, 4]
           ins(%a : tensor<1024x256xf32>) outs(%init : tensor<1024x256xf32>)
           in_specs [#b] out_specs [#b] params #p {
    ^bb0(%x: memref<128x64xf32, #gpu.address_space<workgroup>>,
         %o: memref<128x64xf32, #gpu.address_space<workgroup>>):
      ...
    } -> tensor<1024x256xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$grid,
    DenseI64ArrayAttr:$static_grid,
    Variadic<MGPU_ArrayOperand>:$ins,
    Variadic<MGPU_ArrayOperand>:$outs,
    ArrayAttr:$in_specs,
    ArrayAttr:$out_specs,
    OptionalAttr<TypeArrayAttr>:$scratch,
    OptionalAttr<MGPU_CompilerParamsAttr>:$params,
    OptionalAttr<AnyAttr>:$mesh,
    UnitAttr:$expanded
  );
  let results = (outs Variadic<AnyRankedTensor>:$result_tensors);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `grid` custom<DynamicIndexList>($grid, $static_grid)
    (`ins` `(` $ins^ `:` type($ins) `)`)?
    (`outs` `(` $outs^ `:` type($outs) `)`)?
    `in_specs` $in_specs `out_specs` $out_specs
    (`scratch` $scratch^)?
    (`params` qualified($params)^)?
    (`mesh` $mesh^)?
    (`expanded` $expanded^)?
    attr-dict-with-keyword $body
    (`->` type($result_tensors)^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutsMutable();
    }
    /// The grid as static sizes, ShapedType::kDynamic for SSA sizes.
    ::llvm::ArrayRef<int64_t> getGridShape() { return getStaticGrid(); }
    /// The block spec of input `i` / output `i`, or null if it is not one.
    BlockSpecAttr getInSpec(unsigned i);
    BlockSpecAttr getOutSpec(unsigned i);
    /// The mesh, when present and a #mgpu.mesh.
    MeshAttr getMeshAttrOrNull();
  }];
}

//===----------------------------------------------------------------------===//
// mpmd_map
//===----------------------------------------------------------------------===//

def MGPU_MpmdMapOp : MGPU_Op<"mpmd_map", MGPU_KernelTraits> {
  let summary = "mesh/function pairs run concurrently (Pallas mpmd_map)";
  let description = [{
    Region `i` runs on every point of mesh `i`; all pairs run concurrently in
    one launch and are not pipelined. Every region sees the same refs, all in
    global memory: the inputs, the outputs, then the scratch buffers (global,
    zero-initialized). External meshes join the super-mesh (for
    `mgpu.axis_size` and the axis-size compatibility rule) and run nothing.
    `plgpu.kernel` is an mpmd_map with one pair.

    ```mlir
    mgpu.mpmd_map meshes [#m0, #m1]
        ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
        scratch [memref<8xi32>] {
    ^bb0(%a0: memref<1024xf32>, %o0: memref<1024xf32>, %s0: memref<8xi32>):
      ...
    }, {
    ^bb0(%a1: memref<1024xf32>, %o1: memref<1024xf32>, %s1: memref<8xi32>):
      ...
    }
    ```
  }];
  let arguments = (ins
    ArrayAttr:$meshes,
    Variadic<MGPU_ArrayOperand>:$ins,
    Variadic<MGPU_ArrayOperand>:$outs,
    OptionalAttr<TypeArrayAttr>:$scratch,
    OptionalAttr<ArrayAttr>:$external_meshes,
    OptionalAttr<MGPU_CompilerParamsAttr>:$params
  );
  let results = (outs Variadic<AnyRankedTensor>:$result_tensors);
  let regions = (region VariadicRegion<SizedRegion<1>>:$bodies);
  let assemblyFormat = [{
    `meshes` $meshes
    (`ins` `(` $ins^ `:` type($ins) `)`)?
    (`outs` `(` $outs^ `:` type($outs) `)`)?
    (`scratch` $scratch^)?
    (`external_meshes` $external_meshes^)?
    (`params` qualified($params)^)?
    attr-dict-with-keyword $bodies
    (`->` type($result_tensors)^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutsMutable();
    }
    /// Mesh `i`, when it is a #mgpu.mesh.
    MeshAttr getMeshAttrOrNull(unsigned i);
  }];
}

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

def MGPU_YieldOp : MGPU_Op<"yield", [
    Pure, Terminator,
    HasParent<"PallasCallOp, MpmdMapOp, EmitPipelineOp, LaunchOp, RunScopedOp, " #
              "NdLoopOp, DynamicSchedulingLoopOp, TraceScopeOp">]> {
  let summary = "terminator of a kernel region";
  let description = [{
    Ends a pallas_call, mpmd_map, emit_pipeline, launch, run_scoped,
    nd_loop, dynamic_scheduling_loop or trace_scope region. Kernels return through their output refs, so there it takes no
    operands and may be omitted in the text; a `run_scoped` or `trace_scope`
    yields its results, an `emit_pipeline` or `nd_loop` its next carry.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Body queries
//===----------------------------------------------------------------------===//

class MGPU_AxisOp<string mnemonic>
    : MGPU_Op<mnemonic, [Pure]> {
  let arguments = (ins I64Attr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def MGPU_ProgramIdOp : MGPU_AxisOp<"program_id"> {
  let summary = "index of this program along a grid axis";
  let description = [{
    `mgpu.program_id 0` is the index of the running program along axis 0 of
    the enclosing pallas_call grid (or mpmd_map mesh grid).
  }];
}

def MGPU_NumProgramsOp : MGPU_AxisOp<"num_programs"> {
  let summary = "size of a grid axis";
  let description = [{
    `mgpu.num_programs 0` is the size of axis 0 of the enclosing grid, static
    or dynamic.
  }];
}

class MGPU_NamedAxisOp<string mnemonic> : MGPU_Op<mnemonic, [Pure]> {
  let arguments = (ins StrAttr:$axis_name);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis_name attr-dict";
  let hasVerifier = 1;
}

def MGPU_AxisIndexOp : MGPU_NamedAxisOp<"axis_index"> {
  let summary = "index along a named mesh axis";
  let description = [{
    `mgpu.axis_index "wg"` is the index of the running program (or Pallas
    thread) along the named grid, cluster or thread axis of the enclosing
    mesh.
  }];
}

def MGPU_AxisSizeOp : MGPU_NamedAxisOp<"axis_size"> {
  let summary = "size of a named mesh axis";
  let description = [{
    `mgpu.axis_size "i"` is the size of the named axis. In an mpmd_map it may
    name any axis of the super-mesh (all meshes and external meshes).
  }];
}

//===----------------------------------------------------------------------===//
// Semaphores
//===----------------------------------------------------------------------===//

class MGPU_SemaphoreOp<string mnemonic> : MGPU_Op<mnemonic> {
  let arguments = (ins Arg<MemRefOf<[I32]>, "", [MemRead, MemWrite]>:$sem,
                       Variadic<Index>:$indices,
                       I32:$value);
  let assemblyFormat = [{
    $sem `[` $indices `]` `,` $value attr-dict `:` type($sem)
  }];
  let hasVerifier = 1;
}

def MGPU_SemaphoreSignalOp : MGPU_SemaphoreOp<"semaphore_signal"> {
  let summary = "atomically add to a global-memory semaphore (release)";
  let description = [{
    Adds `value` to the i32 semaphore `sem[indices]` in global memory, with
    release semantics: writes made before the signal are visible to a
    program whose wait observes it.
  }];
}

def MGPU_SemaphoreWaitOp : MGPU_SemaphoreOp<"semaphore_wait"> {
  let summary = "wait on a global-memory semaphore (acquire)";
  let description = [{
    Waits until the i32 semaphore `sem[indices]` is at least `value`, then
    subtracts `value` from it, with acquire semantics. With
    `{decrement = false}` (JAX's `pl.semaphore_wait(sem, value,
    decrement=False)`) it leaves the semaphore as it is, so that other waits
    for the same value pass too.

    ```mlir
    mgpu.semaphore_wait %sem[%c0], %one : memref<2xi32>
    mgpu.semaphore_wait %sem[%c1], %five {decrement = false} : memref<2xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[I32]>, "", [MemRead, MemWrite]>:$sem,
                       Variadic<Index>:$indices,
                       I32:$value,
                       DefaultValuedAttr<BoolAttr, "true">:$decrement);
}

def MGPU_SemaphoreReadOp : MGPU_Op<"semaphore_read"> {
  let summary = "read a global-memory semaphore (acquire)";
  let description = [{
    The current value of the i32 semaphore `sem[indices]`, read atomically
    with acquire semantics, once per Pallas thread (`pl.semaphore_read`). It
    does not wait: what it reads while other programs signal depends on
    their timing, so read after a wait that orders the signals before it.

    ```mlir
    %v = mgpu.semaphore_read %sem[%c0] : memref<2xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefOf<[I32]>, "", [MemRead]>:$sem,
                       Variadic<Index>:$indices);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $sem `[` $indices `]` attr-dict `:` type($sem)
  }];
  let hasVerifier = 1;
}

include "mgpu/Dialect/MGPU/MGPUPrimitiveOps.td"
include "mgpu/Dialect/MGPU/MGPUClusterOps.td"
include "mgpu/Dialect/MGPU/MGPUBlackwellOps.td"
include "mgpu/Dialect/MGPU/MGPUSchedulingOps.td"
include "mgpu/Dialect/MGPU/MGPULaunchOp.td"
include "mgpu/Dialect/MGPU/MGPUProfilerOps.td"

#endif // MGPU_DIALECT_MGPU_MGPUOPS_TD
