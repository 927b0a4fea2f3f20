//===- WarpgroupDistributor.h - Per-lane op re-emission ---------*- C++ -*-===//
//
// Private to the warpgroup distribution (WarpgroupDistribution.cpp and the
// Distribute*.cpp files next to it): the Distributor, which re-emits the
// array-level body of a Pallas thread op by op as per-lane code through an
// IRMapping, together with what its op handlers share: the Layout of a whole
// vector over the lanes, the Hazards its own exchanges leave, the small
// builders that stage values through the warpgroup scratch, and a few
// helpers. Each op handler is defined in the file of its concept.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_GPU_WARPGROUPDISTRIBUTOR_H
#define MGPU_LIB_GPU_WARPGROUPDISTRIBUTOR_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/GPU/WarpgroupDistribution.h"
#include "mgpu/GPU/WgmmaSteps.h"
#include "mgpu/KernelForm/IfThen.h"
#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/KernelForm/LayoutAssignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::mgpu::detail {

inline int64_t storageBytes(Type elementType) {
  unsigned bits =
      elementType.isIndex() ? 64 : elementType.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

/// How a whole vector is spread over the lanes.
struct Layout {
  SmallVector<int64_t> shape;
  int64_t n = 1, v = 1, slots = 1;

  explicit Layout(VectorType type) {
    shape = llvm::to_vector(type.getShape());
    n = type.getNumElements();
    if (!shape.empty())
      for (int64_t width : {4, 2})
        if (shape.back() % width == 0) {
          v = width;
          break;
        }
    slots = llvm::divideCeil(n / v, kWarpgroupLanes);
  }
  /// Whether every chunk of `slot` exists on every lane.
  bool isFullSlot(int64_t slot) const {
    return (slot + 1) * kWarpgroupLanes * v <= n;
  }
};

inline VectorType getLaneType(VectorType type) {
  Layout layout(type);
  return VectorType::get({layout.slots * layout.v}, type.getElementType());
}

/// What the distribution's own work leaves for the lanes to agree on since
/// the last barrier (the kernel's accesses are --mgpu-place-barriers'):
/// its scratch area, still read by some lane, and MMAs it waited for, whose
/// operands other warps may still read until each has passed its own wait.
struct Hazards {
  bool scratch = false, mmas = false;
  Hazards operator|(const Hazards &o) const {
    return {scratch || o.scratch, mmas || o.mmas};
  }
  static Hazards all() { return {true, true}; }
};

class Distributor {
public:
  Distributor(OpBuilder &b, IRMapping &map, const WarpgroupContext &ctx)
      : b(b), map(map), ctx(ctx) {}

  LogicalResult distributeBlock(Block &block);
  /// The kernel body: its block, then whatever MMAs are still in flight.
  LogicalResult distributeBody(Block &body) {
    if (failed(distributeBlock(body)))
      return failure();
    if (!body.empty())
      completeMmas(body.back().getLoc());
    return success();
  }

private:
  OpBuilder &b;
  IRMapping &map;
  const WarpgroupContext &ctx;
  Hazards hazards;
  /// Ops done as part of an earlier op (a TMEM load's store to shared
  /// memory), skipped when reached.
  llvm::SmallPtrSet<Operation *, 4> absorbed;
  /// Values held in a fragment layout: `wgmma` (for M x N, (M / 64) * (N / 2)
  /// f32 per lane, element `tile * N / 2 + reg` being register `reg` of the
  /// tile's fragment) or `wgmma_row` (for M or M x 1, (M / 64) * 2 f32 per
  /// lane, element `tile * 2 + h` being the row of register 2h) or
  /// `wgmma_col` (for N or 1 x N, N / 4 per lane, element `2g + j` being
  /// column 8g + 2(lane % 4) + j). The assigned layout tells which. A value may
  /// also have its strided layout in `map`; if not, each use that needs that
  /// layout converts it.
  DenseMap<Value, Value> fragmentOf;
  /// The last tensor-core wgmma and its b, which it left in the scratch.
  std::pair<Operation *, Value> lastTensorCoreB;
  bool reusesB(WgmmaOp op) const;
  /// Tensor-core MMAs committed but not waited for: those reading their
  /// operands in place. They complete at an mgpu.wgmma_wait 0, before any
  /// other op with memory effects or regions, before their results are read
  /// in the lane layout, and at the end of their block.
  bool pendingMmas = false;
  /// Set by an mgpu.wgmma_wait N > 0: the kernel keeps MMAs in flight on
  /// purpose (a pipeline that frees the previous stage while this one's
  /// MMAs run), and the op's contract makes it responsible for its buffers.
  /// The MMAs then complete only at a wait, where their results are read in
  /// the lane layout, and at the end of the kernel body.
  bool inFlightByChoice = false;
  void completeMmas(Location loc) {
    if (!pendingMmas)
      return;
    waitForMmas(loc, 0);
    pendingMmas = false;
    inFlightByChoice = false;
  }
  /// Waits until at most `pending` MMA groups are in flight. Each warp
  /// passes its own wait: a later arrival, copy or lane write that frees or
  /// overwrites what they read in place waits for every warp first.
  void waitForMmas(Location loc, int64_t pending) {
    WgmmaWaitGroupOp::create(b, loc, pending);
    hazards.mmas = true;
  }
  /// The address (i64) and layout of wgmma operand `operand` (`a` K-major,
  /// `b` N-major) read in place in its tiled, swizzled buffer.
  MmaOperand tiledOperand(WgmmaOp op, Value operand, ArrayAttr transforms,
                          bool isA);

  //--- small builders -----------------------------------------------------
  Value index(Location loc, int64_t v) { return indexConstant(b, loc, v); }
  Value i32(Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  }
  Value lookup(Value v) {
    if (!map.contains(v))
      if (Value held = fragmentOf.lookup(v))
        return heldToLanes(v.getLoc(), held, cast<VectorType>(v.getType()),
                           heldKindOf(v));
    return map.lookupOrDefault(v);
  }
  SmallVector<Value> lookupAll(ValueRange values) {
    return llvm::map_to_vector(values, [&](Value v) { return lookup(v); });
  }
  /// The layout --mgpu-assign-layouts gave `v` (strided if none).
  static LayoutKind layoutOf(Value v) {
    return getAssignedLayout(v).value_or(LayoutKind::strided);
  }
  /// The fragment layout of a held value of `type`.
  static LayoutKind heldKind(VectorType type) {
    return type.getRank() == 1 || type.getDimSize(1) == 1
               ? LayoutKind::wgmma_row
               : LayoutKind::wgmma;
  }
  /// The fragment layout `original`'s value is held in: its assigned
  /// layout (every value setHeld records has one), else by its shape.
  static LayoutKind heldKindOf(Value original) {
    LayoutKind kind = layoutOf(original);
    return isFragmentLayout(kind)
               ? kind
               : heldKind(cast<VectorType>(original.getType()));
  }
  /// The lane vector of a value of `type` in `kind`.
  static VectorType laneTypeIn(VectorType type, LayoutKind kind) {
    if (kind == LayoutKind::wgmma_row)
      return VectorType::get({type.getDimSize(0) / 64 * 2},
                             type.getElementType());
    if (kind == LayoutKind::wgmma_col)
      return VectorType::get({type.getNumElements() / 4},
                             type.getElementType());
    return getLaneType(type);
  }
  /// `v` in layout `kind`, converted if it is held in another.
  Value lookupIn(Value v, LayoutKind kind);
  /// `v` (an f32 accumulator) in the WGMMA fragment layout.
  Value lookupFragments(Value v) { return lookupIn(v, LayoutKind::wgmma); }
  /// Records `held` as the value of `original` in its fragment layout;
  /// converts it once, here, when some use takes the strided layout.
  void setHeld(Location loc, Value original, Value held);
  /// The layout in which `use` takes its value.
  LayoutKind takenLayout(OpOperand &use) const;
  /// The row and column, in its 64-row tile, of the element register `reg`
  /// of a tile holds on this lane in the 2-D fragment layout `kind`.
  std::pair<Value, Value> fragmentPosition(Location loc, LayoutKind kind,
                                           int64_t reg);
  /// The row-major index, in an M x `n` buffer, of the element that
  /// register `reg` of tile `tile` holds on this lane in `kind`.
  Value fragmentElementIndex(Location loc, int64_t tile, int64_t reg, int64_t n,
                             LayoutKind kind = LayoutKind::wgmma);
  Value lanesToFragments(Location loc, Value lanes, VectorType type,
                         LayoutKind kind = LayoutKind::wgmma);
  Value fragmentsToLanes(Location loc, Value fragments, VectorType type,
                         LayoutKind kind = LayoutKind::wgmma);
  Value stageFragments(Location loc, Value fragments, VectorType type,
                       LayoutKind kind = LayoutKind::wgmma);
  Value lanesToRows(Location loc, Value lanes, VectorType type);
  /// Stages `lanes` (a whole `type` vector) and reads back the `count`
  /// elements this lane holds in `kind`, the i-th from flat index `at(i)`.
  Value restage(Location loc, Value lanes, VectorType type, LayoutKind kind,
                int64_t count, function_ref<Value(int64_t)> at);
  Value rowsToLanes(Location loc, Value rows, VectorType type);
  /// The inverse of restage: the lanes that `writes` (made once the
  /// exchange has begun) store the `count` elements they hold of a `size`
  /// vector, the i-th at flat index `at(i)`, and every lane reads the
  /// whole `type` vector back.
  Value restageToLanes(Location loc, Value held, VectorType type, int64_t size,
                       function_ref<Value()> writes, int64_t count,
                       function_ref<Value(int64_t)> at);
  Value lanesToColumns(Location loc, Value lanes, VectorType type);
  Value columnsToLanes(Location loc, Value columns, VectorType type);
  Value heldToLanes(Location loc, Value held, VectorType type,
                    LayoutKind kind) {
    if (kind == LayoutKind::wgmma_col)
      return columnsToLanes(loc, held, type);
    return kind == LayoutKind::wgmma_row
               ? rowsToLanes(loc, held, type)
               : fragmentsToLanes(loc, held, type, kind);
  }

  /// The lanes of the warpgroup meet (its named barrier, lowered with the
  /// other primitives).
  void barrier(Location loc) {
    WarpgroupBarrierOp::create(b, loc);
    hazards = Hazards();
  }
  /// Before a lane write, an arrival, a copy or a lane-0 side effect:
  /// every warp has passed the MMA waits the distribution added.
  void beforeWrite(Location loc) {
    if (hazards.mmas)
      barrier(loc);
  }
  /// Whether access `op` (of `base`) is one the lanes share: not through a
  /// lane-private view, and not given up (unsafe_no_auto_barriers).
  bool isSharedAccess(Operation *op, Value base);
  /// Starts an op that exchanges data through the scratch area.
  void beginExchange(Location loc) {
    if (hazards.scratch)
      barrier(loc);
    ctx.scratch->reset();
  }

  Value isLaneZero(Location loc) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctx.lane,
                                 index(loc, 0));
  }

  /// Whether this CTA is the first of its pair along the cluster's x axis,
  /// the one that issues a pair's collective MMAs and commits.
  Value isPairLeader(Location loc) {
    Value rank = gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                 index(loc, 0));
  }

  Value linearize(Location loc, ArrayRef<Value> indices,
                  ArrayRef<int64_t> shape) {
    Value flat = index(loc, 0);
    for (auto [i, size] : llvm::zip(indices, shape))
      flat = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, flat, index(loc, size)), i);
    return flat;
  }

  // i1 lives in memory as i8, so that vector stores never pack bits.
  Type storageType(Type element) {
    return element.isInteger(1) ? b.getI8Type() : element;
  }
  Value toStorage(Location loc, Value v) {
    Type element = getElementTypeOrSelf(v.getType());
    if (!element.isInteger(1))
      return v;
    Type target = b.getI8Type();
    if (auto vec = dyn_cast<VectorType>(v.getType()))
      target = vec.clone(target);
    return arith::ExtUIOp::create(b, loc, target, v);
  }
  Value fromStorage(Location loc, Value v, Type element) {
    if (!element.isInteger(1))
      return v;
    Type target = element;
    if (auto vec = dyn_cast<VectorType>(v.getType()))
      target = vec.clone(element);
    return arith::TruncIOp::create(b, loc, target, v);
  }

  /// Flat index of the first element of chunk slot `slot` of this lane;
  /// clamped to the last chunk when the slot is partial, so that reads stay
  /// inside the vector.
  Value chunkStart(Location loc, const Layout &layout, int64_t slot,
                   bool clamp) {
    Value chunk = arith::AddIOp::create(b, loc, ctx.lane,
                                        index(loc, slot * kWarpgroupLanes));
    Value flat = arith::MulIOp::create(b, loc, chunk, index(loc, layout.v));
    if (clamp && !layout.isFullSlot(slot))
      flat =
          arith::MinUIOp::create(b, loc, flat, index(loc, layout.n - layout.v));
    return flat;
  }
  Value chunkValid(Location loc, const Layout &layout, Value flat) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, flat,
                                 index(loc, layout.n));
  }
  /// Runs `body` under `cond` (when given).
  void guarded(Location loc, Value cond, function_ref<void()> body) {
    if (!cond)
      return body();
    buildIfThen(b, loc, cond, body);
  }
  /// Runs `body` for each element this lane holds of a value in `layout`
  /// (`flat`: its index in the value, `held`: its position in the lane's
  /// vector), guarded where the element's slot is partial.
  void forEachHeldElement(Location loc, const Layout &layout,
                          function_ref<void(Value flat, int64_t held)> body) {
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/false);
      for (int64_t k = 0; k < layout.v; ++k) {
        Value flat =
            k ? arith::AddIOp::create(b, loc, start, index(loc, k)) : start;
        Value valid =
            layout.isFullSlot(slot) ? Value() : chunkValid(loc, layout, flat);
        guarded(loc, valid, [&] { body(flat, slot * layout.v + k); });
      }
    }
  }

  Value zeroVector(Location loc, VectorType laneType) {
    Type element = laneType.getElementType();
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(laneType, b.getZeroAttr(element)));
  }

  /// The lane vector whose element k of slot s is `element(multiIndex)`.
  Value buildPerElement(
      Location loc, VectorType type,
      function_ref<Value(ArrayRef<Value> multi, Value flat)> element) {
    Layout layout(type);
    VectorType laneType = getLaneType(type);
    Value result = zeroVector(loc, laneType);
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/true);
      for (int64_t k = 0; k < layout.v; ++k) {
        Value flat =
            k ? arith::AddIOp::create(b, loc, start, index(loc, k)) : start;
        Value value = element(delinearize(b, loc, flat, layout.shape), flat);
        result = vector::InsertOp::create(b, loc, value, result,
                                          slot * layout.v + k);
      }
    }
    return result;
  }

  /// Like buildPerElement, but element values replace those of `laneValue`
  /// (a lane vector of `type`), which the callback gets as `old`: one lane
  /// vector live instead of two.
  Value updatePerElement(
      Location loc, VectorType type, Value laneValue,
      function_ref<Value(ArrayRef<Value> multi, Value old)> element) {
    Layout layout(type);
    Value result = laneValue;
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/true);
      for (int64_t k = 0; k < layout.v; ++k) {
        Value flat =
            k ? arith::AddIOp::create(b, loc, start, index(loc, k)) : start;
        int64_t position = slot * layout.v + k;
        Value old = vector::ExtractOp::create(b, loc, result, position);
        Value value = element(delinearize(b, loc, flat, layout.shape), old);
        result = vector::InsertOp::create(b, loc, value, result, position);
      }
    }
    return result;
  }

  /// Writes this lane's chunks of `laneValue` (a whole `type` vector) to a
  /// fresh row-major scratch buffer. The caller places the barrier.
  Value stage(Location loc, Value laneValue, VectorType type) {
    Layout layout(type);
    Type element = storageType(type.getElementType());
    Value buffer = ctx.scratch->allocate(b, loc, element, layout.n);
    Value stored = toStorage(loc, laneValue);
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/false);
      Value valid =
          layout.isFullSlot(slot) ? Value() : chunkValid(loc, layout, start);
      guarded(loc, valid, [&] {
        Value chunk = vector::ExtractStridedSliceOp::create(
            b, loc, stored, slot * layout.v, layout.v, 1);
        vector::StoreOp::create(
            b, loc, chunk, buffer, start, false,
            llvm::MaybeAlign(layout.v * storageBytes(element)));
      });
    }
    hazards.scratch = true;
    return buffer;
  }
  /// Reads element `flat` of a scratch buffer. The scratch is then busy:
  /// the next exchange must wait until every lane has read.
  Value loadStaged(Location loc, Value buffer, Value flat, Type element) {
    hazards.scratch = true;
    return fromStorage(loc, memref::LoadOp::create(b, loc, buffer, flat),
                       element);
  }
  /// The lane vector of a `result` whose element at `multi` is element
  /// `sourceIndex(multi)` of `source` (a whole vector of `sourceType`), read
  /// back from the scratch: broadcasts, transposes, extracts and slices.
  Value gatherThroughScratch(
      Location loc, Value source, VectorType sourceType, VectorType result,
      function_ref<SmallVector<Value>(ArrayRef<Value>)> sourceIndex);
  /// The indices of a vector.extract or vector.insert position.
  SmallVector<Value> positionIndices(Location loc,
                                     ArrayRef<OpFoldResult> position);
  /// Reads a row-major scratch buffer back into the layout of `type`.
  Value unstage(Location loc, Value buffer, VectorType type) {
    hazards.scratch = true;
    Layout layout(type);
    Type element = storageType(type.getElementType());
    Value result = zeroVector(loc, getLaneType(type).clone(element));
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/true);
      Value chunk = vector::LoadOp::create(
          b, loc, VectorType::get({layout.v}, element), buffer, start, false,
          llvm::MaybeAlign(layout.v * storageBytes(element)));
      result = vector::InsertStridedSliceOp::create(b, loc, chunk, result,
                                                    slot * layout.v, 1);
    }
    return fromStorage(loc, result, type.getElementType());
  }

  //--- op handlers --------------------------------------------------------
  LogicalResult distributeOp(Operation *op);
  // DistributeTmem.cpp: moves between tensor memory and the lanes.
  LogicalResult distributeTmemLoad(AsyncLoadTmemOp op);
  LogicalResult distributeTmemLoadToSmem(AsyncLoadTmemOp op, Operation *store);
  LogicalResult distributeTmemStore(AsyncStoreTmemOp op);
  LogicalResult distributeElementwise(Operation *op);
  LogicalResult distributeLayoutCast(LayoutCastOp op);
  LogicalResult distributeRowReduction(vector::MultiDimReductionOp op);
  LogicalResult distributeRowBroadcast(Operation *op);
  LogicalResult distributeColumnBroadcast(vector::BroadcastOp op);
  LogicalResult distributeStep(vector::StepOp op);
  /// Moves `at` (the indices of an element of the 2-d view `base`) to where
  /// the layout of `op`'s `mgpu.transforms` puts it; nothing without them.
  void throughLayout(Operation *op, Value base, SmallVectorImpl<Value> &at);
  LogicalResult distributeHeldAccess(VectorTransferOpInterface op);
  LogicalResult distributeTransfer(VectorTransferOpInterface op);
  bool feedsRowBroadcast(vector::BroadcastOp op);
  LogicalResult distributeConstant(arith::ConstantOp op);
  LogicalResult distributeBroadcast(vector::BroadcastOp op);
  LogicalResult distributeTranspose(vector::TransposeOp op);
  LogicalResult distributeShapeCast(vector::ShapeCastOp op);
  LogicalResult distributeBitCast(vector::BitCastOp op);
  LogicalResult distributeExtract(vector::ExtractOp op);
  LogicalResult distributeInsert(vector::InsertOp op);
  LogicalResult distributeContract(vector::ContractionOp op);
  LogicalResult distributeWgmma(WgmmaOp op);
  LogicalResult distributeWgmmaOnTensorCores(WgmmaOp op);
  // DistributeMma.cpp: mgpu.mma on mma.sync, or lane by lane.
  LogicalResult distributeMma(MmaOp op);
  LogicalResult distributeFromValues(Operation *op, Value whole);
  LogicalResult distributeExtractSlice(vector::ExtractStridedSliceOp op);
  LogicalResult distributeInsertSlice(vector::InsertStridedSliceOp op);
  /// Distributes `from` into the empty block `to`, ending it with a yield of
  /// what `from`'s terminator yields (mapped).
  LogicalResult distributeRegion(Region &from, Block *to);
  LogicalResult distributeReduction(Operation *op, vector::CombiningKind kind,
                                    Value source, ArrayRef<bool> reduced,
                                    Value acc, Type resultType);
  LogicalResult distributeRead(Operation *op, Value memref, ValueRange indices,
                               VectorType type, AffineMap permutation,
                               ArrayRef<bool> inBounds, Value padding);
  LogicalResult distributeWrite(Operation *op, Value value, Value memref,
                                ValueRange indices, VectorType type,
                                AffineMap permutation, ArrayRef<bool> inBounds);
  /// The scf ops a kernel body may hold, their regions distributed.
  LogicalResult distributeRegionOp(scf::ForOp op);
  LogicalResult distributeRegionOp(scf::IfOp op);
  LogicalResult distributeRegionOp(scf::WhileOp op);
  LogicalResult distributeRegionOp(scf::IndexSwitchOp op);
  LogicalResult distributeRegionOp(scf::ParallelOp op);
  /// `only`, where given, narrows lane 0 further (a collective tcgen05 op
  /// runs on the first CTA of its pair only).
  LogicalResult distributeSideEffect(Operation *op, Value only = Value());
  LogicalResult distributeSemaphore(SemaphoreSignalOp op);
  LogicalResult distributeAtomic(AtomicStoreOp op);
  LogicalResult distributeDebugPrint(DebugPrintOp op);
  LogicalResult distributeSemaphore(SemaphoreWaitOp op);
  LogicalResult distributePrimitive(Operation *op);
  LogicalResult distributeBarrier(WarpgroupBarrierOp op);
  Hazards loopEntryHazards(Operation *loop) const;

  /// Memref indices of the element at vector position `multi` for a transfer
  /// with `permutation` from `base`.
  SmallVector<Value> transferIndices(Location loc, ValueRange base,
                                     AffineMap permutation,
                                     ArrayRef<Value> multi) {
    SmallVector<Value> indices(base.begin(), base.end());
    for (auto [i, expr] : llvm::enumerate(permutation.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        indices[dim.getPosition()] =
            arith::AddIOp::create(b, loc, indices[dim.getPosition()], multi[i]);
    return indices;
  }
  /// Whether the element at `indices` is inside the memref along the dims
  /// the transfer may leave; null when it always is.
  Value transferInBounds(Location loc, Value memref, ArrayRef<Value> indices,
                         AffineMap permutation, ArrayRef<bool> inBounds) {
    Value cond;
    for (auto [i, expr] : llvm::enumerate(permutation.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || inBounds[i])
        continue;
      unsigned d = dim.getPosition();
      Value size = memref::DimOp::create(b, loc, memref, d);
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           indices[d], size);
      cond = cond ? arith::AndIOp::create(b, loc, cond, inside) : inside;
    }
    return cond;
  }
  bool hasFastPath(Value memref, VectorType type, AffineMap permutation,
                   ArrayRef<bool> inBounds) {
    auto memrefType = cast<MemRefType>(memref.getType());
    return type.getRank() >= 1 && permutation.isMinorIdentity() &&
           llvm::all_of(inBounds, [](bool b) { return b; }) &&
           memrefType.isLastDimUnitStride() &&
           !memrefType.getElementType().isInteger(1);
  }
};

InFlightDiagnostic cannotDistribute(Operation *op, StringRef why);

/// The neutral element of `kind` for `type`.
Value getIdentity(OpBuilder &b, Location loc, vector::CombiningKind kind,
                  Type type);
/// A warp shuffle (xor) of any scalar up to 64 bits.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int64_t offset);

bool hasVectorType(Operation *op);

} // namespace mlir::mgpu::detail

#endif // MGPU_LIB_GPU_WARPGROUPDISTRIBUTOR_H
