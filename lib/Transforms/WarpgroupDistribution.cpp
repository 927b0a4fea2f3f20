//===- WarpgroupDistribution.cpp - Warpgroup-level ops to lanes -----------===//
//
// Turns the array-level body of a Pallas thread into per-lane code (see the
// header for the layout). The body is re-emitted op by op through an
// IRMapping: a vector value maps to the vector of the elements its lane
// owns, a scalar to itself. Ops that only combine elements at the same
// position keep the layout and cost nothing extra; ops that move elements
// between lanes stage their operands in the warpgroup's scratch and read back
// what each lane needs. A small hazard tracker places named barriers only
// where one lane may read or overwrite memory another lane touched since the
// last barrier.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Transforms/WarpgroupDistribution.h"
#include "mgpu/Conversion/WgmmaSemantics.h"
#include "mgpu/Conversion/WgmmaToNVVM.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mgpu;

//===----------------------------------------------------------------------===//
// Scratch and alignment helpers
//===----------------------------------------------------------------------===//

static int64_t storageBytes(Type elementType) {
  unsigned bits =
      elementType.isIndex() ? 64 : elementType.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

Value WarpgroupScratch::allocate(OpBuilder &b, Location loc, Type elementType,
                                 int64_t count) {
  int64_t start = llvm::alignTo(used, 16);
  used = start + count * storageBytes(elementType);
  required = std::max(required, used);
  Value shift = arith::AddIOp::create(
      b, loc, offset, arith::ConstantIndexOp::create(b, loc, start));
  auto type = MemRefType::get(
      {count}, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(b, loc, type, base, shift, ValueRange());
}

/// The largest power of two dividing `v`, at most `cap` (`cap` for 0);
/// computed on the bits, so that INT64_MIN is no overflow.
static int64_t powerOfTwoDividing(int64_t v, int64_t cap) {
  if (v == 0)
    return cap;
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(v));
  return zeros >= 62 ? cap : std::min<int64_t>(cap, int64_t(1) << zeros);
}

int64_t mlir::mgpu::getKnownMultiple(Value value) {
  constexpr int64_t kCap = 16;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    return powerOfTwoDividing(constant.getSExtValue(), kCap);
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (isa<arith::MulIOp>(def))
    return std::min<int64_t>(kCap, getKnownMultiple(def->getOperand(0)) *
                                       getKnownMultiple(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp, arith::RemUIOp, arith::RemSIOp,
          arith::MinUIOp, arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp>(def))
    return std::min(getKnownMultiple(def->getOperand(0)),
                    getKnownMultiple(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return getKnownMultiple(def->getOperand(0));
  return 1;
}

/// The known power-of-two multiple (capped at 16) of an offset given as a
/// value or a constant.
static int64_t getKnownOffsetMultiple(OpFoldResult offset) {
  if (auto value = dyn_cast<Value>(offset))
    return getKnownMultiple(value);
  int64_t v = cast<IntegerAttr>(cast<Attribute>(offset)).getInt();
  return powerOfTwoDividing(v, 16);
}

int64_t mlir::mgpu::getKnownAlignment(Value memref, ValueRange indices) {
  SmallVector<int64_t> multiples = llvm::map_to_vector(
      indices, [](Value index) { return getKnownMultiple(index); });
  // Zero offsets do not count, even along dimensions of unknown stride.
  SmallVector<bool> zero = llvm::map_to_vector(
      indices, [](Value index) { return isZeroInteger(index); });
  // A unit-stride view (such as a block read in place in global memory) at
  // known offsets: the same element of its source.
  while (auto view = memref.getDefiningOp<memref::SubViewOp>()) {
    if (view.getSourceType().getRank() != view.getType().getRank() ||
        !llvm::all_of(view.getStaticStrides(),
                      [](int64_t s) { return s == 1; }))
      break;
    for (auto [multiple, isZero, offset] :
         llvm::zip(multiples, zero, view.getMixedOffsets())) {
      multiple = std::min(multiple, getKnownOffsetMultiple(offset));
      isZero = isZero && isZeroInteger(offset);
    }
    memref = view.getSource();
  }
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = storageBytes(type.getElementType());
  if (!type.getLayout().isIdentity())
    return elementBytes;
  // Element offset = sum of index * stride. Only powers of two matter: track
  // the power-of-two part of each stride (capped at 16 elements), known
  // while every inner dimension is static.
  auto powerOfTwoPart = [](int64_t v) { return powerOfTwoDividing(v, 16); };
  int64_t multiple = 16;
  int64_t stride = 1;
  bool strideKnown = true;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!zero[d])
      multiple =
          std::min(multiple, strideKnown ? powerOfTwoPart(multiples[d] * stride)
                                         : int64_t(1));
    if (type.isDynamicDim(d))
      strideKnown = false;
    else
      stride = powerOfTwoPart(stride * powerOfTwoPart(type.getDimSize(d)));
  }
  int64_t bytes = std::min<int64_t>(16, multiple * elementBytes);
  return bytes & -bytes;
}

/// Whether `base` is a view whose elements each lane accesses alone.
static bool isLanePrivate(Value base) {
  auto view = base.getDefiningOp<memref::SubViewOp>();
  return view && view->hasAttr(MGPUDialect::getLanePrivateAttrName());
}

/// The accumulator is handed over through the warpgroup scratch, which
/// must leave room for the kernel's own buffers; an a in registers goes
/// through the scratch too.
bool mlir::mgpu::canRunOnTensorCores(WgmmaOp op) {
  constexpr int64_t kMaxHandoverBytes = 32 * 1024;
  auto accType = cast<VectorType>(op.getAcc().getType());
  Type input = op.getInputType();
  return isa<Float16Type, BFloat16Type>(input) &&
         accType.getElementType().isF32() &&
         accType.getNumElements() * 4 <= kMaxHandoverBytes;
}

namespace {

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

VectorType getLaneType(VectorType type) {
  Layout layout(type);
  return VectorType::get({layout.slots * layout.v}, type.getElementType());
}

/// Memory state since the last barrier, as seen by the hazard tracker.
struct Hazards {
  bool read = false, write = false, scratch = false;
  Hazards operator|(const Hazards &o) const {
    return {read || o.read, write || o.write, scratch || o.scratch};
  }
  static Hazards all() { return {true, true, true}; }
};

class Distributor {
public:
  Distributor(OpBuilder &b, IRMapping &map, const WarpgroupContext &ctx)
      : b(b), map(map), ctx(ctx) {}

  LogicalResult distributeBlock(Block &block);

private:
  OpBuilder &b;
  IRMapping &map;
  const WarpgroupContext &ctx;
  Hazards hazards;
  /// Accumulators of tensor-core wgmma held in the WGMMA fragment layout: the
  /// original value to a lane vector of (M / 64) * (N / 2) f32, element
  /// `tile * N / 2 + reg` being register `reg` of the tile's fragment. A
  /// value may also have its ordinary layout in `map`; if not, each use that
  /// needs that layout converts it.
  DenseMap<Value, Value> fragmentOf;
  /// Iteration arguments (of the original loops) carried in fragments.
  DenseSet<Value> fragmentIterArgs;
  /// The last tensor-core wgmma and its b, which it left in the scratch.
  std::pair<Operation *, Value> lastTensorCoreB;
  bool reusesB(WgmmaOp op) const;
  /// Tensor-core MMAs committed but not waited for: those reading their
  /// operands in place. They complete at an mgpu.wgmma_wait 0, before any
  /// other op with memory effects or regions, before their results are read
  /// in the lane layout, and at the end of their block.
  bool pendingMmas = false;
  void completeMmas(Location loc) {
    if (!pendingMmas)
      return;
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    pendingMmas = false;
  }
  /// The address (i64) and layout of wgmma operand `operand` (`a` K-major,
  /// `b` N-major) read in place in its tiled, swizzled buffer.
  MmaOperand tiledOperand(WgmmaOp op, Value operand, ArrayAttr transforms,
                          bool isA);

  //--- small builders -----------------------------------------------------
  Value index(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value i32(Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  }
  Value lookup(Value v) {
    if (!map.contains(v))
      if (Value fragments = fragmentOf.lookup(v))
        return fragmentsToLanes(v.getLoc(), fragments,
                                cast<VectorType>(v.getType()));
    return map.lookupOrDefault(v);
  }
  /// `v` (an f32 accumulator) in the WGMMA fragment layout.
  Value lookupFragments(Value v) {
    if (Value fragments = fragmentOf.lookup(v))
      return fragments;
    return lanesToFragments(v.getLoc(), lookup(v),
                            cast<VectorType>(v.getType()));
  }
  /// Whether `use` takes its value in the WGMMA fragment layout.
  bool takesFragments(OpOperand &use) const;
  Value lanesToFragments(Location loc, Value lanes, VectorType type);
  Value fragmentsToLanes(Location loc, Value fragments, VectorType type);

  void barrier(Location loc) {
    NVVM::BarrierOp::create(b, loc, Type(), ctx.barrierId,
                            i32(loc, kWarpgroupLanes),
                            NVVM::BarrierReductionAttr(), Value());
    hazards = Hazards();
  }
  void beforeRead(Location loc) {
    if (hazards.write)
      barrier(loc);
  }
  void beforeWrite(Location loc) {
    if (hazards.read || hazards.write)
      barrier(loc);
  }
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

  SmallVector<Value> delinearize(Location loc, Value flat,
                                 ArrayRef<int64_t> shape) {
    SmallVector<Value> result(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (d == 0) {
        result[d] = flat;
        break;
      }
      Value size = index(loc, shape[d]);
      result[d] = arith::RemUIOp::create(b, loc, flat, size);
      flat = arith::DivUIOp::create(b, loc, flat, size);
    }
    return result;
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
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    body();
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
        Value value = element(delinearize(loc, flat, layout.shape), flat);
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
        Value value = element(delinearize(loc, flat, layout.shape), old);
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
  LogicalResult distributeElementwise(Operation *op);
  LogicalResult distributeConstant(arith::ConstantOp op);
  LogicalResult distributeBroadcast(vector::BroadcastOp op);
  LogicalResult distributeTranspose(vector::TransposeOp op);
  LogicalResult distributeShapeCast(vector::ShapeCastOp op);
  LogicalResult distributeExtract(vector::ExtractOp op);
  LogicalResult distributeInsert(vector::InsertOp op);
  LogicalResult distributeContract(vector::ContractionOp op);
  LogicalResult distributeWgmma(WgmmaOp op);
  LogicalResult distributeWgmmaOnTensorCores(WgmmaOp op);
  LogicalResult distributeFromValues(Operation *op, Value whole);
  LogicalResult distributeExtractSlice(vector::ExtractStridedSliceOp op);
  LogicalResult distributeInsertSlice(vector::InsertStridedSliceOp op);
  LogicalResult distributeWhile(scf::WhileOp op);
  LogicalResult distributeSwitch(scf::IndexSwitchOp op);
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
  LogicalResult distributeFor(scf::ForOp op);
  LogicalResult distributeIf(scf::IfOp op);
  LogicalResult distributeParallel(scf::ParallelOp op);
  LogicalResult distributeSideEffect(Operation *op);
  LogicalResult distributeSignal(SemaphoreSignalOp op);
  LogicalResult distributeWait(SemaphoreWaitOp op);
  LogicalResult distributePrimitive(Operation *op);

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

InFlightDiagnostic cannotDistribute(Operation *op, StringRef why) {
  return op->emitOpError() << "cannot be lowered to the GPU: " << why;
}

bool hasVectorType(Operation *op) {
  auto isVector = [](Type t) { return isa<VectorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isVector) ||
         llvm::any_of(op->getResultTypes(), isVector);
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (op.getNumResults() &&
        llvm::all_of(op.getResults(), [&](Value r) { return map.contains(r); }))
      continue;
    if (pendingMmas && !isa<WgmmaOp, WgmmaWaitOp>(op) &&
        (op.getNumRegions() || !isMemoryEffectFree(&op)))
      completeMmas(op.getLoc());
    if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
      // Only MMAs left in flight have anything to wait for.
      if (pendingMmas)
        NVVM::WgmmaWaitGroupSyncOp::create(b, wait.getLoc(), wait.getPending());
      pendingMmas = pendingMmas && wait.getPending() != 0;
      continue;
    }
    if (failed(distributeOp(&op)))
      return failure();
  }
  if (!block.empty())
    completeMmas(block.back().getLoc());
  return success();
}

LogicalResult Distributor::distributeOp(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return distributeConstant(constant);
  if ((OpTrait::hasElementwiseMappableTraits(op) || isa<vector::FMAOp>(op)) &&
      hasVectorType(op))
    return distributeElementwise(op);

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](vector::BroadcastOp o) { return distributeBroadcast(o); })
      .Case([&](vector::TransposeOp o) { return distributeTranspose(o); })
      .Case([&](vector::ShapeCastOp o) { return distributeShapeCast(o); })
      .Case([&](vector::ExtractOp o) { return distributeExtract(o); })
      .Case([&](vector::InsertOp o) { return distributeInsert(o); })
      .Case([&](vector::ContractionOp o) { return distributeContract(o); })
      .Case([&](WgmmaOp o) { return distributeWgmma(o); })
      .Case([&](vector::StepOp o) {
        // Element i is i: the lane computes its own positions.
        map.map(o.getResult(), buildPerElement(o.getLoc(), o.getType(),
                                               [](ArrayRef<Value>, Value flat) {
                                                 return flat;
                                               }));
        return success();
      })
      .Case([&](vector::FromElementsOp o) {
        SmallVector<Value> elements = llvm::map_to_vector(
            o.getElements(), [&](Value v) { return lookup(v); });
        auto flat = VectorType::get({o.getType().getNumElements()},
                                    o.getType().getElementType());
        return distributeFromValues(
            o, vector::FromElementsOp::create(b, o.getLoc(), flat, elements));
      })
      .Case([&](vector::ExtractStridedSliceOp o) {
        return distributeExtractSlice(o);
      })
      .Case([&](vector::InsertStridedSliceOp o) {
        return distributeInsertSlice(o);
      })
      .Case([&](vector::ReductionOp o) {
        return distributeReduction(o, o.getKind(), o.getVector(), {true},
                                   o.getAcc(), o.getType());
      })
      .Case([&](vector::MultiDimReductionOp o) {
        return distributeReduction(o, o.getKind(), o.getSource(),
                                   o.getReductionMask(), o.getAcc(),
                                   o.getType());
      })
      .Case([&](vector::TransferReadOp o) -> LogicalResult {
        if (o.getMask())
          return cannotDistribute(o, "masked transfers are not supported");
        if (!isa<MemRefType>(o.getBase().getType()))
          return cannotDistribute(o, "the body must be in memref form");
        return distributeRead(o, o.getBase(), o.getIndices(), o.getVectorType(),
                              o.getPermutationMap(), o.getInBoundsValues(),
                              o.getPadding());
      })
      .Case([&](vector::TransferWriteOp o) -> LogicalResult {
        if (o.getMask())
          return cannotDistribute(o, "masked transfers are not supported");
        if (!isa<MemRefType>(o.getBase().getType()))
          return cannotDistribute(o, "the body must be in memref form");
        return distributeWrite(o, o.getVector(), o.getBase(), o.getIndices(),
                               o.getVectorType(), o.getPermutationMap(),
                               o.getInBoundsValues());
      })
      .Case([&](vector::LoadOp o) {
        auto memrefType = o.getMemRefType();
        AffineMap map = AffineMap::getMinorIdentityMap(
            memrefType.getRank(), o.getVectorType().getRank(), b.getContext());
        SmallVector<bool> inBounds(o.getVectorType().getRank(), true);
        return distributeRead(o, o.getBase(), o.getIndices(), o.getVectorType(),
                              map, inBounds, Value());
      })
      .Case([&](vector::StoreOp o) {
        auto memrefType = o.getMemRefType();
        AffineMap map = AffineMap::getMinorIdentityMap(
            memrefType.getRank(), o.getVectorType().getRank(), b.getContext());
        SmallVector<bool> inBounds(o.getVectorType().getRank(), true);
        return distributeWrite(o, o.getValueToStore(), o.getBase(),
                               o.getIndices(), o.getVectorType(), map,
                               inBounds);
      })
      .Case([&](scf::ForOp o) { return distributeFor(o); })
      .Case([&](scf::IfOp o) { return distributeIf(o); })
      .Case([&](scf::WhileOp o) { return distributeWhile(o); })
      .Case([&](scf::IndexSwitchOp o) { return distributeSwitch(o); })
      .Case([&](scf::ParallelOp o) { return distributeParallel(o); })
      .Case([&](SemaphoreSignalOp o) { return distributeSignal(o); })
      .Case([&](SemaphoreWaitOp o) { return distributeWait(o); })
      .Case<CopyGmemToSmemOp, CopySmemToGmemOp, CommitSmemOp, WaitSmemToGmemOp,
            BarrierArriveOp, BarrierWaitOp, WgmmaWaitOp, SetMaxRegistersOp>(
          [&](Operation *o) { return distributePrimitive(o); })
      .Case<memref::AllocOp, memref::AllocaOp>([&](Operation *o) {
        return cannotDistribute(
            o, "a kernel body cannot allocate memory on the GPU (each lane "
               "would get its own buffer); use a scratch operand");
      })
      .Default([&](Operation *o) -> LogicalResult {
        if (hasVectorType(o))
          return cannotDistribute(
              o, "no distribution of this vector op over the 128 lanes of a "
                 "warpgroup");
        if (o->getNumRegions())
          return cannotDistribute(
              o, "only scf.for, scf.while, scf.if, scf.index_switch and "
                 "scf.parallel may hold regions in a kernel body");
        if (isMemoryEffectFree(o)) {
          b.clone(*o, map);
          return success();
        }
        auto effects = dyn_cast<MemoryEffectOpInterface>(o);
        if (effects && effects.onlyHasEffect<MemoryEffects::Read>()) {
          beforeRead(o->getLoc());
          b.clone(*o, map);
          hazards.read = true;
          return success();
        }
        return distributeSideEffect(o);
      });
}

//===----------------------------------------------------------------------===//
// Layout-preserving ops
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeElementwise(Operation *op) {
  SmallVector<Value> operands = llvm::map_to_vector(
      op->getOperands(), [&](Value v) { return lookup(v); });
  SmallVector<Type> types;
  for (Type t : op->getResultTypes())
    types.push_back(isa<VectorType>(t) ? Type(getLaneType(cast<VectorType>(t)))
                                       : t);
  OperationState state(op->getLoc(), op->getName().getIdentifier(), operands,
                       types, op->getAttrs());
  Operation *lane = b.create(state);
  map.map(op->getResults(), lane->getResults());
  return success();
}

LogicalResult Distributor::distributeConstant(arith::ConstantOp op) {
  auto type = dyn_cast<VectorType>(op.getType());
  if (!type) {
    b.clone(*op, map);
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return cannotDistribute(op, "only dense vector constants are supported");
  if (!dense.isSplat()) {
    auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
    return distributeFromValues(
        op, arith::ConstantOp::create(b, op.getLoc(), dense.reshape(flat)));
  }
  VectorType laneType = getLaneType(type);
  Value lane = arith::ConstantOp::create(
      b, op.getLoc(),
      DenseElementsAttr::get(laneType, dense.getSplatValue<Attribute>()));
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeShapeCast(vector::ShapeCastOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType(),
             result = op.getResultVectorType();
  if (Layout(source).v == Layout(result).v) {
    map.map(op.getResult(), lookup(op.getSource()));
    return success();
  }
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  map.map(op.getResult(), unstage(loc, buffer, result));
  hazards.scratch = true;
  return success();
}

/// A vector every lane knows whole (a constant, uniform elements), given
/// flat as `whole`: each lane picks its own elements.
LogicalResult Distributor::distributeFromValues(Operation *op, Value whole) {
  auto type = cast<VectorType>(op->getResult(0).getType());
  map.map(op->getResult(0),
          buildPerElement(op->getLoc(), type, [&](ArrayRef<Value>, Value flat) {
            return vector::ExtractOp::create(b, op->getLoc(), whole,
                                             ArrayRef<OpFoldResult>{flat});
          }));
  return success();
}

//===----------------------------------------------------------------------===//
// Ops that move elements between lanes
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeBroadcast(vector::BroadcastOp op) {
  Location loc = op.getLoc();
  VectorType result = op.getResultVectorType();
  auto source = dyn_cast<VectorType>(op.getSourceType());
  if (!source) {
    map.map(op.getResult(),
            vector::BroadcastOp::create(b, loc, getLaneType(result),
                                        lookup(op.getSource())));
    return success();
  }
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  int64_t rankDiff = result.getRank() - source.getRank();
  Value lane = buildPerElement(loc, result, [&](ArrayRef<Value> multi, Value) {
    SmallVector<Value> sourceIndex;
    for (int64_t d = 0; d < source.getRank(); ++d)
      sourceIndex.push_back(source.getDimSize(d) == 1 ? index(loc, 0)
                                                      : multi[rankDiff + d]);
    return loadStaged(loc, buffer,
                      linearize(loc, sourceIndex, source.getShape()),
                      source.getElementType());
  });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeTranspose(vector::TransposeOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType();
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getVector()), source);
  barrier(loc);
  ArrayRef<int64_t> perm = op.getPermutation();
  Value lane = buildPerElement(
      loc, op.getResultVectorType(), [&](ArrayRef<Value> multi, Value) {
        SmallVector<Value> sourceIndex(perm.size());
        for (auto [i, p] : llvm::enumerate(perm))
          sourceIndex[p] = multi[i];
        return loadStaged(loc, buffer,
                          linearize(loc, sourceIndex, source.getShape()),
                          source.getElementType());
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeExtract(vector::ExtractOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType();
  SmallVector<Value> position;
  for (OpFoldResult ofr : op.getMixedPosition()) {
    if (auto attr = dyn_cast<Attribute>(ofr))
      position.push_back(index(loc, cast<IntegerAttr>(attr).getInt()));
    else
      position.push_back(lookup(cast<Value>(ofr)));
  }
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  auto resultVector = dyn_cast<VectorType>(op.getType());
  if (!resultVector || resultVector.getRank() == 0) {
    SmallVector<Value> full = position;
    while (full.size() < static_cast<size_t>(source.getRank()))
      full.push_back(index(loc, 0));
    Value scalar =
        loadStaged(loc, buffer, linearize(loc, full, source.getShape()),
                   source.getElementType());
    if (resultVector)
      scalar = vector::BroadcastOp::create(b, loc, getLaneType(resultVector),
                                           scalar);
    map.map(op.getResult(), scalar);
    return success();
  }
  Value lane =
      buildPerElement(loc, resultVector, [&](ArrayRef<Value> multi, Value) {
        SmallVector<Value> full = position;
        full.append(multi.begin(), multi.end());
        return loadStaged(loc, buffer, linearize(loc, full, source.getShape()),
                          source.getElementType());
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeInsert(vector::InsertOp op) {
  Location loc = op.getLoc();
  VectorType dest = op.getDestVectorType();
  SmallVector<Value> position;
  for (OpFoldResult ofr : op.getMixedPosition()) {
    if (auto attr = dyn_cast<Attribute>(ofr))
      position.push_back(index(loc, cast<IntegerAttr>(attr).getInt()));
    else
      position.push_back(lookup(cast<Value>(ofr)));
  }
  beginExchange(loc);
  Value destBuffer = stage(loc, lookup(op.getDest()), dest);
  auto sourceVector = dyn_cast<VectorType>(op.getValueToStoreType());
  Value sourceBuffer;
  if (sourceVector)
    sourceBuffer = stage(loc, lookup(op.getValueToStore()), sourceVector);
  barrier(loc);
  Value lane =
      buildPerElement(loc, dest, [&](ArrayRef<Value> multi, Value flat) {
        Value old = loadStaged(loc, destBuffer, flat, dest.getElementType());
        Value hit = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (auto [i, p] : llvm::enumerate(position))
          hit = arith::AndIOp::create(
              b, loc, hit,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, multi[i],
                                    p));
        Value fresh;
        if (sourceVector)
          fresh = loadStaged(loc, sourceBuffer,
                             linearize(loc, multi.drop_front(position.size()),
                                       sourceVector.getShape()),
                             dest.getElementType());
        else
          fresh = lookup(op.getValueToStore());
        return arith::SelectOp::create(b, loc, hit, fresh, old);
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult
Distributor::distributeExtractSlice(vector::ExtractStridedSliceOp op) {
  Location loc = op.getLoc();
  VectorType source = op.getSourceVectorType();
  SmallVector<int64_t> offsets, strides;
  for (Attribute a : op.getOffsets())
    offsets.push_back(cast<IntegerAttr>(a).getInt());
  for (Attribute a : op.getStrides())
    strides.push_back(cast<IntegerAttr>(a).getInt());
  beginExchange(loc);
  Value buffer = stage(loc, lookup(op.getSource()), source);
  barrier(loc);
  Value lane =
      buildPerElement(loc, op.getType(), [&](ArrayRef<Value> multi, Value) {
        // Sliced dimensions: offset + i * stride; the others whole.
        SmallVector<Value> at(multi.begin(), multi.end());
        for (auto [d, offset] : llvm::enumerate(offsets))
          at[d] = arith::AddIOp::create(
              b, loc, index(loc, offset),
              arith::MulIOp::create(b, loc, multi[d], index(loc, strides[d])));
        return loadStaged(loc, buffer, linearize(loc, at, source.getShape()),
                          source.getElementType());
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult
Distributor::distributeInsertSlice(vector::InsertStridedSliceOp op) {
  Location loc = op.getLoc();
  VectorType dest = op.getDestVectorType(), source = op.getSourceVectorType();
  SmallVector<int64_t> offsets;
  for (Attribute a : op.getOffsets())
    offsets.push_back(cast<IntegerAttr>(a).getInt());
  if (llvm::any_of(op.getStrides(), [](Attribute a) {
        return cast<IntegerAttr>(a).getInt() != 1;
      }))
    return cannotDistribute(op, "only unit strides are supported");
  beginExchange(loc);
  Value destBuffer = stage(loc, lookup(op.getDest()), dest);
  Value sourceBuffer = stage(loc, lookup(op.getValueToStore()), source);
  barrier(loc);
  int64_t lead = dest.getRank() - source.getRank();
  Value lane =
      buildPerElement(loc, dest, [&](ArrayRef<Value> multi, Value flat) {
        // Inside the slice when every dimension is in [offset, offset +
        // size); the leading dimensions the source lacks have size 1.
        Value hit = arith::ConstantIntOp::create(b, loc, 1, 1);
        SmallVector<Value> at;
        for (int64_t d = 0; d < dest.getRank(); ++d) {
          int64_t size = d < lead ? 1 : source.getDimSize(d - lead);
          Value rel =
              arith::SubIOp::create(b, loc, multi[d], index(loc, offsets[d]));
          // Unsigned: below the offset wraps to a huge value.
          hit = arith::AndIOp::create(
              b, loc, hit,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rel,
                                    index(loc, size)));
          if (d >= lead)
            at.push_back(
                arith::MinUIOp::create(b, loc, rel, index(loc, size - 1)));
        }
        Value old = loadStaged(loc, destBuffer, flat, dest.getElementType());
        Value fresh =
            loadStaged(loc, sourceBuffer, linearize(loc, at, source.getShape()),
                       source.getElementType());
        return arith::SelectOp::create(b, loc, hit, fresh, old);
      });
  map.map(op.getResult(), lane);
  return success();
}

LogicalResult Distributor::distributeContract(vector::ContractionOp op) {
  Location loc = op.getLoc();
  auto accType = dyn_cast<VectorType>(op.getAccType());
  if (!accType)
    return cannotDistribute(op, "a contraction to a scalar is not supported; "
                                "use vector.reduction");
  VectorType lhsType = op.getLhsType(), rhsType = op.getRhsType();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numDims = maps[0].getNumDims();

  // Size of every iteration dimension, from the operand that indexes it.
  SmallVector<int64_t> dimSizes(numDims, 1);
  auto record = [&](AffineMap m, ArrayRef<int64_t> shape) {
    for (auto [i, expr] : llvm::enumerate(m.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        dimSizes[dim.getPosition()] = shape[i];
  };
  record(maps[0], lhsType.getShape());
  record(maps[1], rhsType.getShape());
  record(maps[2], accType.getShape());
  SmallVector<unsigned> reductionDims;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == vector::IteratorType::reduction)
      reductionDims.push_back(d);

  beginExchange(loc);
  Value lhsBuffer = stage(loc, lookup(op.getLhs()), lhsType);
  Value rhsBuffer = stage(loc, lookup(op.getRhs()), rhsType);
  Value accBuffer = stage(loc, lookup(op.getAcc()), accType);
  barrier(loc);

  Type accElement = accType.getElementType();
  auto promote = [&](Value v) -> Value {
    if (v.getType() == accElement)
      return v;
    if (isa<FloatType>(accElement))
      return arith::ExtFOp::create(b, loc, accElement, v);
    return arith::ExtSIOp::create(b, loc, accElement, v);
  };
  auto operandIndex = [&](AffineMap m, ArrayRef<Value> dims) {
    SmallVector<Value> indices;
    for (AffineExpr expr : m.getResults())
      indices.push_back(dims[cast<AffineDimExpr>(expr).getPosition()]);
    return indices;
  };
  for (AffineMap m : maps)
    if (!m.isProjectedPermutation())
      return cannotDistribute(op, "indexing maps must be projected "
                                  "permutations");

  Value lane = buildPerElement(
      loc, accType, [&](ArrayRef<Value> multi, Value flat) -> Value {
        SmallVector<Value> dims(numDims, index(loc, 0));
        for (auto [i, expr] : llvm::enumerate(maps[2].getResults()))
          dims[cast<AffineDimExpr>(expr).getPosition()] = multi[i];
        Value acc = loadStaged(loc, accBuffer, flat, accElement);
        // One loop per reduction dimension, innermost last.
        std::function<Value(unsigned, Value)> loop = [&](unsigned r,
                                                         Value acc) -> Value {
          if (r == reductionDims.size()) {
            Value l = loadStaged(
                loc, lhsBuffer,
                linearize(loc, operandIndex(maps[0], dims), lhsType.getShape()),
                lhsType.getElementType());
            Value rr = loadStaged(
                loc, rhsBuffer,
                linearize(loc, operandIndex(maps[1], dims), rhsType.getShape()),
                rhsType.getElementType());
            l = promote(l);
            rr = promote(rr);
            Value product = isa<FloatType>(accElement)
                                ? Value(arith::MulFOp::create(b, loc, l, rr))
                                : Value(arith::MulIOp::create(b, loc, l, rr));
            return vector::makeArithReduction(b, loc, op.getKind(), product,
                                              acc);
          }
          auto forOp = scf::ForOp::create(
              b, loc, index(loc, 0), index(loc, dimSizes[reductionDims[r]]),
              index(loc, 1), ValueRange{acc});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(forOp.getBody());
          dims[reductionDims[r]] = forOp.getInductionVar();
          Value next = loop(r + 1, forOp.getRegionIterArgs()[0]);
          scf::YieldOp::create(b, loc, next);
          return forOp.getResult(0);
        };
        return loop(0, acc);
      });
  map.map(op.getResult(), lane);
  return success();
}

/// wgmma with ordinary instructions: a loop over k in which each lane
/// updates the result elements it owns from a and b in shared memory (a in
/// registers is staged there first), so the accumulator keeps its layout
/// and only one lane vector is live. The tensor-core lowering is a separate
/// path.
LogicalResult Distributor::distributeWgmma(WgmmaOp op) {
  if (ctx.tensorCores && canRunOnTensorCores(op))
    return distributeWgmmaOnTensorCores(op);
  if (op.getATransformsAttr() || op.getBTransformsAttr())
    return cannotDistribute(op, "a tiled, swizzled operand is read only by "
                                "the tensor cores (tensor-cores=1, f16 or "
                                "bf16 into an f32 accumulator of at most "
                                "32 KiB)");
  Location loc = op.getLoc();
  auto accType = cast<VectorType>(op.getAcc().getType());
  Value a = lookup(op.getA()), bMatrix = lookup(op.getB());
  auto aVector = dyn_cast<VectorType>(op.getA().getType());
  int64_t k = cast<ShapedType>(op.getB().getType()).getDimSize(0);
  Value aStaged;
  if (aVector) {
    beginExchange(loc);
    aStaged = stage(loc, a, aVector);
    barrier(loc);
  } else {
    beforeRead(loc);
  }
  Value start = buildWgmmaStart(b, loc, lookup(op.getAcc()));
  auto steps = scf::ForOp::create(b, loc, index(loc, 0), index(loc, k),
                                  index(loc, 1), ValueRange{start});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value kk = steps.getInductionVar();
    Value sum = updatePerElement(
        loc, accType.clone(b.getF32Type()), steps.getRegionIterArgs()[0],
        [&](ArrayRef<Value> multi, Value old) -> Value {
          Value x;
          if (aStaged) {
            Value flat = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, multi[0], index(loc, k)),
                kk);
            x = loadStaged(loc, aStaged, flat, aVector.getElementType());
          } else {
            x = memref::LoadOp::create(b, loc, a, ValueRange{multi[0], kk});
          }
          Value y =
              memref::LoadOp::create(b, loc, bMatrix, ValueRange{kk, multi[1]});
          return buildWgmmaAccumulate(b, loc, old, x, y);
        });
    scf::YieldOp::create(b, loc, sum);
  }
  hazards.read = true;
  map.map(op.getResult(),
          buildWgmmaFinish(b, loc, steps.getResult(0), getLaneType(accType)));
  return success();
}

/// wgmma on the tensor cores. The lanes copy a and b (transposed) into the
/// warpgroup scratch in the core-matrix layout wgmma reads, hand the
/// accumulator over from the lane layout to the WGMMA fragment layout
/// through the scratch, run the MMAs of each 64-row tile (fenced, committed
/// and waited for: the op is synchronous for now), and hand the fragments
/// back the same way.
LogicalResult Distributor::distributeWgmmaOnTensorCores(WgmmaOp op) {
  Location loc = op.getLoc();
  MLIRContext *context = b.getContext();
  auto accType = cast<VectorType>(op.getAcc().getType());
  auto aType = cast<ShapedType>(op.getA().getType());
  Value a = lookup(op.getA()), bMatrix = lookup(op.getB());
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
          k = aType.getDimSize(1);
  Type input = op.getInputType(), f32 = b.getF32Type();
  auto fragmentType =
      LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(n / 2, f32));
  Value lanes = index(loc, kWarpgroupLanes);

  // The accumulator as one fragment (an LLVM struct) per 64-row tile.
  Value accFragments = lookupFragments(op.getAcc());
  SmallVector<Value> fragments;
  for (int64_t tile = 0; tile < m / 64; ++tile) {
    Value fragment = LLVM::PoisonOp::create(b, loc, fragmentType);
    for (int64_t reg = 0; reg < n / 2; ++reg)
      fragment = LLVM::InsertValueOp::create(
          b, loc, fragment,
          vector::ExtractOp::create(b, loc, accFragments, tile * (n / 2) + reg),
          reg);
    fragments.push_back(fragment);
  }

  // Operands in a tiled, swizzled buffer are read in place. The others are
  // copied into the scratch in the core-matrix layout: a K-major and b
  // N-major, b first so that the next wgmma of the block can keep it.
  ArrayAttr aTransforms = op.getATransformsAttr(),
            bTransforms = op.getBTransformsAttr();
  bool copies = !aTransforms || (!bTransforms && !reusesB(op));
  Value aTiles, bTiles;
  if (!aTransforms || !bTransforms) {
    beforeRead(loc);
    beginExchange(loc);
  }
  if (!bTransforms)
    bTiles = ctx.scratch->allocate(b, loc, input, n * k);
  if (!aTransforms)
    aTiles = ctx.scratch->allocate(b, loc, input, m * k);
  auto chunk = VectorType::get({8}, input);
  // Copies the 16-byte rows of core matrices of a rows x cols matrix whose
  // core rows run along its columns: unit (r, c) is the 8 elements from
  // column 8c of row r. Lanes take consecutive c with rows permuted within
  // each group of 8 (r = r0 with its low bits plus c), so that the 8 lanes of
  // a quarter warp read 8 different 16-byte columns and write 8 different
  // rows of core matrices: neither side has bank conflicts.
  auto copyRows = [&](Value from, int64_t rows, int64_t cols,
                      function_ref<Value(Value r, Value c)> offset, Value to) {
    int64_t chunks = cols / 8;
    auto loop =
        scf::ForOp::create(b, loc, ctx.lane, index(loc, rows * chunks), lanes);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value unit = loop.getInductionVar();
    Value c = arith::RemUIOp::create(b, loc, unit, index(loc, chunks));
    Value r0 = arith::DivUIOp::create(b, loc, unit, index(loc, chunks));
    Value r = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, r0, index(loc, ~int64_t(7))),
        arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, r0, c),
                              index(loc, 7)));
    Value col = arith::MulIOp::create(b, loc, c, index(loc, 8));
    Value v;
    auto fromType = cast<MemRefType>(from.getType());
    if (fromType.getRank() == 1) {
      // A row-major staging buffer.
      Value flat = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, r, index(loc, cols)), col);
      v = vector::LoadOp::create(b, loc, chunk, from, ValueRange{flat});
    } else if (fromType.isLastDimUnitStride()) {
      v = vector::LoadOp::create(b, loc, chunk, from, ValueRange{r, col});
    } else {
      SmallVector<Value> elements;
      for (int64_t e = 0; e < 8; ++e)
        elements.push_back(memref::LoadOp::create(
            b, loc, from,
            ValueRange{r, arith::AddIOp::create(b, loc, col, index(loc, e))}));
      v = vector::FromElementsOp::create(b, loc, chunk, elements);
    }
    Value element =
        arith::DivUIOp::create(b, loc, offset(r, col), index(loc, 2));
    vector::StoreOp::create(b, loc, v, to, ValueRange{element});
  };
  if (auto aVector = dyn_cast<VectorType>(aType)) {
    // a in registers: staged row-major, then copied like a block.
    a = stage(loc, a, aVector);
    hazards.scratch = true;
    barrier(loc);
  }
  if (!aTransforms)
    copyRows(
        a, m, k,
        [&](Value r, Value c) {
          return buildCoreMatrixOffset(b, loc, r, c, k);
        },
        aTiles);
  // b is copied N-major, unless it is a transposed view of a K-major matrix
  // (q k^T), which is copied K-major from that matrix.
  auto transposed = op.getB().getDefiningOp<memref::TransposeOp>();
  bool bMnMajor = !transposed || transposed.getPermutation() !=
                                     AffineMap::getPermutationMap(
                                         ArrayRef<unsigned>{1, 0}, context);
  if (!bTransforms && !reusesB(op)) {
    if (bMnMajor)
      copyRows(
          bMatrix, k, n,
          [&](Value r, Value c) {
            return buildCoreMatrixOffset(b, loc, c, r, k, /*mnMajor=*/true);
          },
          bTiles);
    else
      copyRows(
          lookup(transposed.getIn()), n, k,
          [&](Value r, Value c) {
            return buildCoreMatrixOffset(b, loc, r, c, k);
          },
          bTiles);
  }
  lastTensorCoreB = {op, bTransforms ? Value() : op.getB()};
  if (copies) {
    // The tensor cores read shared memory through the async proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
    hazards.scratch = true;
    barrier(loc);
  }

  auto address = [&](Value buffer) -> Value {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), base);
  };
  MmaOperand bOperand =
      bTransforms ? tiledOperand(op, bMatrix, bTransforms, /*isA=*/false)
                  : getCoreMatrixOperand(b, loc, address(bTiles), k, bMnMajor);
  bool bf16 = isa<BFloat16Type>(input);
  Value result = zeroVector(loc, getLaneType(accType));
  for (auto [tile, fragment] : llvm::enumerate(fragments)) {
    MmaOperand aOperand;
    if (aTransforms) {
      // The rows of 64-row tile `tile`: a view of the same buffer.
      auto rows = memref::SubViewOp::create(
          b, loc, a, ArrayRef<int64_t>{int64_t(tile) * 64, 0},
          ArrayRef<int64_t>{64, k}, ArrayRef<int64_t>{1, 1});
      aOperand = tiledOperand(op, rows, aTransforms, /*isA=*/true);
    } else {
      Value tileAddress = arith::AddIOp::create(
          b, loc, address(aTiles),
          arith::ConstantIntOp::create(b, loc, tile * 64 * k * 2, 64));
      aOperand = getCoreMatrixOperand(b, loc, tileAddress, k, false);
    }
    fragment = buildTensorCoreMma(b, loc, fragment, aOperand, bOperand, n, k,
                                  bf16, /*async=*/!copies);
    for (int64_t reg = 0; reg < n / 2; ++reg)
      result = vector::InsertOp::create(
          b, loc, LLVM::ExtractValueOp::create(b, loc, fragment, reg), result,
          int64_t(tile) * (n / 2) + reg);
  }
  // The tensor cores read a and b from the scratch: no lane may reuse it
  // before every lane's MMAs are done. MMAs reading in place stay in flight.
  if (copies)
    hazards.scratch = true;
  else
    pendingMmas = true;
  fragmentOf[op.getResult()] = result;
  // Uses that need the ordinary layout share one conversion.
  if (!llvm::all_of(op.getResult().getUses(),
                    [&](OpOperand &use) { return takesFragments(use); }))
    map.map(op.getResult(), fragmentsToLanes(loc, result, accType));
  return success();
}

MmaOperand Distributor::tiledOperand(WgmmaOp op, Value operand,
                                     ArrayAttr transforms, bool isA) {
  Location loc = op.getLoc();
  // The verifier accepted the original operand; a's 64-row views are
  // tile-aligned too (its tiles have a multiple of 64 rows).
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, isA ? "a" : "b", operand.getType(), transforms);
  assert(succeeded(tiled) && "verified tiled operand");
  const SwizzledTiling &tiling = tiled->tiling;
  int64_t tilesPerRow = tiled->width / tiling.cols;
  int64_t origin =
      getSwizzledByteOffset(tiling, tiled->width, tiled->row, tiled->col);
  Value base = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand));
  MmaOperand result;
  result.swizzled = true;
  constexpr int64_t kStep = 16, kAtomBytes = 1024;
  int64_t rowBytes = SwizzledTiling::kSwizzleBytes;
  if (isA) {
    // K-major: rows of 128 bytes, 8-row groups one atom apart; a K step
    // moves the start along the row (the swizzle applies to the address).
    result.leading = 16; // unused with a swizzle; 1 in 16-byte units
    result.stride = kAtomBytes;
    result.address = [this, loc, base, origin, tiling](int64_t step) {
      int64_t col = step * kStep;
      int64_t offset = origin + (col / tiling.cols) * tiling.tileBytes() +
                       (col % tiling.cols) * tiling.elementBytes;
      return Value(arith::AddIOp::create(
          b, loc, base, arith::ConstantIntOp::create(b, loc, offset, 64)));
    };
  } else {
    // N-major: 8 K rows of 128 bytes per atom, atoms along N one tile
    // apart; a K step moves down 16 rows.
    result.mnMajor = true;
    result.leading = tiling.tileBytes();
    result.stride = kAtomBytes;
    result.address = [this, loc, base, origin, tiling, tilesPerRow,
                      rowBytes](int64_t step) {
      int64_t row = step * kStep;
      int64_t offset = origin +
                       (row / tiling.rows) * tilesPerRow * tiling.tileBytes() +
                       (row % tiling.rows) * rowBytes;
      return Value(arith::AddIOp::create(
          b, loc, base, arith::ConstantIntOp::create(b, loc, offset, 64)));
    };
  }
  return result;
}

/// The previous op of the block was a tensor-core wgmma with the same b
/// (nothing ran in between): b is still in the scratch where this wgmma
/// copies it.
bool Distributor::reusesB(WgmmaOp op) const {
  auto previous = dyn_cast_or_null<WgmmaOp>(op->getPrevNode());
  return previous && lastTensorCoreB.first == previous &&
         lastTensorCoreB.second == op.getB() &&
         previous.getB().getType() == op.getB().getType();
}

bool Distributor::takesFragments(OpOperand &use) const {
  Operation *owner = use.getOwner();
  if (auto wgmma = dyn_cast<WgmmaOp>(owner))
    return use.get() == wgmma.getAcc() && ctx.tensorCores &&
           canRunOnTensorCores(wgmma);
  if (auto yield = dyn_cast<scf::YieldOp>(owner))
    if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
      return fragmentIterArgs.contains(
          loop.getRegionIterArgs()[use.getOperandNumber()]);
  return false;
}

/// The accumulator handed over from the lane layout to the fragment layout
/// through the scratch.
Value Distributor::lanesToFragments(Location loc, Value lanes,
                                    VectorType type) {
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  Type f32 = b.getF32Type();
  beginExchange(loc);
  Value buffer = stage(loc, lanes, type);
  barrier(loc);
  Value result = zeroVector(loc, getLaneType(type));
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; ++reg) {
      auto [row, col] = buildFragmentPosition(b, loc, ctx.lane, reg);
      Value flat = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, arith::AddIOp::create(b, loc, row, index(loc, tile * 64)),
              index(loc, n)),
          col);
      result =
          vector::InsertOp::create(b, loc, loadStaged(loc, buffer, flat, f32),
                                   result, tile * (n / 2) + reg);
    }
  return result;
}

/// The way back, also through the scratch.
Value Distributor::fragmentsToLanes(Location loc, Value fragments,
                                    VectorType type) {
  completeMmas(loc);
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  beginExchange(loc);
  Value buffer = ctx.scratch->allocate(b, loc, b.getF32Type(), m * n);
  for (int64_t tile = 0; tile < m / 64; ++tile)
    for (int64_t reg = 0; reg < n / 2; ++reg) {
      auto [row, col] = buildFragmentPosition(b, loc, ctx.lane, reg);
      Value flat = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, arith::AddIOp::create(b, loc, row, index(loc, tile * 64)),
              index(loc, n)),
          col);
      memref::StoreOp::create(
          b, loc,
          vector::ExtractOp::create(b, loc, fragments, tile * (n / 2) + reg),
          buffer, ValueRange{flat});
    }
  hazards.scratch = true;
  barrier(loc);
  Value result = unstage(loc, buffer, type);
  hazards.read = true;
  return result;
}

/// The neutral element of `kind` for `type`.
static Value getIdentity(OpBuilder &b, Location loc, vector::CombiningKind kind,
                         Type type) {
  using K = vector::CombiningKind;
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat value = APFloat::getZero(sem);
    switch (kind) {
    case K::MUL:
      value = APFloat::getOne(sem);
      break;
    case K::MINNUMF:
    case K::MINIMUMF:
      value = APFloat::getInf(sem);
      break;
    case K::MAXNUMF:
    case K::MAXIMUMF:
      value = APFloat::getInf(sem, /*Negative=*/true);
      break;
    default:
      break;
    }
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(width);
  switch (kind) {
  case K::MUL:
    value = APInt(width, 1);
    break;
  case K::AND:
  case K::MINUI:
    value = APInt::getAllOnes(width);
    break;
  case K::MINSI:
    value = APInt::getSignedMaxValue(width);
    break;
  case K::MAXSI:
    value = APInt::getSignedMinValue(width);
    break;
  default:
    break;
  }
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// A warp shuffle (xor) of any scalar up to 64 bits.
static Value shuffleXor(OpBuilder &b, Location loc, Value value,
                        int64_t offset) {
  Type type = value.getType();
  Value offsetValue = arith::ConstantIntOp::create(b, loc, offset, 32);
  Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
  if (type.isF32() || type.isF64() || type.isInteger(32) || type.isInteger(64))
    return gpu::ShuffleOp::create(b, loc, value, offsetValue, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  if (type.isIndex()) {
    Value wide = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
    Value moved = shuffleXor(b, loc, wide, offset);
    return arith::IndexCastOp::create(b, loc, type, moved);
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(type)
                    ? Value(arith::BitcastOp::create(b, loc, intType, value))
                    : value;
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), asInt);
  Value moved = shuffleXor(b, loc, wide, offset);
  Value narrow = arith::TruncIOp::create(b, loc, intType, moved);
  return isa<FloatType>(type)
             ? Value(arith::BitcastOp::create(b, loc, type, narrow))
             : narrow;
}

/// Reductions: each output element is reduced by a group of G lanes (G a
/// power of two, as many as the outputs leave room for): every lane folds
/// a strided part of the reduced elements, the group combines with xor
/// shuffles, across warps through scratch when G > 32.
LogicalResult Distributor::distributeReduction(Operation *op,
                                               vector::CombiningKind kind,
                                               Value source,
                                               ArrayRef<bool> reduced,
                                               Value acc, Type resultType) {
  Location loc = op->getLoc();
  auto sourceType = cast<VectorType>(source.getType());
  Type element = sourceType.getElementType();
  SmallVector<int64_t> keptShape, reducedShape;
  for (auto [d, size] : llvm::enumerate(sourceType.getShape()))
    (reduced[d] ? reducedShape : keptShape).push_back(size);
  int64_t m = 1, k = 1;
  for (int64_t s : keptShape)
    m *= s;
  for (int64_t s : reducedShape)
    k *= s;

  int64_t group = 1;
  if (m < kWarpgroupLanes) {
    group = llvm::bit_floor(static_cast<uint64_t>(kWarpgroupLanes / m));
    group = std::min<int64_t>(group, llvm::bit_ceil(static_cast<uint64_t>(k)));
  }
  int64_t groupsPerWarpgroup = kWarpgroupLanes / group;
  int64_t rounds = llvm::divideCeil(m, groupsPerWarpgroup);

  beginExchange(loc);
  Value sourceBuffer = stage(loc, lookup(source), sourceType);
  auto accVector = acc ? dyn_cast<VectorType>(acc.getType()) : VectorType();
  Value accBuffer;
  if (accVector)
    accBuffer = stage(loc, lookup(acc), accVector);
  Value resultBuffer = ctx.scratch->allocate(b, loc, storageType(element),
                                             std::max<int64_t>(m, 1));
  Value warpBuffer;
  if (group > 32)
    warpBuffer = ctx.scratch->allocate(b, loc, storageType(element),
                                       kWarpgroupLanes / 32);
  barrier(loc);

  Value groupSize = index(loc, group);
  Value j = arith::RemUIOp::create(b, loc, ctx.lane, groupSize);
  Value g = arith::DivUIOp::create(b, loc, ctx.lane, groupSize);
  // Flat source index of output `out` (kept dims) and reduced position `r`.
  auto sourceIndex = [&](Value out, Value r) {
    SmallVector<Value> kept = delinearize(loc, out, keptShape);
    SmallVector<Value> red = delinearize(loc, r, reducedShape);
    SmallVector<Value> full;
    unsigned ki = 0, ri = 0;
    for (bool isReduced : reduced)
      full.push_back(isReduced ? red[ri++] : kept[ki++]);
    return linearize(loc, full, sourceType.getShape());
  };

  auto emitRound = [&](Value out) {
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, out,
                                         index(loc, m));
    Value safeOut = arith::MinUIOp::create(b, loc, out, index(loc, m - 1));
    Value identity = getIdentity(b, loc, kind, element);
    auto fold = scf::ForOp::create(b, loc, j, index(loc, k), groupSize,
                                   ValueRange{identity});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(fold.getBody());
      Value x =
          loadStaged(loc, sourceBuffer,
                     sourceIndex(safeOut, fold.getInductionVar()), element);
      Value next = vector::makeArithReduction(b, loc, kind, x,
                                              fold.getRegionIterArgs()[0]);
      scf::YieldOp::create(b, loc, next);
    }
    Value partial = fold.getResult(0);
    for (int64_t offset = std::min<int64_t>(group, 32) / 2; offset >= 1;
         offset /= 2)
      partial = vector::makeArithReduction(
          b, loc, kind, shuffleXor(b, loc, partial, offset), partial);
    if (group > 32) {
      Value laneInWarp =
          arith::RemUIOp::create(b, loc, ctx.lane, index(loc, 32));
      Value warp = arith::DivUIOp::create(b, loc, ctx.lane, index(loc, 32));
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          laneInWarp, index(loc, 0));
      guarded(loc, first, [&] {
        memref::StoreOp::create(b, loc, toStorage(loc, partial), warpBuffer,
                                warp);
      });
      barrier(loc);
      int64_t warpsPerGroup = group / 32;
      Value base = arith::MulIOp::create(b, loc, g, index(loc, warpsPerGroup));
      partial = loadStaged(loc, warpBuffer, base, element);
      for (int64_t w = 1; w < warpsPerGroup; ++w)
        partial = vector::makeArithReduction(
            b, loc, kind,
            loadStaged(loc, warpBuffer,
                       arith::AddIOp::create(b, loc, base, index(loc, w)),
                       element),
            partial);
    }
    if (accVector)
      partial = vector::makeArithReduction(
          b, loc, kind, loadStaged(loc, accBuffer, safeOut, element), partial);
    else if (acc)
      partial = vector::makeArithReduction(b, loc, kind, lookup(acc), partial);
    Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j,
                                         index(loc, 0));
    guarded(loc, arith::AndIOp::create(b, loc, active, leader), [&] {
      memref::StoreOp::create(b, loc, toStorage(loc, partial), resultBuffer,
                              safeOut);
    });
  };

  if (rounds == 1) {
    emitRound(g);
  } else {
    // One output per lane and round: no shuffles (group == 1).
    auto loop = scf::ForOp::create(b, loc, index(loc, 0), index(loc, rounds),
                                   index(loc, 1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    emitRound(arith::AddIOp::create(
        b, loc, ctx.lane,
        arith::MulIOp::create(b, loc, loop.getInductionVar(),
                              index(loc, kWarpgroupLanes))));
  }
  barrier(loc);
  Value result;
  if (auto resultVector = dyn_cast<VectorType>(resultType))
    result = unstage(loc, resultBuffer, resultVector);
  else
    result = loadStaged(loc, resultBuffer, index(loc, 0), element);
  map.map(op->getResult(0), result);
  hazards.scratch = true;
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeRead(Operation *op, Value memref,
                                          ValueRange indices, VectorType type,
                                          AffineMap permutation,
                                          ArrayRef<bool> inBounds,
                                          Value padding) {
  Location loc = op->getLoc();
  Value base = lookup(memref);
  SmallVector<Value> baseIndices =
      llvm::map_to_vector(indices, [&](Value v) { return lookup(v); });
  bool lanePrivate = isLanePrivate(base);
  if (!lanePrivate)
    beforeRead(loc);
  Layout layout(type);
  Type element = type.getElementType();
  Value lane;
  if (hasFastPath(base, type, permutation, inBounds)) {
    lane = zeroVector(loc, getLaneType(type));
    int64_t rankDiff = permutation.getNumDims() - type.getRank();
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/true);
      SmallVector<Value> multi = delinearize(loc, start, layout.shape);
      SmallVector<Value> at(baseIndices);
      for (int64_t d = 0; d < type.getRank(); ++d)
        at[rankDiff + d] =
            arith::AddIOp::create(b, loc, at[rankDiff + d], multi[d]);
      int64_t align =
          std::min(getKnownAlignment(base, at),
                   layout.v * static_cast<int64_t>(storageBytes(element)));
      Value chunk =
          vector::LoadOp::create(b, loc, VectorType::get({layout.v}, element),
                                 base, at, false, llvm::MaybeAlign(align));
      lane = vector::InsertStridedSliceOp::create(b, loc, chunk, lane,
                                                  slot * layout.v, 1);
    }
  } else {
    Value pad = padding ? lookup(padding) : Value();
    lane = buildPerElement(loc, type, [&](ArrayRef<Value> multi, Value) {
      SmallVector<Value> at =
          transferIndices(loc, baseIndices, permutation, multi);
      Value inside = transferInBounds(loc, base, at, permutation, inBounds);
      if (!inside)
        return Value(memref::LoadOp::create(b, loc, base, at));
      auto ifOp = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &nb, Location l) {
            scf::YieldOp::create(
                nb, l, Value(memref::LoadOp::create(nb, l, base, at)));
          },
          [&](OpBuilder &nb, Location l) {
            Value p = pad;
            if (!p)
              p = arith::ConstantOp::create(
                  nb, l, cast<TypedAttr>(nb.getZeroAttr(element)));
            scf::YieldOp::create(nb, l, p);
          });
      return ifOp.getResult(0);
    });
  }
  hazards.read = hazards.read || !lanePrivate;
  map.map(op->getResult(0), lane);
  return success();
}

LogicalResult Distributor::distributeWrite(Operation *op, Value value,
                                           Value memref, ValueRange indices,
                                           VectorType type,
                                           AffineMap permutation,
                                           ArrayRef<bool> inBounds) {
  Location loc = op->getLoc();
  Value base = lookup(memref);
  Value lane = lookup(value);
  SmallVector<Value> baseIndices =
      llvm::map_to_vector(indices, [&](Value v) { return lookup(v); });
  bool lanePrivate = isLanePrivate(base);
  if (!lanePrivate)
    beforeWrite(loc);
  Layout layout(type);
  Type element = type.getElementType();
  if (hasFastPath(base, type, permutation, inBounds)) {
    int64_t rankDiff = permutation.getNumDims() - type.getRank();
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/false);
      Value valid =
          layout.isFullSlot(slot) ? Value() : chunkValid(loc, layout, start);
      guarded(loc, valid, [&] {
        SmallVector<Value> multi = delinearize(loc, start, layout.shape);
        SmallVector<Value> at(baseIndices);
        for (int64_t d = 0; d < type.getRank(); ++d)
          at[rankDiff + d] =
              arith::AddIOp::create(b, loc, at[rankDiff + d], multi[d]);
        int64_t align =
            std::min(getKnownAlignment(base, at),
                     layout.v * static_cast<int64_t>(storageBytes(element)));
        Value chunk = vector::ExtractStridedSliceOp::create(
            b, loc, lane, slot * layout.v, layout.v, 1);
        vector::StoreOp::create(b, loc, chunk, base, at, false,
                                llvm::MaybeAlign(align));
      });
    }
  } else {
    for (int64_t slot = 0; slot < layout.slots; ++slot) {
      Value start = chunkStart(loc, layout, slot, /*clamp=*/false);
      for (int64_t k = 0; k < layout.v; ++k) {
        Value flat =
            k ? arith::AddIOp::create(b, loc, start, index(loc, k)) : start;
        Value valid =
            layout.isFullSlot(slot) ? Value() : chunkValid(loc, layout, flat);
        guarded(loc, valid, [&] {
          SmallVector<Value> multi = delinearize(loc, flat, layout.shape);
          SmallVector<Value> at =
              transferIndices(loc, baseIndices, permutation, multi);
          Value inside = transferInBounds(loc, base, at, permutation, inBounds);
          guarded(loc, inside, [&] {
            Value x =
                vector::ExtractOp::create(b, loc, lane, slot * layout.v + k);
            memref::StoreOp::create(b, loc, x, base, at);
          });
        });
      }
    }
  }
  hazards.write = hazards.write || !lanePrivate;
  return success();
}

/// A scalar side effect happens once per Pallas thread: on lane 0, with the
/// results broadcast to the other lanes through scratch.
LogicalResult Distributor::distributeSideEffect(Operation *op) {
  Location loc = op->getLoc();
  beforeWrite(loc);
  SmallVector<Value> buffers;
  if (op->getNumResults()) {
    beginExchange(loc);
    for (Type t : op->getResultTypes()) {
      if (!t.isIntOrIndexOrFloat())
        return cannotDistribute(op, "a side effect with a non-scalar result "
                                    "is not supported");
      buffers.push_back(ctx.scratch->allocate(b, loc, storageType(t), 1));
    }
  }
  guarded(loc, isLaneZero(loc), [&] {
    Operation *clone = b.clone(*op, map);
    for (auto [result, buffer] : llvm::zip(clone->getResults(), buffers))
      memref::StoreOp::create(b, loc, toStorage(loc, result), buffer,
                              index(loc, 0));
  });
  hazards.write = true;
  if (!buffers.empty()) {
    barrier(loc);
    for (auto [result, buffer] : llvm::zip(op->getResults(), buffers))
      map.map(result, loadStaged(loc, buffer, index(loc, 0), result.getType()));
    hazards.scratch = true;
  }
  return success();
}

LogicalResult Distributor::distributeSignal(SemaphoreSignalOp op) {
  Location loc = op.getLoc();
  // Everything this Pallas thread wrote is done before the release.
  if (hazards.read || hazards.write)
    barrier(loc);
  Value sem = lookup(op.getSem());
  SmallVector<Value> indices =
      llvm::map_to_vector(op.getIndices(), [&](Value v) { return lookup(v); });
  Value value = lookup(op.getValue());
  guarded(loc, isLaneZero(loc), [&] {
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, value, sem,
                                indices);
  });
  return success();
}

/// The wait happens on lane 0 (a backend spins on the semaphore there);
/// the other lanes wait for lane 0.
LogicalResult Distributor::distributeWait(SemaphoreWaitOp op) {
  Location loc = op.getLoc();
  guarded(loc, isLaneZero(loc), [&] { b.clone(*op, map); });
  barrier(loc);
  return success();
}

/// Kernel-level ops stay whole: every lane runs them, and each backend
/// decides which lanes do the work (one issues a TMA copy, all wait on a
/// barrier). What the lanes must agree on around them is placed here: a
/// copy into shared memory or an arrival comes after every lane's earlier
/// accesses; after a commit or a wait for copies out, every lane knows.
LogicalResult Distributor::distributePrimitive(Operation *op) {
  Location loc = op->getLoc();
  if (isa<CopyGmemToSmemOp>(op))
    beforeWrite(loc);
  else if (isa<BarrierArriveOp>(op) && (hazards.read || hazards.write))
    barrier(loc);
  b.clone(*op, map);
  if (isa<CommitSmemOp, WaitSmemToGmemOp>(op))
    barrier(loc);
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Distributor::distributeFor(scf::ForOp op) {
  Location loc = op.getLoc();
  // An accumulator updated by tensor-core wgmma at every step stays in the
  // fragment layout for the whole loop.
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  for (auto [arg, next] :
       llvm::zip(op.getRegionIterArgs(), yield.getOperands()))
    if (auto wgmma = next.getDefiningOp<WgmmaOp>())
      if (ctx.tensorCores && canRunOnTensorCores(wgmma))
        fragmentIterArgs.insert(arg);
  auto carried = [&](BlockArgument arg, Value v) {
    return fragmentIterArgs.contains(arg) ? lookupFragments(v) : lookup(v);
  };
  SmallVector<Value> inits;
  for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs()))
    inits.push_back(carried(arg, init));
  auto forOp = scf::ForOp::create(b, loc, lookup(op.getLowerBound()),
                                  lookup(op.getUpperBound()),
                                  lookup(op.getStep()), inits);
  OpBuilder::InsertionGuard guard(b);
  Block *body = forOp.getBody();
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    body->back().erase();
  b.setInsertionPointToEnd(body);
  map.map(op.getInductionVar(), forOp.getInductionVar());
  auto mapCarried = [&](ValueRange from, ValueRange to) {
    for (auto [arg, original, value] :
         llvm::zip(op.getRegionIterArgs(), from, to)) {
      if (fragmentIterArgs.contains(arg))
        fragmentOf[original] = value;
      else
        map.map(original, value);
    }
  };
  mapCarried(op.getRegionIterArgs(), forOp.getRegionIterArgs());
  // The previous iteration may have touched anything.
  hazards = Hazards::all();
  if (failed(distributeBlock(*op.getBody())))
    return failure();
  SmallVector<Value> next;
  for (auto [arg, v] : llvm::zip(op.getRegionIterArgs(), yield.getOperands()))
    next.push_back(carried(arg, v));
  scf::YieldOp::create(b, loc, next);
  hazards = Hazards::all();
  mapCarried(op.getResults(), forOp.getResults());
  return success();
}

LogicalResult Distributor::distributeIf(scf::IfOp op) {
  Location loc = op.getLoc();
  SmallVector<Type> types;
  for (Type t : op.getResultTypes())
    types.push_back(isa<VectorType>(t) ? Type(getLaneType(cast<VectorType>(t)))
                                       : t);
  auto ifOp = scf::IfOp::create(b, loc, types, lookup(op.getCondition()),
                                /*withElseRegion=*/true);
  Hazards entry = hazards, exit;
  auto fill = [&](Region &from, Block *to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    if (!to->empty() && isa<scf::YieldOp>(to->back()))
      to->back().erase();
    b.setInsertionPointToEnd(to);
    hazards = entry;
    if (!from.empty()) {
      if (failed(distributeBlock(from.front())))
        return failure();
      auto yield = cast<scf::YieldOp>(from.front().getTerminator());
      scf::YieldOp::create(
          b, loc, llvm::map_to_vector(yield.getOperands(), [&](Value v) {
            return lookup(v);
          }));
    } else {
      scf::YieldOp::create(b, loc);
    }
    exit = exit | hazards;
    return success();
  };
  if (failed(fill(op.getThenRegion(), ifOp.thenBlock())) ||
      failed(fill(op.getElseRegion(), ifOp.elseBlock())))
    return failure();
  hazards = exit;
  map.map(op.getResults(), ifOp.getResults());
  return success();
}

LogicalResult Distributor::distributeRegion(Region &from, Block *to) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(to);
  if (failed(distributeBlock(from.front())))
    return failure();
  Operation *terminator = from.front().getTerminator();
  SmallVector<Value> operands = llvm::map_to_vector(
      terminator->getOperands(), [&](Value v) { return lookup(v); });
  if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
    scf::ConditionOp::create(b, condition.getLoc(), operands.front(),
                             ArrayRef<Value>(operands).drop_front());
  else
    scf::YieldOp::create(b, terminator->getLoc(), operands);
  return success();
}

/// A while loop with a uniform condition: every lane runs the same trips.
LogicalResult Distributor::distributeWhile(scf::WhileOp op) {
  Location loc = op.getLoc();
  auto laneTypes = [&](TypeRange types) {
    return llvm::map_to_vector(types, [&](Type t) -> Type {
      return isa<VectorType>(t) ? getLaneType(cast<VectorType>(t)) : t;
    });
  };
  SmallVector<Value> inits =
      llvm::map_to_vector(op.getInits(), [&](Value v) { return lookup(v); });
  auto whileOp = scf::WhileOp::create(b, loc, laneTypes(op.getResultTypes()),
                                      inits, nullptr, nullptr);
  SmallVector<Type> beforeTypes = laneTypes(op.getBefore().getArgumentTypes());
  SmallVector<Type> afterTypes = laneTypes(op.getAfter().getArgumentTypes());
  // The builder may already have made the blocks (with these arguments).
  auto blockOf = [&](Region &region, ArrayRef<Type> types) {
    if (!region.empty())
      return &region.front();
    return b.createBlock(&region, {}, types,
                         SmallVector<Location>(types.size(), loc));
  };
  Block *before = blockOf(whileOp.getBefore(), beforeTypes);
  Block *after = blockOf(whileOp.getAfter(), afterTypes);
  b.setInsertionPointAfter(whileOp);
  map.map(op.getBefore().getArguments(), before->getArguments());
  map.map(op.getAfter().getArguments(), after->getArguments());
  // Any iteration may have touched anything.
  hazards = Hazards::all();
  if (failed(distributeRegion(op.getBefore(), before)))
    return failure();
  hazards = Hazards::all();
  if (failed(distributeRegion(op.getAfter(), after)))
    return failure();
  hazards = Hazards::all();
  map.map(op.getResults(), whileOp.getResults());
  return success();
}

/// A switch on a uniform index: every lane takes the same case.
LogicalResult Distributor::distributeSwitch(scf::IndexSwitchOp op) {
  Location loc = op.getLoc();
  SmallVector<Type> types;
  for (Type t : op.getResultTypes())
    types.push_back(isa<VectorType>(t) ? Type(getLaneType(cast<VectorType>(t)))
                                       : t);
  auto switchOp = scf::IndexSwitchOp::create(b, loc, types, lookup(op.getArg()),
                                             op.getCases(), op.getNumCases());
  Hazards entry = hazards, exit;
  for (auto [from, to] : llvm::zip(op->getRegions(), switchOp->getRegions())) {
    Block *block = b.createBlock(&to);
    b.setInsertionPointAfter(switchOp);
    hazards = entry;
    if (failed(distributeRegion(from, block)))
      return failure();
    exit = exit | hazards;
  }
  hazards = exit;
  map.map(op.getResults(), switchOp.getResults());
  return success();
}

/// A parallel loop over memrefs (what linalg ops on memrefs become): its
/// iterations are dealt to the lanes round-robin.
LogicalResult Distributor::distributeParallel(scf::ParallelOp op) {
  Location loc = op.getLoc();
  if (op.getNumResults())
    return cannotDistribute(op, "parallel loops with reductions are not "
                                "supported");
  WalkResult vectors = op.getBody()->walk([](Operation *inner) {
    return hasVectorType(inner) ? WalkResult::interrupt()
                                : WalkResult::advance();
  });
  if (vectors.wasInterrupted())
    return cannotDistribute(op, "a parallel loop body must be scalar");
  beforeWrite(loc);
  SmallVector<Value> lbs, steps, trips;
  Value total = index(loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(op.getLowerBound(), op.getUpperBound(), op.getStep())) {
    Value l = lookup(lb), s = lookup(step);
    Value trip = arith::CeilDivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, lookup(ub), l), s);
    lbs.push_back(l);
    steps.push_back(s);
    trips.push_back(trip);
    total = arith::MulIOp::create(b, loc, total, trip);
  }
  auto loop =
      scf::ForOp::create(b, loc, ctx.lane, total, index(loc, kWarpgroupLanes));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value rest = loop.getInductionVar();
  for (int64_t d = static_cast<int64_t>(trips.size()) - 1; d >= 0; --d) {
    Value i = d ? Value(arith::RemUIOp::create(b, loc, rest, trips[d])) : rest;
    if (d)
      rest = arith::DivUIOp::create(b, loc, rest, trips[d]);
    map.map(op.getInductionVars()[d],
            arith::AddIOp::create(b, loc, lbs[d],
                                  arith::MulIOp::create(b, loc, i, steps[d])));
  }
  for (Operation &inner : op.getBody()->without_terminator())
    b.clone(inner, map);
  hazards = Hazards::all();
  hazards.scratch = false;
  return success();
}

} // namespace

LogicalResult
mlir::mgpu::distributeWarpgroupBody(OpBuilder &b, Block &body,
                                    IRMapping &mapping,
                                    const WarpgroupContext &context) {
  // linalg ops on memrefs become parallel loops first.
  SmallVector<linalg::LinalgOp> linalgOps;
  body.walk([&](linalg::LinalgOp op) { linalgOps.push_back(op); });
  IRRewriter rewriter(b.getContext());
  for (linalg::LinalgOp op : linalgOps) {
    if (!op.hasPureBufferSemantics())
      return op->emitOpError()
             << "cannot be lowered to the GPU: linalg ops in a kernel body "
                "must work on memrefs";
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
      return op->emitOpError()
             << "cannot be lowered to the GPU: no loop form for this op";
    rewriter.eraseOp(op);
  }
  Distributor distributor(b, mapping, context);
  return distributor.distributeBlock(body);
}
