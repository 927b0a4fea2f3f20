//===- MGPUAttrs.td - Attributes of the mgpu dialect -------*- tablegen -*-===//
//
// The four attributes of the dialect: a GPU mesh, a block spec, compiler
// parameters and the module-level target. All use a `key = value` struct
// syntax in which every key with a default may be omitted; their verifiers
// carry the mesh rules S12-S17 of the support-rule table.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUATTRS_TD
#define MGPU_DIALECT_MGPU_MGPUATTRS_TD

include "mgpu/Dialect/MGPU/MGPUDialect.td"
include "mgpu/Dialect/MGPU/MGPUEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Parameters with a bracketed list syntax (`[4, 2]`, `["i", "j"]`).
//===----------------------------------------------------------------------===//

class MGPU_I64ListParameter<string desc>
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::mgpu::parseI64List($_parser)";
  let printer = "::mlir::mgpu::printI64List($_printer, $_self)";
}

class MGPU_RequiredI64ListParameter<string desc>
    : ArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::mgpu::parseI64List($_parser)";
  let printer = "::mlir::mgpu::printI64List($_printer, $_self)";
}

// The block shape is required (`shape = []` for a rank-0 block): a block spec
// that forgets its window must not silently become rank 0. `?` is a whole
// dynamic dimension of a gmem block.
def MGPU_BlockShapeParameter : ArrayRefParameter<"int64_t", "window shape"> {
  let parser = "::mlir::mgpu::parseBlockShape($_parser)";
  let printer = "::mlir::mgpu::printBlockShape($_printer, $_self)";
}

// SMEM layout transforms of a block (`[#mgpu.tile<[64, 64]>, ...]`).
def MGPU_TransformListParameter
    : OptionalArrayRefParameter<"::mlir::Attribute",
                                "SMEM layout transforms, applied in order"> {
  let parser = "::mlir::mgpu::parseTransformList($_parser)";
  let printer = "::mlir::mgpu::printTransformList($_printer, $_self)";
}

class MGPU_NameListParameter<string desc>
    : OptionalArrayRefParameter<"::mlir::StringAttr", desc> {
  let parser = "::mlir::mgpu::parseNameList($_parser)";
  let printer = "::mlir::mgpu::printNameList($_printer, $_self)";
}

def MGPU_IndexingListParameter
    : OptionalArrayRefParameter<"::mlir::mgpu::BlockIndexing",
                                "how each block dimension is indexed"> {
  let parser = "::mlir::mgpu::parseIndexingList($_parser)";
  let printer = "::mlir::mgpu::printIndexingList($_printer, $_self)";
}

def MGPU_SemanticsListParameter
    : OptionalArrayRefParameter<"::mlir::mgpu::DimensionSemantics",
                                "semantics of each grid axis"> {
  let parser = "::mlir::mgpu::parseSemanticsList($_parser)";
  let printer = "::mlir::mgpu::printSemanticsList($_printer, $_self)";
}

// Sizes and counts. The generic integer parser reads `true` as the 1-bit
// integer 1 (-1 once sign-extended) and `false` as 0, which turned
// `max_concurrent_steps = true` into "got -1"; this one rejects them.
class MGPU_I64Parameter<string value, string desc>
    : DefaultValuedParameter<"int64_t", value, desc> {
  let parser = "::mlir::mgpu::parseInt64($_parser)";
}

class MGPU_RequiredI64Parameter<string desc> : AttrParameter<"int64_t", desc> {
  let parser = "::mlir::mgpu::parseInt64($_parser)";
}

class MGPU_OptionalI64Parameter<string desc>
    : OptionalParameter<"std::optional<int64_t>", desc> {
  let parser = "::mlir::mgpu::parseInt64($_parser)";
}

// `true` / `false` keywords (the generic integer parser rejects them).
class MGPU_BoolParameter<string value, string desc>
    : DefaultValuedParameter<"bool", value, desc> {
  let parser = "::mlir::mgpu::parseBool($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

class MGPU_Attr<string name, string attrMnemonic>
    : AttrDef<MGPU_Dialect, name> {
  let mnemonic = attrMnemonic;
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

def MGPU_MeshAttr : MGPU_Attr<"Mesh", "mesh"> {
  let summary = "a GPU mesh: grid, cluster and Pallas threads per CTA";
  let description = [{
    A mesh names the axes of a launch: `grid` (CTAs), `cluster` (CTAs per
    cluster, at most 3-D) and `num_threads` Pallas threads per CTA (one
    warpgroup of 128 CUDA threads each) named `thread_name`. Every key is
    optional; the lists default to empty and a mesh without `num_threads`
    runs one warpgroup per CTA.

    ```mlir
    #m = #mgpu.mesh<grid = [4, 2], grid_names = ["i", "j"], cluster = [2],
                    cluster_names = ["c"], num_threads = 2, thread_name = "wg">
    ```
  }];
  let parameters = (ins
    MGPU_I64ListParameter<"grid sizes">:$grid,
    MGPU_NameListParameter<"grid axis names">:$grid_names,
    MGPU_I64ListParameter<"cluster sizes">:$cluster,
    MGPU_NameListParameter<"cluster axis names">:$cluster_names,
    MGPU_OptionalI64Parameter<"Pallas threads per CTA">:$num_threads,
    OptionalParameter<"::mlir::StringAttr", "name of the thread axis">:$thread_name
  );
  let extraClassDeclaration = [{
    /// The mesh's shape: grid sizes, then cluster sizes, then the number of
    /// threads when set. This is what a pallas_call grid must equal (S11).
    ::llvm::SmallVector<int64_t> getShape() const;
    /// Every named axis with its size, in grid, cluster, thread order.
    ::llvm::SmallVector<std::pair<::mlir::StringAttr, int64_t>>
    getNamedAxes() const;
    /// The size of the named axis, if the mesh has it.
    std::optional<int64_t> getAxisSize(::llvm::StringRef name) const;
  }];
}

//===----------------------------------------------------------------------===//
// BlockSpecAttr
//===----------------------------------------------------------------------===//

def MGPU_MemorySpaceParameter : EnumParameter<MGPU_MemorySpace> {
  let defaultValue = "::mlir::mgpu::MemorySpace::smem";
}

def MGPU_BlockSpecAttr : MGPU_Attr<"BlockSpec", "block_spec"> {
  let summary = "the block of an operand that one program sees";
  let description = [{
    `shape` is the window, `index_map` maps grid indices to *block* indices
    (the element offset is the block index times the window size), and
    `memory_space` says whether the block is staged through shared memory
    (`smem`, the default) or seen whole in global memory (`gmem`, which needs
    the array's own shape, `?` for a dynamic size, and an all-zero index
    map). `transforms` give the
    shared-memory layout of a staged block, as TMA and wgmma need it
    (`#mgpu.tile`, `#mgpu.transpose`, `#mgpu.swizzle`, applied in order);
    the body still indexes the block in its logical shape.
    `delay_release = N` (an input block of a pipeline, JAX's
    `plgpu.BlockSpec(delay_release=N)`) keeps a step's slot N steps longer
    before it is refilled, so that asynchronous work of the step (its
    wgmma, waited for with `wgmma_wait N` later) may still read it; the
    pipeline fetches N steps less ahead.
    `indexing` (one entry per dimension; all `blocked` when absent) says
    how each result of the index map is read, as JAX's block dimensions
    do: `blocked` (an int or `pl.Blocked`) is a block index, scaled by the
    window; `squeezed` (`None` or `pl.Squeezed()`) is an element index of
    a dimension of size 1 that the body's block does not have; `element`
    (`pl.Element(n)`) is an element offset of a window of n elements.
    `collective_axes = ["c"]` (an input block of a warp-specialized
    `emit_pipeline`, JAX's `plgpu.BlockSpec(collective_axes=)`) multicasts
    the block along that cluster axis: the CTAs of a group fetch the same
    window, each loading a share into all of their slots, and a slot is
    refilled only once the compute threads of every CTA of the group have
    released it.

    ```mlir
    #b = #mgpu.block_spec<shape = [128, 64],
                          index_map = affine_map<(d0, d1) -> (d0, 0)>,
                          transforms = [#mgpu.tile<[64, 64]>, #mgpu.swizzle<128>]>
    #q = #mgpu.block_spec<shape = [1, 128, 64],
                          index_map = affine_map<(b, i) -> (b, i, 0)>,
                          indexing = [squeezed, blocked, blocked]>
    ```
  }];
  let parameters = (ins
    MGPU_BlockShapeParameter:$shape,
    "::mlir::AffineMapAttr":$index_map,
    MGPU_MemorySpaceParameter:$memory_space,
    MGPU_TransformListParameter:$transforms,
    DefaultValuedParameter<"int64_t", "0",
        "steps a slot is kept after its step">:$delay_release,
    MGPU_IndexingListParameter:$indexing,
    OptionalParameter<"::mlir::ArrayAttr",
        "cluster axes the block is multicast along">:$collective_axes
  );
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "::mlir::AffineMapAttr":$index_map,
                     "MemorySpace":$memory_space), [{
      return $_get($_ctxt, shape, index_map, memory_space,
                   ::llvm::ArrayRef<::mlir::Attribute>(), 0,
                   ::llvm::ArrayRef<BlockIndexing>(), ::mlir::ArrayAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    bool isStaged() const { return getMemorySpace() == MemorySpace::smem; }
    /// The swizzle in bytes (0 without a #mgpu.swizzle transform).
    int64_t getSwizzleBytes() const;
    /// How dimension `d` is indexed (`blocked` without an `indexing`).
    BlockIndexing getIndexingOf(size_t d) const {
      return getIndexing().empty() ? BlockIndexing::blocked
                                   : getIndexing()[d];
    }
    /// Whether some dimension is not `blocked`.
    bool hasUnblockedDims() const;
    /// The shape of the block the body sees: the window without its
    /// squeezed dimensions.
    ::llvm::SmallVector<int64_t> getBodyShape() const;
  }];
}

//===----------------------------------------------------------------------===//
// Block transforms
//===----------------------------------------------------------------------===//

def MGPU_TileTransformAttr : MGPU_Attr<"TileTransform", "tile"> {
  let summary = "tiles the trailing dimensions of a block (plgpu.TilingTransform)";
  let description = [{
    The block is stored as tiles of `tiling` over its trailing dimensions,
    tile after tile, each tile row-major. The tiling must divide the block.

    ```mlir
    #mgpu.tile<[64, 64]>
    ```
  }];
  let parameters = (ins MGPU_RequiredI64ListParameter<"tile shape">:$tiling);
  let assemblyFormat = "`<` $tiling `>`";
}

def MGPU_SwizzleTransformAttr : MGPU_Attr<"SwizzleTransform", "swizzle"> {
  let summary = "swizzles the 16-byte chunks of a block's rows (plgpu.SwizzleTransform)";
  let description = [{
    The 16-byte chunks of each `bytes`-wide row segment are permuted (XOR
    with the row index), as TMA's and wgmma's swizzle modes do, so that
    column accesses avoid bank conflicts. `bytes` is 32, 64 or 128 and must
    equal the bytes of the (tiled) block's innermost dimension.

    ```mlir
    #mgpu.swizzle<128>
    ```
  }];
  let parameters = (ins MGPU_RequiredI64Parameter<"swizzle span in bytes">:$bytes);
  let assemblyFormat = "`<` $bytes `>`";
}

def MGPU_TransposeTransformAttr : MGPU_Attr<"TransposeTransform", "transpose"> {
  let summary = "stores a block with permuted dimensions (plgpu.TransposeTransform)";
  let description = [{
    The block is stored with its dimensions in the order `permutation`
    (a permutation of the dimensions of the block, or of its tiled form).

    ```mlir
    #mgpu.transpose<[1, 0]>
    ```
  }];
  let parameters = (ins MGPU_RequiredI64ListParameter<"permutation">:$permutation);
  let assemblyFormat = "`<` $permutation `>`";
}

//===----------------------------------------------------------------------===//
// Vector layouts
//===----------------------------------------------------------------------===//

def MGPU_LayoutKindParameter : EnumParameter<MGPU_LayoutKind>;

def MGPU_LayoutAttr : MGPU_Attr<"Layout", "layout"> {
  let summary = "how a vector value is spread over the lanes (plgpu.Layout)";
  let description = [{
    A body is written at array level; on the GPU each vector value is held
    by the 128 lanes of its warpgroup in one of these layouts:

    - `strided`: the value, row-major, cut into chunks of V consecutive
      elements (V the largest of 4, 2, 1 dividing the innermost dimension);
      chunk c on lane c mod 128. Memory is read and written with V-wide
      coalesced accesses. Every vector can have it.
    - `wgmma`: the accumulator fragment of the tensor cores. A 2-D f32,
      f16 or bf16 vector with a multiple of 64 rows and of 8 columns (at
      most 64 KiB):
      each 64-row tile is spread as `wgmma.mma_async` leaves it (lane l of
      warp w holds rows 16w + l/4 and 16w + l/4 + 8, two adjacent columns
      per 8-column group). Elementwise ops keep it; wgmma reads and writes
      it without moving data.
    - `wgmma_row`: one element per row of a wgmma fragment, as a reduction
      along its rows leaves it: an f32 vector of M or M x 1 elements, M a
      multiple of 64; each lane holds the rows its fragment registers are
      on (two per 64-row tile). Elementwise ops keep it; a broadcast of
      M x 1 over the columns gives `wgmma` without moving data.
    - `wgmma_col` (JAX's `Layout.WGMMA.reduce(0)`): one element per column
      of a wgmma fragment: a 16- or 32-bit vector of N or 1 x N elements,
      N a multiple of 8; lane l holds the two adjacent columns 2(l%4),
      2(l%4) + 1 of each 8-column group, as every row of its fragment does
      (the same on every warp and quad). Read from memory two elements at
      a time, written by lanes 0-3; elementwise ops keep it; a broadcast of
      N (or 1 x N) over the rows gives `wgmma` without moving data (JAX's
      attention backward: `lse` loaded so and subtracted from `sT`).
    - `splat`: every element is the same scalar (a splat constant or a
      broadcast of a scalar); it fits any other layout for free.
    - JAX's other layouts of a 2-D vector with a multiple of 64 rows, cut
      like `wgmma` into 64-row tiles of C-column groups, warp w holding
      rows 16w..16w+15 of each tile, and lane l of a warp the rows l/4 and
      l/4 + 8 of them, V elements each (any element type of 8 to 32 bits):
      - `wgmma_8bit` (`Layout.WGMMA_8BIT`, C = 16, V = 4): columns
        4(l%4)..4(l%4)+3 of each group, 32 bits of 8-bit data, as the
        tensor cores take an 8-bit a from registers;
      - `wgmma_upcast_2x` (`Layout.WGMMA_UPCAST_2X`, C = 16, V = 4): the
        same with the middle two quarters of each group swapped (lane
        quarters 0, 2, 1, 3 from left to right), so that a 2x wider type
        made of it reaches `wgmma` with one shuffle;
      - `wgmma_upcast_4x` (`Layout.WGMMA_UPCAST_4X`, C = 32, V = 8):
        columns 8(l%4)..8(l%4)+7, for 4x wider types;
      - `wgmma_transposed` (`Layout.WGMMA_TRANSPOSED`, C = 8, V = 2): each
        8 x 8 block of `wgmma` with its 2 x 2 blocks transposed: lane l
        holds rows 2(l/8) and 2(l/8) + 1 of column 2(l%4) + (l/4)%2 (and
        8 rows below), as a value read through a transposed ref is.
      Elementwise ops keep them; reads and writes of row-major memory move
      V elements at a time (`wgmma_transposed`: one at a time); a value
      meets another layout through the warpgroup scratch.

    `--mgpu-assign-layouts` gives every vector value of a kernel body a
    layout, in the discardable attribute `mgpu.out_layouts` of its op (one
    per vector result, in order; for `scf.for`, those of its iteration
    arguments and results); `mgpu.layout_cast` chooses one by hand. The
    distribution to lanes converts a value where two layouts meet.

    ```mlir
    #mgpu.layout<wgmma>
    ```
  }];
  let parameters = (ins MGPU_LayoutKindParameter:$kind);
  let assemblyFormat = "`<` $kind `>`";
  // Every kind is a valid attribute; whether it fits a value is checked
  // where the two meet.
  let genVerifyDecl = 0;
}

//===----------------------------------------------------------------------===//
// CompilerParamsAttr
//===----------------------------------------------------------------------===//

def MGPU_LoweringSemanticsParameter : EnumParameter<MGPU_LoweringSemantics> {
  let defaultValue = "::mlir::mgpu::LoweringSemantics::warpgroup";
}

def MGPU_CompilerParamsAttr : MGPU_Attr<"CompilerParams", "compiler_params"> {
  let summary = "Mosaic GPU compiler parameters";
  let description = [{
    `dimension_semantics` marks each grid axis `parallel` (mapped to CTAs) or
    `sequential` (a loop inside the CTA); `max_concurrent_steps` is the number
    of buffers of each staged block (default 1); `approx_math` allows fast
    approximate math (default false).

    `unsafe_no_auto_barriers = true` (JAX's flag of that name) drops the
    barriers between the lanes of a Pallas thread that the distribution
    otherwise puts between its accesses to shared memory: safe only where
    no Pallas thread reads elements of a buffer that its other lanes wrote
    since the last barrier (as JAX says: no region read and written by the
    same thread). The emulator's race check reports the kernels where that
    does not hold. `lowering_semantics` (`warpgroup`, the default, or
    `lane`) is JAX's choice of lowering; mgpu infers the layouts of a body
    either way, and the numbers are the same.

    `profile_space` and `profile_dir` (JAX's in-kernel profiler) turn on
    profiling: each Pallas thread (warpgroup) records the start and end
    times of its `mgpu.trace_scope` regions, and of the whole body, in a
    hidden global buffer with room for `profile_space` scopes (twice as many
    events) per Pallas thread; events past that are dropped. After each
    launch the host writes `<profile_dir>/<kernel>-<n>.json`, a Chrome trace
    (ui.perfetto.dev) with one thread per Pallas thread. As in JAX, either
    both are set or neither. `profile_bounds_check` is accepted for JAX's
    sake; mgpu always drops the events that do not fit.

    ```mlir
    #p = #mgpu.compiler_params<dimension_semantics = [parallel, sequential],
                               max_concurrent_steps = 2, approx_math = false>
    ```
  }];
  let parameters = (ins
    MGPU_SemanticsListParameter:$dimension_semantics,
    MGPU_I64Parameter<"1", "buffers per staged block">:$max_concurrent_steps,
    MGPU_BoolParameter<"false", "allow approximate math">:$approx_math,
    MGPU_BoolParameter<"false", "no barriers between lanes' shared accesses">:
        $unsafe_no_auto_barriers,
    MGPU_LoweringSemanticsParameter:$lowering_semantics,
    MGPU_I64Parameter<"0", "profiled scopes per Pallas thread">:$profile_space,
    StringRefParameter<"directory of the profile traces", "\"\"">:
        $profile_dir,
    MGPU_BoolParameter<"false", "drop events past profile_space">:
        $profile_bounds_check
  );
}

//===----------------------------------------------------------------------===//
// WarpSpecializationAttr
//===----------------------------------------------------------------------===//

def MGPU_WarpSpecializationAttr
    : MGPU_Attr<"WarpSpecialization", "warp_specialization"> {
  let summary = "an emit_pipeline split into a memory thread and compute threads";
  let description = [{
    Marks an `mgpu.emit_pipeline` warp-specialized, as JAX's
    `plgpu.emit_pipeline_warp_specialized`: the last Pallas thread of the
    program (the memory thread) only copies blocks in, running ahead of the
    others by up to `max_concurrent_steps` steps, and every other Pallas
    thread (the compute threads) runs the body on the shared blocks.

    `memory_registers`, when set, lowers the memory thread's register budget
    to that many registers per lane (`setmaxnreg`) and raises the compute
    threads' to `compute_registers`, by default the most the register file
    leaves them (232 each for two compute threads beside a memory thread
    with 40). Both are multiples of 8 in [24, 256].

    `manual_consumed_barriers = true` (JAX's `manual_consumed_barriers`)
    hands the release of the input slots to the body: it gets one consumed
    barrier per input (`!mgpu.barrier<count = 1, arrivals = C>`, C the
    compute threads), on which every compute thread must arrive once per
    step (`mgpu.barrier_arrive %consumed[%c0]`) when it is done with that
    block; the memory thread refills a slot only then. The blocks are
    fetched at every step. `manual_ready_barriers = true` (JAX's
    `manual_ready_barriers`) hands the wait for the blocks' copies to the
    body: it gets one ready barrier per input (`!mgpu.barrier<count = 1>`),
    before the consumed barriers, and waits on each
    (`mgpu.barrier_wait %ready[%c0]`) before reading that block.

    ```mlir
    #ws = #mgpu.warp_specialization<memory_registers = 40>
    #manual = #mgpu.warp_specialization<memory_registers = 40, manual_consumed_barriers = true>
    ```
  }];
  let parameters = (ins
    MGPU_OptionalI64Parameter<"registers of the memory thread">:$memory_registers,
    MGPU_OptionalI64Parameter<"registers of each compute thread">:$compute_registers,
    MGPU_BoolParameter<"false", "the body waits on the ready barriers">:
        $manual_ready_barriers,
    MGPU_BoolParameter<"false", "the body arrives on the consumed barriers">:
        $manual_consumed_barriers
  );
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

def MGPU_ProfileParameter : EnumParameter<MGPU_Profile> {
  let defaultValue = "::mlir::mgpu::Profile::extended";
}

def MGPU_TargetAttr : MGPU_Attr<"Target", "target"> {
  let summary = "the chip and the support-rule profile of a module";
  let description = [{
    Attached to a module as `mgpu.target`. `chip` selects the shared-memory
    budget and the default binary target (`sm_90a` when omitted); `profile`
    selects the rules: `extended` (the default) accepts what mgpu can lower,
    `jax` reproduces exactly what JAX's Mosaic GPU backend accepts.

    ```mlir
    module attributes {mgpu.target = #mgpu.target<chip = "sm_90a", profile = jax>} {}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the GPU chip", "\"sm_90a\"">:$chip,
    MGPU_ProfileParameter:$profile
  );
  let extraClassDeclaration = [{
    bool isJaxProfile() const { return getProfile() == Profile::jax; }
  }];
}

#endif // MGPU_DIALECT_MGPU_MGPUATTRS_TD
