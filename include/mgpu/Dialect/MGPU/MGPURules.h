//===- MGPURules.h - Support-rule helpers shared by verifiers ---*- C++ -*-===//
//
// What the verifiers of the mgpu ops need beyond a single op: the effective
// target of an op (the nearest `mgpu.target`, else sm_90a / extended), the
// shared-memory budget of a chip, byte sizes of staged blocks, and Python
// style tuple formatting for messages that must match JAX's word for word.
// Lowering passes use the same functions, so rules and lowering agree.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPURULES_H
#define MGPU_DIALECT_MGPU_MGPURULES_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Target/TargetInfo.h"

#include <optional>
#include <string>

namespace mlir::mgpu {

/// The target in force for `op`: the `mgpu.target` of the nearest enclosing
/// op that has one, else the default target (sm_90a, extended profile).
TargetAttr getEffectiveTarget(Operation *op);

/// The chip description of the target in force for `op`.
const TargetInfo &getTargetInfo(Operation *op);

/// Bytes of a statically shaped buffer of `shape` x `elementType`, if known;
/// saturates at INT64_MAX instead of overflowing.
std::optional<int64_t> getBufferBytes(ArrayRef<int64_t> shape,
                                      Type elementType);

/// Formats sizes as a Python tuple: `(8,)`, `(8, 4)`, `()`; dynamic sizes
/// print as `?`.
std::string formatTuple(ArrayRef<int64_t> sizes);

/// Whether `type` is a memref in the GPU workgroup (shared) address space.
bool isWorkgroupMemRef(Type type);

/// Whether `type` is a memref in global memory: no memory space, or the GPU
/// dialect's global address space.
bool isGlobalMemRef(Type type);

/// The memref type a kernel region sees for a whole array operand: the
/// operand's memref type, or for a tensor a memref of the same shape.
MemRefType getGlobalRefType(Type operandType);

/// The memref type of a staged (smem) block of `operandType` as the body
/// sees it: without the block's squeezed dimensions.
MemRefType getStagedBlockType(Type operandType, BlockSpecAttr spec);

/// The memref type of the shared-memory slot a staged block is copied into:
/// the whole window, squeezed dimensions included (of size 1).
MemRefType getStagedSlotType(Type operandType, BlockSpecAttr spec);

/// Whether some backend can stage and compute elements of `type` (S29):
/// signless integers of 1, 4, 8, 16, 32 or 64 bits, index, f16, bf16, f32,
/// f64, the f8 types e4m3fn, e5m2 and e8m0fnu, the f6 types e2m3fn and
/// e3m2fn (stored one to a byte) and f4E2M1FN (4-bit elements are stored
/// two to a byte: --mgpu-pack-sub-byte).
bool isBackendElementType(Type type);

/// S30: floordiv, ceildiv and mod in a block index map divide by positive
/// constants.
LogicalResult
verifyIndexMapDivisors(function_ref<InFlightDiagnostic()> emitError,
                       AffineMap map);

/// S28: a static launch of `ctaSizes` CTAs (kDynamic: unknown) in clusters
/// of `cluster` fits CUDA's limits, and its count does not overflow.
LogicalResult verifyLaunchLimits(Operation *op, ArrayRef<int64_t> ctaSizes,
                                 ArrayRef<int64_t> cluster);

/// JAX's limit on a mesh's num_threads: 2048 // 128 Pallas threads
/// (jax/_src/pallas/mosaic_gpu/core.py:1671-1677 at jax-ml/jax cec06d1).
constexpr int64_t kJaxMaxPallasThreads = 16;

/// S16's message on `diag`, JAX's words, for a mesh of `numThreads` Pallas
/// threads where at most `limit` are supported; a note counts the CUDA
/// threads asked for.
InFlightDiagnostic emitTooManyThreads(InFlightDiagnostic &&diag,
                                      int64_t numThreads, int64_t limit);

/// The Pallas threads of a mesh that `op` uses: S16 in the extended profile
/// (at most 8); in the jax profile, where S16 lets 9 to 16 through as JAX
/// does, S28 (a CTA runs at most 1024 CUDA threads).
LogicalResult verifyMeshThreads(Operation *op, MeshAttr mesh);

/// Whether grid axis `d` of a pallas_call is sequential (pipelined) under
/// `params`; without dimension_semantics every axis is parallel.
bool isSequential(CompilerParamsAttr params, unsigned d);

/// S40: every static size of `grid` is positive. `jaxGrid(d)` is the grid
/// JAX prints when axis `d` is not (the jax profile's message is JAX's
/// whole text, which goes on `, but got grid=(...)`).
LogicalResult
verifyGridSizes(Operation *op, ArrayRef<int64_t> grid,
                function_ref<SmallVector<int64_t>(unsigned)> jaxGrid);

/// S29 and S31 over a kernel region: no value of an element type no backend
/// handles, no scalable vector, no vector too large for registers; and no
/// memref.view (a RefUnion's ref) statically outside its byte buffer.
LogicalResult verifyKernelValueTypes(Operation *kernel, Region &region);

/// Checks that `transforms` (tile, transpose, swizzle, in that order) fit a
/// block of `shape`; the element type is checked where it is known.
LogicalResult
verifyBlockTransforms(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, ArrayRef<Attribute> transforms);

/// The shape of the innermost dimension a swizzle applies to: the last tile
/// dimension, or the block's last dimension when it is not tiled (after the
/// transpose, if any).
int64_t getSwizzledRowElements(BlockSpecAttr spec);

/// The register budget of each compute thread of a warp-specialized
/// pipeline on `pallasThreads` Pallas threads: `compute_registers`, else
/// what `target`'s register file leaves once the memory thread has its own.
int64_t getComputeRegisters(const TargetInfo &target, WarpSpecializationAttr ws,
                            int64_t pallasThreads);

/// The mesh of the kernel region `op` is in (null outside one, or when the
/// region's mesh is not a #mgpu.mesh).
MeshAttr getEnclosingMesh(Operation *op);

/// The rules of a warp-specialized emit_pipeline: two Pallas threads or
/// more, no array both read and written, register budgets that fit.
LogicalResult verifyWarpSpecialization(EmitPipelineOp op);
/// The ready (consumed) barriers of a pipeline with manual_ready_barriers
/// (manual_consumed_barriers), its body arguments, one per input, are
/// waited (arrived) on, and only that.
LogicalResult verifyPipelineBarrierUses(EmitPipelineOp op, ValueRange barriers,
                                        bool ready);

/// `a + b * c` for byte counts, saturating instead of wrapping around, so
/// that huge shapes or max_concurrent_steps still exceed the budget (S25).
int64_t addBytes(int64_t a, int64_t b, int64_t c = 1);

/// Bytes of the shared-memory scratch buffers of a kernel op.
int64_t getWorkgroupScratchBytes(std::optional<ArrayAttr> scratch);

/// S25: the static shared memory of a CTA against the chip's limit.
/// `buffers` is max_concurrent_steps for a pallas_call; an mpmd_map (no
/// staged blocks, only scratch) passes std::nullopt and gets its own hint.
LogicalResult verifySharedMemoryBudget(Operation *op, int64_t bytes,
                                       std::optional<int64_t> buffers);

/// The `delay_release` of a pipeline's block specs: inputs only, less than
/// max_concurrent_steps (`params`' or 1), the same for every input of a
/// warp-specialized pipeline; JAX's messages.
LogicalResult verifyDelayRelease(Operation *op, ArrayAttr inSpecs,
                                 ArrayAttr outSpecs, CompilerParamsAttr params,
                                 bool warpSpecialized);

/// The `collective_axes` of block specs: inputs of a warp-specialized
/// pipeline only (`pipeline`: the op is an emit_pipeline), one cluster axis
/// of the kernel's mesh, each CTA's share whole rows (of tiles); JAX's
/// messages.
LogicalResult verifyCollectiveBlocks(Operation *op, ArrayAttr inSpecs,
                                     ArrayAttr outSpecs, bool pipeline,
                                     bool warpSpecialized);

/// The values an emit_pipeline carries across steps (`init_carry`): its
/// results, its body's last arguments and its yield have their types; not
/// with warp specialization.
LogicalResult verifyPipelineCarries(EmitPipelineOp op);

/// The kernel-level ops' home: whether `op` is inside a pallas_call,
/// mpmd_map or emit_pipeline region, or in lowered GPU code (gpu.launch,
/// gpu.func) where the backends put them; else an error naming `op`.
LogicalResult verifyInsideKernel(Operation *op);

/// The mesh of the kernel region around `op`: std::nullopt where there is
/// none to check against (kernel form, launches, an mpmd_map region without
/// a mesh of its own); a null mesh for a pallas_call without one.
std::optional<MeshAttr> getKernelRegionMesh(Operation *op);

/// The axes of a cluster barrier are cluster axes of `mesh` (none without
/// a mesh); reported at `op`, which declares or uses `type`.
LogicalResult verifyClusterBarrierAxes(Operation *op, ClusterBarrierType type,
                                       MeshAttr mesh);

/// Checks the axes of a cluster barrier `barrier` used by `op` against the
/// mesh of the kernel region around `op`, where there is one (kernel form
/// and launches have none to check against).
LogicalResult verifyClusterBarrierUse(Operation *op, Type barrier);

/// S24: reports at `op` that `axis` is none of `meshes`' named axes. In the
/// jax profile the words and the order are JAX's: each mesh's grid names
/// reversed, then its cluster names reversed, then its thread name (JAX
/// lists them as its launch reverses them), then the JAX mesh's axes
/// (none); with no named axis at all, JAX's "No axis names are available"
/// message.
InFlightDiagnostic emitUnknownAxis(Operation *op, StringRef axis,
                                   ArrayRef<MeshAttr> meshes);

/// Reports at `op` that `axis` (named by the op as `what`: "axis",
/// "collective axis") is not one of the mesh's cluster axes `names`.
InFlightDiagnostic emitNotAClusterAxis(Operation *op, StringRef what,
                                       StringRef axis,
                                       ArrayRef<StringAttr> names);

/// The collective axes of a multicast copy: cluster axes of the kernel's
/// mesh, whose group's size divides the window's leading dimension.
LogicalResult verifyCollectiveCopy(CopyGmemToSmemOp op);
/// The rules of Blackwell's 2-CTA MMAs (CollectiveMma.cpp): a partitioned
/// copy, a collective tcgen05_mma and its commit, on a pair of CTAs along
/// the mesh's first cluster axis.
LogicalResult verifyPartitionedCopy(CopyGmemToSmemOp op);
LogicalResult verifyCollectiveMma(Tcgen05MmaOp op);
LogicalResult verifyCollectiveCommit(Tcgen05CommitArriveOp op);
/// Whether `op` is one of a pair's ops: a partitioned copy, a collective
/// MMA or commit.
bool isPairOp(Operation *op);
/// The rules of a copy_gmem_to_smem without a barrier: a pre-Hopper
/// cp.async copy (CpAsyncOps.cpp).
LogicalResult verifyCpAsyncCopy(CopyGmemToSmemOp op);

/// A wait inside a kernel for all but `pending` of the groups (named
/// `groups` in messages) in flight, of which the hardware tracks `most`.
LogicalResult verifyGroupWait(Operation *op, uint64_t pending, int64_t most,
                              StringRef groups);

/// An op that changes how a value is held, never its type: its result has
/// the type of `operand` (the `name` in messages).
LogicalResult verifyResultTypeOf(Operation *op, Value operand, StringRef name);

/// The shared-memory layout `[#mgpu.tile<[rows, cols]>, #mgpu.swizzle<S>]`
/// of a rank-2 buffer: rows x cols tiles in row-major order, each tile's
/// S-byte rows (S = 32, 64 or 128) with their 16-byte chunks swizzled
/// (mgpu/Target/SwizzleFormula.h), which is how TMA writes and the tensor
/// cores read with their S-byte swizzle modes. The only layout the
/// backends apply.
struct SwizzledTiling {
  int64_t rows = 0, cols = 0;
  int64_t elementBytes = 0;
  /// The swizzle span: a tile row's bytes.
  int64_t swizzleBytes = 128;
  int64_t tileBytes() const { return rows * cols * elementBytes; }
};

/// The rows and columns of the buffer a 2-d view reads: for a transposed
/// view (strides [1, s], plgpu.transpose_ref), the view with its dimensions
/// and strides swapped back; `view` itself otherwise. Transforms tile the
/// stored buffer, not the transposed view.
MemRefType getStoredType(MemRefType view);

/// The tiling that `transforms` give a buffer (or a view into one) of
/// `type`, or an error at `op` naming `what` and saying which part is not
/// supported. The tile must divide the shape, span exactly the swizzle's
/// bytes and cover whole groups of 8 rows.
FailureOr<SwizzledTiling> getSwizzledTiling(Operation *op, StringRef what,
                                            ArrayAttr transforms,
                                            MemRefType type);

/// A wgmma operand view read in place from a buffer stored with `tiling`:
/// the buffer's row width in elements and the view's first element in it.
struct TiledOperand {
  SwizzledTiling tiling;
  /// The buffer's row length and where the view starts in it, in elements.
  int64_t width = 0, row = 0, col = 0;
  /// The view starts at a run-time offset (`row` and `col` are 0): a slot
  /// of a ring or a warpgroup's rows (JAX's `a_smem.at[wg_m_slice]`). Like
  /// JAX, the start must be at a tile boundary; it is found at run time.
  bool dynamicOffset = false;
  /// The view is the transpose of a row-major view of the buffer (a K x N
  /// b whose buffer holds N rows of K: K-major for the tensor cores; an
  /// M x K a of wgmma whose buffer holds K rows of M: M-major).
  bool transposed = false;
};

/// The tiled operand `name` (`a` or `b`) of type `type` with `transforms`,
/// or an error at `op`: it must be a row-major view at a tile boundary, or
/// the transpose of one (memref.transpose; b, and wgmma's a); at a run-time
/// offset only where `dynamicOffsets` (wgmma's operands).
FailureOr<TiledOperand> getTiledOperand(Operation *op, StringRef name,
                                        Type type, ArrayAttr transforms,
                                        bool dynamicOffsets = false);

/// The byte distance between the consecutive 8-row groups (swizzle atoms)
/// of any `span` rows of a tiled operand that start at a multiple of
/// `span`, when it is the same for all of them, as a wgmma descriptor's
/// stride must be: 1024 inside a tile of a multiple of `span` rows, or when
/// rows of tiles are contiguous (one tile per row of tiles); a row of tiles
/// apart with tiles of 8 rows (JAX's default tiling).
std::optional<int64_t> getTiledGroupStride(const TiledOperand &tiled,
                                           int64_t span);

/// The byte offset of element (`row`, `col`) in a buffer `width` elements
/// wide stored with `tiling` (constants; for verifiers and emulation).
int64_t getSwizzledByteOffset(const SwizzledTiling &tiling, int64_t width,
                              int64_t row, int64_t col);

} // namespace mlir::mgpu

#endif // MGPU_DIALECT_MGPU_MGPURULES_H
