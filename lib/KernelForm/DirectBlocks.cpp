//===- DirectBlocks.cpp - Blocks read and written in place in GMEM --------===//
//
// A staged block goes GMEM -> SMEM -> registers -> SMEM -> GMEM. When every
// lane only touches its own elements (the body reads and writes whole blocks
// and computes lane by lane, reductions included), shared memory buys
// nothing: each lane can load its part of the block straight from global
// memory into registers and store it back, with all of a block's loads in
// flight before the first use. This pass finds such pallas_calls, before the
// pipelines are expanded, and turns their blocks into `gmem` blocks (the
// whole array) that the body views through a subview at the block's offset,
// so every backend runs the same program.
//
//===----------------------------------------------------------------------===//

#include "mgpu/KernelForm/LayoutAssignment.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUDIRECTBLOCKS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Whether `op` keeps every lane on its own elements: lane-local arithmetic,
/// whole-block accesses, reductions (shuffles, no block exchange), control
/// flow and grid queries. A contraction, a copy, a barrier or an op of
/// another kind may need the block in shared memory.
bool isLaneLocal(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(dialect))
    return true;
  return isa<vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
             vector::StoreOp, vector::BroadcastOp, vector::ReductionOp,
             vector::MultiDimReductionOp, vector::ShapeCastOp, scf::ForOp,
             scf::IfOp, scf::YieldOp, ProgramIdOp, NumProgramsOp, YieldOp>(op);
}

/// Whether block argument `arg` is only the memory of accesses to the
/// whole block (offset 0, the block's shape, unmasked), so that every lane
/// touches the same elements of it in every access and no barrier is
/// needed between them.
bool isOnlyAccessedWhole(BlockArgument arg, ArrayRef<int64_t> shape) {
  // The vector covers the trailing dimensions: the leading ones must be 1.
  auto whole = [&](ValueRange indices, VectorType type) {
    int64_t lead = shape.size() - type.getRank();
    return lead >= 0 && type.getShape() == shape.drop_front(lead) &&
           llvm::all_of(shape.take_front(lead),
                        [](int64_t s) { return s == 1; }) &&
           llvm::all_of(indices, [](Value i) { return isZeroInteger(i); });
  };
  return llvm::all_of(arg.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto read = dyn_cast<vector::TransferReadOp>(user))
      return use.get() == read.getBase() && !read.getMask() &&
             read.getPermutationMap().isMinorIdentity() &&
             whole(read.getIndices(), read.getVectorType());
    if (auto write = dyn_cast<vector::TransferWriteOp>(user))
      return use.get() == write.getBase() && !write.getMask() &&
             write.getPermutationMap().isMinorIdentity() &&
             whole(write.getIndices(), write.getVectorType());
    if (auto load = dyn_cast<vector::LoadOp>(user))
      return use.get() == load.getBase() &&
             whole(load.getIndices(), load.getVectorType());
    if (auto store = dyn_cast<vector::StoreOp>(user))
      return use.get() == store.getBase() &&
             whole(store.getIndices(), store.getVectorType());
    return false;
  });
}

/// The least and greatest value of `expr` over the grid (dimension d from 0
/// to grid[d] - 1), if the grid bounds it and no step overflows.
std::optional<std::pair<int64_t, int64_t>>
rangeOverGrid(AffineExpr expr, ArrayRef<int64_t> grid) {
  using Range = std::pair<int64_t, int64_t>;
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return Range{constant.getValue(), constant.getValue()};
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    int64_t size = grid[dim.getPosition()];
    if (ShapedType::isDynamic(size) || size <= 0)
      return std::nullopt;
    return Range{0, size - 1};
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<Range> lhs = rangeOverGrid(binary.getLHS(), grid);
  std::optional<Range> rhs = rangeOverGrid(binary.getRHS(), grid);
  if (!lhs || !rhs)
    return std::nullopt;
  auto [lo, hi] = *lhs;
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    std::optional<int64_t> low = llvm::checkedAdd(lo, rhs->first);
    std::optional<int64_t> high = llvm::checkedAdd(hi, rhs->second);
    if (!low || !high)
      return std::nullopt;
    return Range{*low, *high};
  }
  case AffineExprKind::Mul: {
    // Affine: one side is a constant.
    int64_t factor = rhs->first;
    if (rhs->first != rhs->second) {
      if (lo != hi)
        return std::nullopt;
      factor = lo;
      std::tie(lo, hi) = *rhs;
    }
    std::optional<int64_t> a = llvm::checkedMul(lo, factor);
    std::optional<int64_t> b = llvm::checkedMul(hi, factor);
    if (!a || !b)
      return std::nullopt;
    return Range{std::min(*a, *b), std::max(*a, *b)};
  }
  default:
    break;
  }
  // floordiv, ceildiv and mod by a positive constant.
  int64_t divisor = rhs->first;
  if (rhs->first != rhs->second || divisor <= 0)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::FloorDiv)
    return Range{llvm::divideFloorSigned(lo, divisor),
                 llvm::divideFloorSigned(hi, divisor)};
  if (expr.getKind() == AffineExprKind::CeilDiv)
    return Range{llvm::divideCeilSigned(lo, divisor),
                 llvm::divideCeilSigned(hi, divisor)};
  if (lo >= 0 && hi < divisor)
    return Range{lo, hi};
  return Range{0, divisor - 1};
}

/// Whether every block that `spec`'s index map names over the grid lies
/// wholly inside an array of `shape` (which the block divides). A block at
/// or past the array's edge is clipped as TMA clips it, which only the
/// staged copies do; a view of the array there would read and write past it.
bool blocksStayInside(BlockSpecAttr spec, ArrayRef<int64_t> shape,
                      ArrayRef<int64_t> grid) {
  AffineMap map = spec.getIndexMap().getAffineMap();
  if (map.getNumDims() != grid.size())
    return false;
  for (auto [expr, extent, block] :
       llvm::zip(map.getResults(), shape, spec.getShape())) {
    std::optional<std::pair<int64_t, int64_t>> range =
        rangeOverGrid(expr, grid);
    if (!range || range->first < 0 || range->second >= extent / block)
      return false;
  }
  return true;
}

/// Whether operand `array` with block spec `spec` can be read in place:
/// a staged block without a shared-memory layout, of a static contiguous
/// array it divides, inside it at every grid point, passed once.
bool canBeDirect(Value array, Attribute specAttr, PallasCallOp op,
                 BlockArgument arg) {
  auto spec = dyn_cast<BlockSpecAttr>(specAttr);
  auto type = dyn_cast<MemRefType>(array.getType());
  if (!spec || !spec.isStaged() || !spec.getTransforms().empty() ||
      spec.hasUnblockedDims() || !type || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      spec.getIndexMap().getAffineMap().getNumSymbols() != 0 ||
      spec.getShape().size() != (size_t)type.getRank())
    return false;
  for (auto [extent, block] : llvm::zip(type.getShape(), spec.getShape()))
    if (ShapedType::isDynamic(block) || block <= 0 || extent % block != 0)
      return false;
  if (!blocksStayInside(spec, type.getShape(), op.getStaticGrid()))
    return false;
  auto operands = llvm::concat<Value>(op.getIns(), op.getOuts());
  if (llvm::count(operands, array) != 1)
    return false;
  return isOnlyAccessedWhole(arg, spec.getShape());
}

/// Makes block `arg` (spec `spec`, array `array`) a view of the array at the
/// block's offset; returns the spec of the whole array in global memory.
Attribute makeDirect(OpBuilder &b, PallasCallOp op, BlockArgument arg,
                     Value array, BlockSpecAttr spec) {
  Location loc = op.getLoc();
  auto type = cast<MemRefType>(array.getType());
  size_t gridRank = op.getStaticGrid().size();
  SmallVector<Value> ids;
  for (size_t d = 0; d < gridRank; ++d)
    ids.push_back(ProgramIdOp::create(b, loc, b.getI64IntegerAttr(d)));
  // Element offset = block index * window.
  AffineMap indexMap = spec.getIndexMap().getAffineMap();
  SmallVector<AffineExpr> scaled;
  for (auto [expr, block] : llvm::zip(indexMap.getResults(), spec.getShape()))
    scaled.push_back(expr * block);
  AffineMap offsetMap =
      AffineMap::get(indexMap.getNumDims(), 0, scaled, b.getContext());
  SmallVector<Value, 8> offsets =
      *affine::expandAffineMap(b, loc, offsetMap, ids);
  SmallVector<OpFoldResult> mixedOffsets(offsets.begin(), offsets.end());
  SmallVector<OpFoldResult> sizes =
      llvm::map_to_vector(spec.getShape(), [&](int64_t s) -> OpFoldResult {
        return b.getIndexAttr(s);
      });
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  arg.setType(type);
  auto view =
      memref::SubViewOp::create(b, loc, arg, mixedOffsets, sizes, strides);
  // Read for the distribution: each lane only touches its own elements.
  view->setAttr(MGPUDialect::getLanePrivateAttrName(), b.getUnitAttr());
  arg.replaceAllUsesExcept(view, view);
  SmallVector<AffineExpr> zeros(type.getRank(),
                                getAffineConstantExpr(0, b.getContext()));
  return BlockSpecAttr::get(
      b.getContext(), type.getShape(),
      AffineMapAttr::get(AffineMap::get(gridRank, 0, zeros, b.getContext())),
      MemorySpace::gmem);
}

void directBlocks(PallasCallOp op) {
  if (op.getExpanded() || op.getNumResults() || op.getMeshAttrOrNull() ||
      op.getScratch())
    return;
  if (CompilerParamsAttr params = op.getParamsAttr())
    if (llvm::is_contained(params.getDimensionSemantics(),
                           DimensionSemantics::sequential))
      return;
  Block &body = op.getBody().front();
  bool laneLocal = true;
  body.walk([&](Operation *inner) {
    if (!isLaneLocal(inner)) {
      laneLocal = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!laneLocal)
    return;
  size_t numIns = op.getIns().size();
  SmallVector<Value> arrays =
      llvm::to_vector(llvm::concat<Value>(op.getIns(), op.getOuts()));
  SmallVector<Attribute> specs(op.getInSpecs().getValue());
  llvm::append_range(specs, op.getOutSpecs().getValue());
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  bool changed = false;
  for (auto [i, array] : llvm::enumerate(arrays)) {
    BlockArgument arg = body.getArgument(i);
    if (!canBeDirect(array, specs[i], op, arg))
      continue;
    specs[i] = makeDirect(b, op, arg, array, cast<BlockSpecAttr>(specs[i]));
    changed = true;
  }
  if (!changed)
    return;
  ArrayRef<Attribute> all(specs);
  op.setInSpecsAttr(b.getArrayAttr(all.take_front(numIns)));
  op.setOutSpecsAttr(b.getArrayAttr(all.drop_front(numIns)));
}

struct DirectBlocksPass
    : public mgpu::impl::MGPUDirectBlocksBase<DirectBlocksPass> {
  void runOnOperation() override {
    getOperation()->walk([](PallasCallOp op) { directBlocks(op); });
  }
};

} // namespace
