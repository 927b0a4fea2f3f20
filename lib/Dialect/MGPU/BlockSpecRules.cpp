//===- BlockSpecRules.cpp - S19, S20 and S35: a block spec and its operand
//-===//
//
// The rules that a block spec of a pallas_call or an emit_pipeline checks
// against the operand it windows (BlockSpecRules.h): the block's rank is
// the array's (JAX's words), the array has elements, a GMEM block is the
// whole array at a trivial index map (JAX's words), the index map takes
// the grid's indices, and a staged block's rows span its swizzle.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/BlockSpecRules.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

using namespace mlir;
using namespace mlir::mgpu;

/// S35: the element type of a staged block agrees with its transforms.
static LogicalResult verifyTransformsForElement(Operation *op, StringRef origin,
                                                BlockSpecAttr spec,
                                                Type element) {
  int64_t swizzle = spec.getSwizzleBytes();
  if (!swizzle)
    return success();
  std::optional<int64_t> rowBytes =
      getBufferBytes({getSwizzledRowElements(spec)}, element);
  if (rowBytes && *rowBytes == swizzle)
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "block of " << origin << " is swizzled by "
                            << swizzle << " bytes, but its rows hold ";
  if (rowBytes)
    diag << *rowBytes << " bytes";
  else
    diag << "elements of " << element;
  diag.attachNote() << "the innermost (tiled) dimension must span exactly the "
                       "swizzle: tile it with #mgpu.tile";
  return diag;
}

LogicalResult mlir::mgpu::verifyBlockSpec(Operation *op, size_t gridRank,
                                          StringRef origin, Type operandType,
                                          Attribute specAttr) {
  auto spec = dyn_cast<BlockSpecAttr>(specAttr);
  if (!spec)
    return op->emitOpError() << "expects " << origin
                             << " to have a #mgpu.block_spec, got " << specAttr;
  ArrayRef<int64_t> arrayShape = cast<ShapedType>(operandType).getShape();
  ArrayRef<int64_t> blockShape = spec.getShape();
  if (blockShape.size() != arrayShape.size())
    return op->emitError() << "Block shape for " << origin
                           << " (= " << formatTuple(blockShape)
                           << ") must have the same number of dimensions as "
                              "the array shape "
                           << formatTuple(arrayShape) << ".";
  // A block of an empty array would have an empty dimension, which no block
  // spec (and no TMA box) describes.
  if (llvm::is_contained(arrayShape, 0))
    return op->emitOpError()
           << "expects " << origin << " to have elements, got shape "
           << formatTuple(arrayShape);
  AffineMap map = spec.getIndexMap().getValue();
  if (map.getNumDims() != gridRank) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "index_map of " << origin << " takes "
                              << map.getNumDims()
                              << " grid indices, but the grid has rank "
                              << gridRank;
    diag.attachNote() << "an index map takes one dimension per grid axis";
    return diag;
  }
  if (spec.isStaged())
    return verifyTransformsForElement(
        op, origin, spec, cast<ShapedType>(operandType).getElementType());
  bool trivialMap = llvm::all_of(map.getResults(), [](AffineExpr expr) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    return constant && constant.getValue() == 0;
  });
  if (blockShape != arrayShape || !trivialMap) {
    InFlightDiagnostic diag =
        op->emitError() << "Mosaic GPU lowering currently requires blocks in "
                           "GMEM memory space to have same block shape as the "
                           "array shape and a trivial index_map (returning all "
                           "0s).";
    diag.attachNote() << "for " << origin
                      << " use shape = " << formatTuple(arrayShape)
                      << " with an all-zero index map, or memory_space = "
                         "smem to stage a window";
    return diag;
  }
  return success();
}
