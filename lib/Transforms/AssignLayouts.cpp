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
#include "mgpu/Transforms/Passes.h"
#include "mgpu/Transforms/WarpgroupDistribution.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUASSIGNLAYOUTS
#include "mgpu/Transforms/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

class LayoutAssignment {
public:
  LayoutAssignment(bool tensorCores) : tensorCores(tensorCores) {}

  void run(Region &body) {
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
      changed = growCarried(ops);
    }
    for (Operation *op : ops)
      setAssignedLayouts(
          op, llvm::map_to_vector(getLayoutValues(op),
                                  [&](Value v) { return layoutOf(v); }));
  }

private:
  bool tensorCores;
  DenseMap<Value, LayoutKind> layouts;
  /// Results of scf.for (and so their iteration arguments) taken to be in
  /// a fragment layout (wgmma or wgmma_row).
  DenseMap<Value, LayoutKind> carriedFragments;

  static bool isFragment(LayoutKind kind) {
    return kind == LayoutKind::wgmma || kind == LayoutKind::wgmma_row;
  }

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
      return tensorCores && canRunOnTensorCores(wgmma) ? LayoutKind::wgmma
                                                       : LayoutKind::strided;
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
    if (isSplatValue(v))
      return LayoutKind::splat;
    // A reduction along the rows of fragments leaves one value per row.
    if (auto reduction = dyn_cast<vector::MultiDimReductionOp>(op))
      if (layoutOf(reduction.getSource()) == LayoutKind::wgmma &&
          reduction.getReductionMask() == ArrayRef<bool>{false, true} &&
          isa<FloatType>(reduction.getSourceVectorType().getElementType()) &&
          fits(LayoutKind::wgmma_row, v))
        return LayoutKind::wgmma_row;
    // M <-> M x 1 keeps the rows; rows broadcast over the columns of a
    // fragment are a fragment.
    if (auto cast = dyn_cast<vector::ShapeCastOp>(op))
      if (layoutOf(cast.getSource()) == LayoutKind::wgmma_row &&
          fits(LayoutKind::wgmma_row, v))
        return LayoutKind::wgmma_row;
    if (Value rows = getBroadcastRows(op))
      if (layoutOf(rows) == LayoutKind::wgmma_row && fits(LayoutKind::wgmma, v))
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

  /// Adds the loop results whose yielded value is now in a fragment layout.
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
        LayoutKind kind = layoutOf(yield.getOperand(result.getResultNumber()));
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
      if (isa<PallasCallOp, MpmdMapOp>(op))
        for (Region &region : op->getRegions())
          assignLayouts(region, tensorCores);
    });
  }
};

} // namespace

void mlir::mgpu::assignLayouts(Region &body, bool tensorCores) {
  LayoutAssignment(tensorCores).run(body);
}
