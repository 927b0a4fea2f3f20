//===- AssignLayouts.cpp - Lane layouts of the vector values of bodies ----===//
//
// The layout-assignment layer between the kernel form and the GPU
// distribution: every vector value of a kernel body gets a `#mgpu.layout`
// (recorded in `mgpu.out_layouts`), so that the distribution emits each op in
// the layout its value lives in and converts only where layouts meet. The
// rules are forward: producers with a fixed layout (tensor-core wgmma,
// layout_cast, splats) propagate through elementwise ops; a loop-carried
// value is in the fragment layout when what the loop yields for it is, which
// is found by growing the set of such loop results from empty to a fixed
// point (each step can only turn more values to `wgmma`, so it ends).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPULayouts.h"
#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/VectorInterfaces.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUASSIGNLAYOUTS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

class LayoutAssignment {
public:
  void run(Region &body) {
    splitIotas(body);
    SmallVector<Operation *> ops;
    // Post-order: an scf.if after the yields of its branches, and every op
    // after the ops it uses (iteration arguments are read from
    // carriedFragments).
    body.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (!getLayoutValues(op).empty() && !op->hasAttr(kOutLayoutsAttrName))
        ops.push_back(op);
    });
    bool changed = true;
    while (changed) {
      layouts.clear();
      for (Operation *op : ops)
        assign(op);
      changed = growCarried(ops) || readIntoFragments(ops);
    }
    for (Operation *op : ops)
      setAssignedLayouts(
          op, llvm::map_to_vector(getLayoutValues(op),
                                  [&](Value v) { return layoutOf(v); }));
  }

private:
  DenseMap<Value, LayoutKind> layouts;
  /// Results of scf.for (and so their iteration arguments) taken to be in
  /// a fragment layout (wgmma or wgmma_row).
  DenseMap<Value, LayoutKind> carriedFragments;

  static bool isFragment(LayoutKind kind) { return isFragmentLayout(kind); }

  static bool fits(LayoutKind kind, Value v) {
    return succeeded(verifyLayoutFits(kind, cast<VectorType>(v.getType())));
  }

  LayoutKind layoutOf(Value v) const {
    if (auto it = layouts.find(v); it != layouts.end())
      return it->second;
    if (std::optional<LayoutKind> kind = getAssignedLayout(v))
      return *kind;
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (OpResult tied = loop.getTiedLoopResult(arg))
          return carriedFragments.lookup(tied);
    return LayoutKind::strided;
  }

  void assign(Operation *op) {
    for (Value v : getLayoutValues(op))
      layouts[v] = choose(op, v);
  }

  LayoutKind choose(Operation *op, Value v) const {
    if (auto cast = dyn_cast<LayoutCastOp>(op))
      return cast.getLayout().getKind();
    if (auto wgmma = dyn_cast<WgmmaOp>(op))
      return isOnTensorCores(wgmma) ? LayoutKind::wgmma : LayoutKind::strided;
    if (isa<scf::ForOp>(op))
      return carriedFragments.lookup(v);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (!ifOp.elseBlock())
        return LayoutKind::strided;
      unsigned i = cast<OpResult>(v).getResultNumber();
      return combine({layoutOf(ifOp.thenYield().getOperand(i)),
                      layoutOf(ifOp.elseYield().getOperand(i))},
                     v, /*preferFragments=*/false);
    }
    if (auto it = fragmentReads.find(v); it != fragmentReads.end())
      return it->second;
    if (isSplatValue(v))
      return LayoutKind::splat;
    // A reduction along the rows of fragments leaves one value per row.
    if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op))
      if (layoutOf(reduction.getSource()) == LayoutKind::wgmma &&
          reduction.getReductionMask() == ArrayRef<bool>{false, true} &&
          fits(LayoutKind::wgmma_row, v))
        return LayoutKind::wgmma_row;
    // M <-> M x 1 keeps the rows; rows broadcast over the columns of a
    // fragment are a fragment.
    if (auto cast = dyn_cast<vector::ShapeCastOp>(op))
      if (layoutOf(cast.getSource()) == LayoutKind::wgmma_row &&
          fits(LayoutKind::wgmma_row, v))
        return LayoutKind::wgmma_row;
    // Whole tiles and column groups of fragments are fragments.
    if (auto slice = dyn_cast<vector::ExtractStridedSliceOp>(op))
      if (layoutOf(slice.getSource()) == LayoutKind::wgmma &&
          isWgmmaFragmentSlice(slice))
        return LayoutKind::wgmma;
    if (Value rows = getBroadcastRows(op))
      if (layoutOf(rows) == LayoutKind::wgmma_row && fits(LayoutKind::wgmma, v))
        return LayoutKind::wgmma;
    // Columns broadcast over the rows of a fragment are a fragment.
    if (Value cols = getBroadcastColumns(op))
      if (layoutOf(cols) == LayoutKind::wgmma_col && fits(LayoutKind::wgmma, v))
        return LayoutKind::wgmma;
    if ((OpTrait::hasElementwiseMappableTraits(op) || isa<vector::FMAOp>(op)) &&
        !op->getNumRegions()) {
      SmallVector<LayoutKind> kinds;
      for (Value operand : op->getOperands())
        if (isa<VectorType>(operand.getType()))
          kinds.push_back(layoutOf(operand));
      return combine(kinds, v, /*preferFragments=*/true);
    }
    return LayoutKind::strided;
  }

  /// The layout of a value made of values in `kinds` at the same positions
  /// (an elementwise op, the branches of an if). Splats fit any layout. With
  /// one fragment layout and no other, the result is in it. Where a
  /// fragment layout meets the strided one, `preferFragments` takes the
  /// fragments if at least as many operands are in them: those values
  /// usually go on to more fragment ops (the tensor cores, row reductions).
  static LayoutKind combine(ArrayRef<LayoutKind> kinds, Value v,
                            bool preferFragments) {
    std::optional<LayoutKind> fragment;
    int64_t inFragment = 0, strided = 0;
    bool allSplat = true;
    for (LayoutKind kind : kinds) {
      allSplat &= kind == LayoutKind::splat;
      if (isFragment(kind)) {
        if (fragment && *fragment != kind)
          return LayoutKind::strided;
        fragment = kind;
        ++inFragment;
      } else if (kind == LayoutKind::strided) {
        ++strided;
      }
    }
    if (allSplat && !kinds.empty() && isSplatValue(v))
      return LayoutKind::splat;
    if (!fragment || !fits(*fragment, v))
      return LayoutKind::strided;
    if (strided == 0 || (preferFragments && inFragment >= strided))
      return *fragment;
    return LayoutKind::strided;
  }

  /// Values the lanes can make directly in the fragment layout every use
  /// of the value takes: reads, and iotas (each lane computes the positions
  /// it holds). Found after the forward rules; each step only turns more
  /// values to fragments, as growCarried does.
  DenseMap<Value, LayoutKind> fragmentReads;
  bool readIntoFragments(ArrayRef<Operation *> ops) {
    bool changed = false;
    for (Operation *op : ops) {
      auto read = dyn_cast<vector::TransferReadOp>(op);
      if (!(read && canAccessInFragments(read)) && !isa<vector::StepOp>(op))
        continue;
      Value made = op->getResult(0);
      if (fragmentReads.contains(made) || made.use_empty())
        continue;
      std::optional<LayoutKind> kind = wantedFragment(made);
      if (kind && fits(*kind, made)) {
        fragmentReads[made] = *kind;
        changed = true;
      }
    }
    return changed;
  }

  /// The fragment layout every use of `v` takes, if they agree on one. A
  /// conversion of `v` alone (an elementwise op with no other vector
  /// operand: JAX's `astype`, such as int8 widened to bf16 for wgmma's
  /// register a) takes `v` in the layout its own uses want, and a
  /// broadcast of `v` over rows that its uses want in `wgmma` takes it in
  /// `wgmma_col`, so that a read feeding them is made in that layout
  /// rather than converted after it.
  std::optional<LayoutKind> wantedFragment(Value v, int depth = 0) const {
    constexpr int kMaxConversions = 4;
    std::optional<LayoutKind> common;
    for (OpOperand &use : v.getUses()) {
      LayoutKind kind = getUseLayout(use, [&](Value x) { return layoutOf(x); });
      Operation *owner = use.getOwner();
      if (!isFragment(kind) && depth < kMaxConversions &&
          isVectorConversion(owner))
        if (std::optional<LayoutKind> next =
                wantedFragment(owner->getResult(0), depth + 1);
            next && fits(*next, owner->getResult(0)))
          kind = *next;
      // Columns broadcast over the rows of fragments are taken one per
      // column (JAX's Layout.WGMMA.reduce(0)).
      if (!isFragment(kind) && depth < kMaxConversions &&
          getBroadcastColumns(owner) == v)
        if (wantedFragment(owner->getResult(0), depth + 1) ==
                LayoutKind::wgmma &&
            fits(LayoutKind::wgmma, owner->getResult(0)) &&
            fits(LayoutKind::wgmma_col, v))
          kind = LayoutKind::wgmma_col;
      // Rows broadcast over the columns of fragments, and M <-> M x 1 on
      // their way, are taken one per row (JAX's Layout.WGMMA.reduce(1)).
      if (!isFragment(kind) && depth < kMaxConversions &&
          fits(LayoutKind::wgmma_row, v))
        if (Operation *user = getRowsUser(owner, v))
          if (wantedFragment(user->getResult(0), depth + 1) ==
              (isa<vector::ShapeCastOp>(user) ? LayoutKind::wgmma_row
                                              : LayoutKind::wgmma))
            kind = LayoutKind::wgmma_row;
      if (!isFragment(kind) || (common && *common != kind))
        return std::nullopt;
      common = kind;
    }
    return common;
  }

  /// The op that takes `v` (used by `owner`) as rows: a shape cast
  /// M <-> M x 1, or a broadcast of rows (through a transpose).
  static Operation *getRowsUser(Operation *owner, Value v) {
    if (isa<vector::ShapeCastOp>(owner))
      return owner;
    Operation *user = owner;
    if (isa<vector::BroadcastOp>(owner) && owner->hasOneUse() &&
        isa<vector::TransposeOp>(*owner->user_begin()))
      user = *owner->user_begin();
    return getBroadcastRows(user) == v ? user : nullptr;
  }

  /// Whether `v` is an iota: a vector.step, or a conversion of one.
  static bool isIota(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || isa<vector::StepOp>(def))
      return def;
    return isConversion(def) &&
           llvm::any_of(def->getOperands(), [](Value operand) {
             return isa<VectorType>(operand.getType()) && isIota(operand);
           });
  }

  /// A copy of the iota `v` (and of the iota it converts) before `v`.
  static Value cloneIota(Value v) {
    Operation *def = v.getDefiningOp();
    IRMapping map;
    for (Value operand : def->getOperands())
      if (isa<VectorType>(operand.getType()) && isIota(operand))
        map.map(operand, cloneIota(operand));
    OpBuilder b(def);
    return b.clone(*def, map)->getResult(cast<OpResult>(v).getResultNumber());
  }

  /// Gives each use of an iota a copy of its own, so that each is made in
  /// the layout its use takes (JAX builds the rows' and the columns' iotas
  /// of a mask separately; one vector.step may serve both).
  static void splitIotas(Region &body) {
    SmallVector<Value> iotas;
    body.walk([&](Operation *op) {
      if (op->getNumResults() == 1 &&
          isa<VectorType>(op->getResultTypes()[0]) && isIota(op->getResult(0)))
        iotas.push_back(op->getResult(0));
    });
    for (Value iota : iotas) {
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          iota.getUses(), [](OpOperand &use) { return &use; });
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(cloneIota(iota));
    }
  }

  /// An elementwise op of one vector operand besides splats (a type
  /// conversion, or an offset such as JAX's `iota + q_seq_base`).
  static bool isConversion(Operation *op) {
    return OpTrait::hasElementwiseMappableTraits(op) && !op->getNumRegions() &&
           op->getNumResults() == 1 &&
           llvm::count_if(op->getOperands(), [](Value operand) {
             return isa<VectorType>(operand.getType()) &&
                    !isSplatValue(operand);
           }) == 1;
  }

  static bool isVectorConversion(Operation *op) {
    return isConversion(op) && !op->getResult(0).use_empty();
  }

  /// Adds the loop results whose yielded value (or initial value, for a
  /// value passed on unchanged) is now in a fragment layout.
  bool growCarried(ArrayRef<Operation *> ops) {
    bool changed = false;
    for (Operation *op : ops) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop)
        continue;
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (OpResult result : loop->getResults()) {
        if (!isa<VectorType>(result.getType()) ||
            carriedFragments.contains(result))
          continue;
        unsigned i = result.getResultNumber();
        Value yielded = yield.getOperand(i);
        // A value carried through unchanged (attention backward's lse and
        // delta) is its initial value at every step.
        if (yielded == loop.getRegionIterArgs()[i])
          yielded = loop.getInitArgs()[i];
        LayoutKind kind = layoutOf(yielded);
        if (isFragment(kind) && fits(kind, result)) {
          carriedFragments[result] = kind;
          changed = true;
        }
      }
    }
    return changed;
  }
};

struct AssignLayoutsPass
    : public mgpu::impl::MGPUAssignLayoutsBase<AssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (isa<PallasCallOp, MpmdMapOp, LaunchOp>(op))
        for (Region &region : op->getRegions())
          assignLayouts(region);
    });
  }
};

} // namespace

bool mlir::mgpu::canAccessInFragments(Operation *op) {
  auto access = dyn_cast<VectorTransferOpInterface>(op);
  if (!access || access.getMask())
    return false;
  auto memref = dyn_cast<MemRefType>(access.getShapedType());
  VectorType type = access.getVectorType();
  // i1 goes through memory as i8 (the strided path converts it).
  return memref && !memref.getElementType().isInteger(1) &&
         access.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(access.getInBoundsValues(), [](bool b) { return b; }) &&
         memref.isLastDimUnitStride() &&
         llvm::any_of(kFragmentLayouts, [&](LayoutKind kind) {
           return succeeded(verifyLayoutFits(kind, type));
         });
}

LayoutKind mlir::mgpu::getUseLayout(OpOperand &use,
                                    function_ref<LayoutKind(Value)> layoutOf) {
  Operation *owner = use.getOwner();
  auto fragmentOr = [](LayoutKind kind) {
    return isFragmentLayout(kind) ? kind : LayoutKind::strided;
  };
  // The tensor cores take a in registers from fragments too.
  if (auto wgmma = dyn_cast<WgmmaOp>(owner))
    return use.get() == wgmma.getAcc() || (use.get() == wgmma.getA() &&
                                           isa<VectorType>(use.get().getType()))
               ? fragmentOr(layoutOf(wgmma.getResult()))
               : LayoutKind::strided;
  if (auto yield = dyn_cast<scf::YieldOp>(owner)) {
    if (isa<scf::ForOp, scf::IfOp>(yield->getParentOp()))
      return fragmentOr(
          layoutOf(yield->getParentOp()->getResult(use.getOperandNumber())));
    return LayoutKind::strided;
  }
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    if (OpResult result = loop.getTiedLoopResult(&use))
      return fragmentOr(layoutOf(result));
  if (auto cast = dyn_cast<LayoutCastOp>(owner))
    return fragmentOr(cast.getLayout().getKind());
  if (OpTrait::hasElementwiseMappableTraits(owner) || isa<vector::FMAOp>(owner))
    return fragmentOr(layoutOf(owner->getResult(0)));
  if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(owner))
    if (layoutOf(reduction.getResult()) == LayoutKind::wgmma_row)
      return use.get() == reduction.getSource() ? LayoutKind::wgmma
                                                : LayoutKind::wgmma_row;
  if (auto cast = dyn_cast<vector::ShapeCastOp>(owner))
    return layoutOf(cast.getResult()) == LayoutKind::wgmma_row
               ? LayoutKind::wgmma_row
               : LayoutKind::strided;
  if (isa<vector::BroadcastOp, vector::TransposeOp>(owner)) {
    Operation *user = owner;
    // A broadcast before a transpose passes the rows on (it is never made
    // in lanes).
    if (isa<vector::BroadcastOp>(owner) && owner->hasOneUse() &&
        isa<vector::TransposeOp>(*owner->user_begin()))
      user = *owner->user_begin();
    if (getBroadcastRows(user) == use.get() &&
        layoutOf(user->getResult(0)) == LayoutKind::wgmma)
      return LayoutKind::wgmma_row;
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(owner))
    if (getBroadcastColumns(broadcast) == use.get() &&
        layoutOf(broadcast.getResult()) == LayoutKind::wgmma)
      return LayoutKind::wgmma_col;
  // A slice of whole tiles and column groups picks fragment registers.
  if (auto slice = dyn_cast<vector::ExtractStridedSliceOp>(owner))
    if (layoutOf(slice.getResult()) == LayoutKind::wgmma &&
        isWgmmaFragmentSlice(slice))
      return LayoutKind::wgmma;
  // A write stores a value held in fragments from the registers.
  if (auto write = dyn_cast<vector::TransferWriteOp>(owner))
    if (use.get() == write.getVector() && canAccessInFragments(write))
      return fragmentOr(layoutOf(use.get()));
  return LayoutKind::strided;
}

void mlir::mgpu::assignLayouts(Region &body) { LayoutAssignment().run(body); }

/// The accumulator must fit a warpgroup's registers; 8-bit operands are
/// read K-major only (PTX's wgmma).
/// Whether `op`'s a and b are read K-major, as wgmma reads 8-bit inputs: a a
/// plain view (K along its rows), b a transposed view of a buffer of N rows of
/// K (plgpu.transpose_ref).
static bool readsKMajor(WgmmaOp op) {
  auto transposed = op.getB().getDefiningOp<memref::TransposeOp>();
  return isa<MemRefType>(op.getA().getType()) &&
         !op.getA().getDefiningOp<memref::TransposeOp>() && transposed &&
         transposed.getPermutation() ==
             AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                          op.getContext());
}

std::optional<std::string> mlir::mgpu::whyNotOnTensorCores(WgmmaOp op) {
  constexpr int64_t kMaxHandoverBytes = 64 * 1024;
  auto accType = cast<VectorType>(op.getAcc().getType());
  Type input = op.getInputType();
  Type aInput = getElementTypeOrSelf(op.getA().getType());
  bool sixteenBit = isa<Float16Type, BFloat16Type>(input);
  bool eightBit = isa<Float8E4M3FNType, Float8E5M2Type>(input) &&
                  isa<Float8E4M3FNType, Float8E5M2Type>(aInput);
  // f32 inputs are read as tf32 on every backend (WgmmaSemantics), as the
  // tensor cores read them.
  bool tf32 = input.isF32() && aInput.isF32();
  std::string why;
  llvm::raw_string_ostream os(why);
  if (!sixteenBit && !eightBit && !tf32)
    os << "its inputs are " << input
       << "; the tensor-core lowering takes f16, bf16, f8E4M3FN, f8E5M2 and "
          "f32 (as tf32)";
  else if (!sixteenBit && !readsKMajor(op))
    os << "its " << input
       << " inputs are not both K-major shared-memory views: wgmma reads "
          "8-bit and tf32 a and b K-major only (a in shared memory, b a "
          "transposed view, plgpu.transpose_ref)";
  else if (!accType.getElementType().isF32())
    os << "its accumulator is " << accType.getElementType()
       << "; the tensor-core lowering takes f32";
  else if (accType.getNumElements() * 4 > kMaxHandoverBytes)
    os << "its accumulator " << accType << " takes "
       << accType.getNumElements() * 4 << " bytes, over the "
       << kMaxHandoverBytes << " a warpgroup's registers hold";
  else
    return std::nullopt;
  return why;
}

ArrayAttr mlir::mgpu::inferMmaTransforms(MemRefType type) {
  if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 || type.getShape().end()[-2] % 8)
    return nullptr;
  MLIRContext *ctx = type.getContext();
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t rowBytes = type.getShape().back() * elementBytes;
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0)
      return ArrayAttr::get(
          ctx, {TileTransformAttr::get(ctx, {8, swizzle / elementBytes}),
                SwizzleTransformAttr::get(ctx, swizzle)});
  return nullptr;
}

bool mlir::mgpu::canRunOnTensorCores(WgmmaOp op) {
  return !whyNotOnTensorCores(op);
}

bool mlir::mgpu::isOnTensorCores(WgmmaOp op) {
  return op->hasAttr(MGPUDialect::getTensorCoresAttrName());
}
