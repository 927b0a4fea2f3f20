//===- SchedulingOps.cpp - Persistent kernels over tiles ------------------===//
//
// Verifiers of nd_loop and planar_snake (SPEC section 8,
// docs/SPEC-additions.md), with JAX's words where JAX checks the same rule
// (jax/_src/pallas/mosaic_gpu/helpers.py, nd_loop): a tiling as long as
// the grid, dividing it; collective axes that the kernel's mesh has.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mgpu;

/// The body's arguments and the collective axes of a persistent loop
/// (carried values, which follow the index arguments, are checked apart).
static LogicalResult verifyPersistentLoop(Operation *op, size_t rank,
                                          Block &body, ArrayAttr axes,
                                          size_t carried = 0) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  if (!rank)
    return op->emitOpError() << "expects a grid of at least one dimension";
  if (body.getNumArguments() != rank + 1 + carried ||
      !llvm::all_of(TypeRange(body.getArgumentTypes()).take_front(rank + 1),
                    [](Type type) { return type.isIndex(); })) {
    InFlightDiagnostic diag =
        op->emitOpError()
        << "expects the body to take " << rank + 1
        << " index arguments: one per grid dimension, then the local step";
    if (carried)
      diag << "; then the " << carried << " carried values";
    return diag;
  }
  if (axes.empty())
    return op->emitOpError() << "expects at least one collective axis";
  llvm::SmallSet<StringRef, 4> seen;
  for (StringRef axis : axes.getAsValueRange<StringAttr>())
    if (!seen.insert(axis).second)
      return op->emitOpError()
             << "collective axis '" << axis << "' is listed twice";
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  for (StringRef axis : axes.getAsValueRange<StringAttr>())
    if (!*mesh || !mesh->getAxisSize(axis))
      return emitUnknownAxis(
          op, axis, *mesh ? ArrayRef<MeshAttr>(*mesh) : ArrayRef<MeshAttr>());
  return success();
}

/// A persistent loop's carries (JAX's init_carry): its results, the body's
/// last arguments and the body's yield all have the carried types.
static LogicalResult verifyLoopCarries(Operation *op, TypeRange carried,
                                       Block &body) {
  if (op->getResultTypes() != carried)
    return op->emitOpError()
           << "returns (" << op->getResultTypes()
           << "), but carries values of types (" << carried << ")";
  if (body.getNumArguments() >= carried.size() &&
      TypeRange(body.getArguments().take_back(carried.size())) != carried)
    return op->emitOpError() << "body must end with one argument per carried "
                                "value, of types ("
                             << carried << ")";
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().getTypes() != carried)
    return yield.emitOpError()
           << "yields (" << yield.getValues().getTypes() << "), but its "
           << op->getName().stripDialect() << " carries (" << carried << ")";
  return success();
}

LogicalResult NdLoopOp::verifyRegions() {
  size_t rank = getGrid().size();
  if (failed(verifyLoopCarries(*this, getInitCarry().getTypes(),
                               getBody().front())) ||
      failed(verifyPersistentLoop(*this, rank, getBody().front(),
                                  getCollectiveAxes(), getInitCarry().size())))
    return failure();
  if (std::optional<ArrayRef<int64_t>> tiling = getTiling()) {
    SmallVector<int64_t> grid;
    for (Value size : getGrid())
      grid.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
    if (tiling->size() != rank)
      return emitOpError() << "tiling=" << formatTuple(*tiling)
                           << " and grid=" << formatTuple(grid)
                           << " must have same length.";
    for (auto [size, tile] : llvm::zip(grid, *tiling))
      if (tile <= 0 || (!ShapedType::isDynamic(size) && size % tile))
        return emitOpError()
               << "Tiling " << formatTuple(*tiling) << " does not divide grid "
               << formatTuple(grid) << ".";
  }
  return success();
}

LogicalResult DynamicSchedulingLoopOp::verifyRegions() {
  if (failed(verifyLoopCarries(*this, getInitCarry().getTypes(),
                               getBody().front())) ||
      failed(verifyPersistentLoop(*this, getGrid().size(), getBody().front(),
                                  getCollectiveAxes(), getInitCarry().size())))
    return failure();
  if (isWorkgroupMemRef(getCounter().getType()))
    return emitOpError() << "expects its counter in global memory (a global "
                            "scratch buffer), got "
                         << getCounter().getType();
  return success();
}

LogicalResult PlanarSnakeOp::verify() {
  if (getMinorDim() != 0 && getMinorDim() != 1)
    return emitOpError() << "minor_dim must be 0 or 1, got " << getMinorDim();
  if (getTileWidth() <= 0)
    return emitOpError() << "tile_width must be positive, got "
                         << getTileWidth();
  return success();
}
