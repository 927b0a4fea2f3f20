//===- MGPULaunchOp.td - The launch form of a kernel -------*- tablegen -*-===//
//
// `mgpu.launch`: a kernel as every backend runs it, once the kernel form is
// made (--mgpu-expand-pipelines) and before any backend-specific lowering.
// --mgpu-form-launches writes it from an expanded pallas_call or mpmd_map:
// the program model (which CTA and Pallas thread runs what, and what
// program_id and axis_index stand for there) and the layout of the scratch
// are decided once, here, for the CPU, the emulator and the GPU alike.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPULAUNCHOP_TD
#define MGPU_DIALECT_MGPU_MGPULAUNCHOP_TD

def MGPU_LaunchOp : MGPU_Op<"launch", [
    AttrSizedOperandSegments,
    IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "CTAs of Pallas threads over planned scratch (launch form)";
  let description = [{
    Runs the body once per Pallas thread of every CTA. The CTAs are the
    points of `grid` (static or SSA sizes) times the points of `cluster`
    (a CTA's position in its cluster); each runs `warpgroups` Pallas
    threads of 128 lanes. The body is written at array level, once per
    Pallas thread, like a pallas_call body; with `lanes` it is per-lane code
    instead (what --mgpu-distribute-warpgroups makes of it), run by each of
    the 128 lanes of every Pallas thread.

    The body's arguments are, in order: the CTA's index along each grid
    axis, its position along each cluster axis, the Pallas thread
    (warpgroup) index, the lane index (with `lanes` only), the `scalars`
    (index values of the host the body uses, such as dynamic grid sizes),
    the `ins` and `outs` arrays, one buffer per `global_scratch` type and one
    per `shared_scratch` type. The op is isolated from above: what the body
    uses comes in through them.

    Scratch is planned: global scratch is one zeroed buffer per type for the
    whole launch; shared scratch (workgroup-memory buffers and barrier
    arrays) is per CTA, at the byte `shared_offsets` of the CTA's shared
    memory, each barrier array initialized before the CTA's threads start;
    the buffers start undefined (as JAX's scratch: the emulator fills them
    with poison and reports reads of bytes nothing wrote, interpret mode
    fills them with 0xff bytes).

    `write_only_outs` lists the outputs whose old contents the body neither
    reads nor has to keep (a pallas_call's outputs, written block by block,
    Pallas semantics): a backend need not bring them to the device.

    The body has no `mgpu.program_id`, `num_programs`, `axis_index` or
    `axis_size`: --mgpu-form-launches computed them from the arguments.

    ```mlir
    mgpu.launch grid [4] warpgroups 1
        ins(%a : memref<1024xf32>) outs(%o : memref<1024xf32>)
        shared [memref<256xf32, #gpu.address_space<workgroup>>,
                !mgpu.barrier<count = 2>] at [0, 1024] {
    ^bb0(%cta: index, %wg: index, %x: memref<1024xf32>, %y: memref<1024xf32>,
         %buf: memref<256xf32, #gpu.address_space<workgroup>>,
         %bar: !mgpu.barrier<count = 2>):
      ...
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$grid,
    DenseI64ArrayAttr:$static_grid,
    OptionalAttr<DenseI64ArrayAttr>:$cluster,
    I64Attr:$warpgroups,
    UnitAttr:$lanes,
    Variadic<Index>:$scalars,
    Variadic<AnyMemRef>:$ins,
    Variadic<AnyMemRef>:$outs,
    OptionalAttr<DenseI64ArrayAttr>:$write_only_outs,
    OptionalAttr<TypeArrayAttr>:$global_scratch,
    OptionalAttr<TypeArrayAttr>:$shared_scratch,
    OptionalAttr<DenseI64ArrayAttr>:$shared_offsets
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `grid` custom<DynamicIndexList>($grid, $static_grid)
    (`cluster` $cluster^)?
    `warpgroups` $warpgroups
    (`lanes` $lanes^)?
    (`scalars` `(` $scalars^ `)`)?
    (`ins` `(` $ins^ `:` type($ins) `)`)?
    (`outs` `(` $outs^ `:` type($outs) `)`)?
    (`write_only_outs` $write_only_outs^)?
    (`global` $global_scratch^)?
    (`shared` $shared_scratch^ `at` $shared_offsets)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The static cluster shape ([] without a cluster).
    ::llvm::ArrayRef<int64_t> getClusterShape();
    ::llvm::SmallVector<::mlir::Type> getGlobalScratchTypes();
    ::llvm::SmallVector<::mlir::Type> getSharedScratchTypes();
    ::llvm::ArrayRef<int64_t> getSharedScratchOffsets();
    /// The shared memory of one CTA's scratch: the end of its last entry.
    int64_t getSharedMemoryBytes();

    /// The body's arguments, by kind.
    ::mlir::Block::BlockArgListType getGridIds();
    ::mlir::Block::BlockArgListType getClusterIds();
    ::mlir::BlockArgument getWarpgroupId();
    /// Null without `lanes`.
    ::mlir::BlockArgument getLaneId();
    ::mlir::Block::BlockArgListType getScalarArgs();
    ::mlir::Block::BlockArgListType getArrayArgs();
    ::mlir::Block::BlockArgListType getGlobalScratchArgs();
    ::mlir::Block::BlockArgListType getSharedScratchArgs();

    /// The types the body's arguments must have, in order.
    ::llvm::SmallVector<::mlir::Type> getExpectedArgumentTypes();

    /// Creates the body: a block of those arguments, ending in its yield;
    /// `b` is left at its start.
    ::mlir::Block *createBody(::mlir::OpBuilder &b);
  }];
}

#endif // MGPU_DIALECT_MGPU_MGPULAUNCHOP_TD
