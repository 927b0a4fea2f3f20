//===- BlackwellOps.cpp - Tensor memory and tcgen05 MMAs ------------------===//
//
// The `!mgpu.tmem` type (its textual form `!mgpu.tmem<128x128xf32>` and its
// rules), the plan of a kernel's TMEM scratch (TensorMemory.h), and the
// verifiers of the Blackwell ops of SPEC section 8: what one tcgen05 MMA of
// a CTA takes (M = 128, N a multiple of 16 up to 256, K a multiple of 16,
// f16 or bf16 operands read in place from tiled, swizzled shared memory, an
// f32 accumulator in TMEM), and the moves between TMEM and registers. The
// column rules and their messages are JAX's (_alloc_ncols in
// jax/experimental/mosaic/gpu/tcgen05.py).
//
//===----------------------------------------------------------------------===//

#include "MmaShapes.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::mgpu;

//===----------------------------------------------------------------------===//
// The type and the plan
//===----------------------------------------------------------------------===//

Type TmemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(element))
    return {};
  bool collective = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("collective"))
      return {};
    collective = true;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    ArrayRef<int64_t>(shape), element, collective);
}

void TmemType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t size : getShape())
    printer << size << 'x';
  printer << getElementType();
  if (getCollective())
    printer << ", collective";
  printer << '>';
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               bool collective) {
  if (shape.size() != 2 || shape[0] != 128)
    return emitError() << "tensor memory holds 128 rows (its lanes) of "
                          "columns: expects a 128 x N buffer, got "
                       << formatTuple(shape);
  bool packed = elementType.isF16() || elementType.isBF16();
  if (!elementType.isF32() && !packed)
    return emitError() << "tensor memory buffers hold f32 (the "
                          "accumulators of tcgen05 MMAs) or f16 / bf16 (an "
                          "MMA's a, two to a column), got "
                       << elementType;
  if (packed && shape[1] % 2)
    return emitError() << "a tensor memory buffer of " << elementType
                       << " packs two elements to a 32-bit column: expects "
                          "an even number per row, got "
                       << shape[1];
  int64_t columns = packed ? shape[1] / 2 : shape[1];
  if (columns < 1 || columns > kTmemMaxColumns)
    return emitError() << "a tensor memory buffer has 1 to " << kTmemMaxColumns
                       << " columns, got " << columns;
  return success();
}

int64_t mlir::mgpu::getTmemAllocationColumns(int64_t columns) {
  return std::max<int64_t>(32, llvm::PowerOf2Ceil(columns));
}

SmallVector<int64_t> mlir::mgpu::getTmemColumnOffsets(ArrayRef<Type> types,
                                                      int64_t &total) {
  SmallVector<int64_t> offsets;
  total = 0;
  for (Type type : types) {
    offsets.push_back(total);
    if (auto tmem = dyn_cast<TmemType>(type))
      total += tmem.getColumns();
  }
  return offsets;
}

int64_t mlir::mgpu::getTmemHostBytes(ArrayRef<Type> types) {
  int64_t total = 0;
  (void)getTmemColumnOffsets(types, total);
  return total * 128 * 4;
}

LogicalResult mlir::mgpu::verifyTmemScratch(Operation *op,
                                            ArrayRef<Type> types) {
  int64_t total = 0;
  (void)getTmemColumnOffsets(types, total);
  if (!total)
    return success();
  // One allocation serves every buffer, for one CTA or for a pair.
  bool anyCollective = false, anyLocal = false;
  for (Type type : types)
    if (auto tmem = dyn_cast<TmemType>(type))
      (tmem.getCollective() ? anyCollective : anyLocal) = true;
  if (anyCollective && anyLocal)
    return op->emitOpError()
           << "mixes collective and non-collective tensor memory: a kernel's "
              "tensor memory is one allocation, for one CTA "
              "(tcgen05.alloc.cta_group::1) or for a pair of CTAs "
              "(cta_group::2), and PTX gives all tcgen05 instructions of a "
              "kernel the same CTA group";
  int64_t columns = getTmemAllocationColumns(total);
  if (columns > kTmemMaxColumns)
    return op->emitOpError()
           << "After rounding up, got " << columns
           << " columns, exceeding the limit of " << kTmemMaxColumns;
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// An operand read in place: tiled, swizzled, and for `a` 128 rows (for `b`
/// K rows, or all N rows when transposed) in evenly spaced 8-row groups.
static LogicalResult verifyTiledOperand(Tcgen05MmaOp op, StringRef name,
                                        Type type, ArrayAttr transforms,
                                        int64_t span) {
  if (!transforms)
    return op.emitOpError() << "expects " << name
                            << "_transforms: the tensor cores read " << name
                            << " in place, in a tiled, swizzled buffer "
                               "([#mgpu.tile<[R, C]>, #mgpu.swizzle<S>])";
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, name, type, transforms, /*dynamicOffsets=*/true);
  if (failed(tiled))
    return failure();
  if (tiled->transposed)
    span = cast<ShapedType>(type).getDimSize(1);
  if (!getTiledGroupStride(*tiled, span))
    return op.emitOpError()
           << "expects the 8-row groups the MMA reads of " << name
           << " to be evenly spaced: tiles of 8 rows, of a multiple of " << span
           << " rows, or one tile per row of tiles; got tiles of "
           << tiled->tiling.rows << " rows, "
           << tiled->width / tiled->tiling.cols << " per row";
  return success();
}

LogicalResult Tcgen05MmaOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto accType = cast<TmemType>(getAcc().getType());
  // a in tensor memory (JAX's TMEM lhs): one row per TMEM lane, read as
  // it is, so it takes no transforms; checked by its shape as a memref.
  Type aRaw = getA().getType();
  bool aInTmem = isa<TmemType>(aRaw);
  auto aType = aInTmem ? cast<ShapedType>(cast<TmemType>(aRaw).getMemRefType())
                       : cast<ShapedType>(aRaw);
  auto bType = cast<MemRefType>(getB().getType());
  // JAX lets the two 8-bit float types mix (one kind::f8f6f4 MMA).
  auto isF8 = llvm::IsaPred<Float8E4M3FNType, Float8E5M2Type>;
  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  if (aElement != bElement && (isF8(aElement) || isF8(bElement))) {
    if (!isF8(aElement) || !isF8(bElement))
      return emitOpError()
             << "MMA requires A and B to have the same element type, except "
                "that FP8 types (f8E4M3FN and f8E5M2) may be mixed; got: "
             << aElement << " and " << bElement;
  } else if (aElement != bElement) {
    return emitOpError() << "expects a and b of the same element type, got "
                         << aElement << " and " << bElement;
  }
  if (aInTmem && !isa<Float16Type, BFloat16Type>(aType.getElementType()))
    return emitOpError() << "expects a in tensor memory to be f16 or bf16, "
                            "got "
                         << aType.getElementType();
  if (aInTmem && getATransformsAttr())
    return emitOpError() << "reads a from tensor memory, which takes no "
                            "a_transforms";
  if (aInTmem && getCollectiveAxis())
    return emitOpError() << "reads a from tensor memory: not supported with "
                            "collective_axis";
  if ((!aInTmem && !isWorkgroupMemRef(cast<MemRefType>(aRaw))) ||
      !isWorkgroupMemRef(bType))
    return emitOpError() << "expects a and b in shared memory "
                            "(#gpu.address_space<workgroup>), got "
                         << aRaw << " and " << bType;
  if (!aType.hasStaticShape() || !bType.hasStaticShape())
    return emitOpError() << "expects statically shaped operands";
  if (failed(verifyCollectiveMma(*this)))
    return failure();
  // A collective MMA's accumulator holds both CTAs' halves of b's columns.
  int64_t m = accType.getRows(),
          n = accType.getColumns() / (getCollectiveAxis() ? 2 : 1);
  int64_t k = aType.getDimSize(1);
  if (failed(verifyMmaShapes(*this, aType, bType, m, n, accType.getShape())))
    return failure();
  if (n % 16 || n > 256)
    return emitOpError() << "expects N to be a multiple of 16 up to 256, got "
                         << n;
  // One MMA instruction takes 32 bytes of K: 16 16-bit or 32 8-bit.
  int64_t kStep = isF8(aElement) ? 32 : 16;
  if (k % kStep)
    return emitOpError() << "expects K to be a multiple of " << kStep << " for "
                         << aType.getElementType() << " inputs, got " << k;
  if ((!aInTmem && failed(verifyTiledOperand(*this, "a", aType,
                                             getATransformsAttr(), m))) ||
      failed(
          verifyTiledOperand(*this, "b", bType, getBTransformsAttr(), kStep)))
    return failure();
  return success();
}

LogicalResult Tcgen05CommitArriveOp::verify() {
  if (failed(verifyInsideKernel(*this)) ||
      failed(verifyCollectiveCommit(*this)))
    return failure();
  std::optional<int64_t> index = getConstantIntValue(getIndex());
  if (index && (*index < 0 || *index >= getBarrier().getType().getCount()))
    return emitOpError() << "barrier index " << *index
                         << " is out of range for " << getBarrier().getType()
                         << " (count " << getBarrier().getType().getCount()
                         << ")";
  return success();
}

/// A move between TMEM and registers: the vector has the buffer's shape.
static LogicalResult verifyTmemMove(Operation *op, VectorType vector,
                                    TmemType tmem) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  if (vector != tmem.getVectorType())
    return op->emitOpError() << "moves a whole tensor memory buffer: expects "
                             << vector << " to be " << tmem.getVectorType();
  return success();
}

LogicalResult AsyncLoadTmemOp::verify() {
  return verifyTmemMove(*this, getResult().getType(), getSrc().getType());
}

LogicalResult AsyncStoreTmemOp::verify() {
  return verifyTmemMove(*this, getValue().getType(), getDst().getType());
}

LogicalResult WaitLoadTmemOp::verify() { return verifyInsideKernel(*this); }

LogicalResult TmemSliceOp::verify() {
  TmemType src = getSrc().getType(), result = getResult().getType();
  if (src.getRows() != result.getRows() ||
      src.getElementType() != result.getElementType() ||
      src.getCollective() != result.getCollective())
    return emitOpError() << "expects the result to keep the buffer's rows, "
                            "element type and collective flag, got "
                         << src << " -> " << result;
  int64_t width = result.getShape()[1], total = src.getShape()[1];
  if (width > total)
    return emitOpError() << "takes " << width << " columns of a buffer of "
                         << total;
  std::optional<int64_t> column = getConstantIntValue(getColumn());
  if (column && (*column < 0 || *column > total - width)) {
    // The end saturates: a start near the index range's end overflows.
    int64_t end;
    if (llvm::AddOverflow(*column, width, end))
      end = std::numeric_limits<int64_t>::max();
    return emitOpError() << "takes columns [" << *column << ", " << end
                         << ") of a buffer of " << total;
  }
  bool packed = src.getElementType().getIntOrFloatBitWidth() == 16;
  if (packed && column && *column % 2)
    return emitOpError() << "starts at element " << *column
                         << " of a buffer of " << src.getElementType()
                         << ", which packs two to a column: expects an even "
                            "start";
  return success();
}

/// An allocation of JAX's exact form: a power of two in [32, 512].
static LogicalResult verifyAllocationColumns(Operation *op, int64_t columns) {
  if (!llvm::isPowerOf2_64(columns) || columns < 32 ||
      columns > kTmemMaxColumns)
    return op->emitOpError()
           << "ncols must be a power of 2 and within [32, 512], got: "
           << columns;
  return success();
}

LogicalResult TmemAllocOp::verify() {
  return verifyAllocationColumns(*this, getColumns());
}

LogicalResult TmemDeallocOp::verify() {
  return verifyAllocationColumns(*this, getColumns());
}

LogicalResult TmemLaneLoadOp::verify() {
  int64_t columns = getSrc().getType().getVectorType().getDimSize(1);
  int64_t count = getType().getNumElements();
  auto first = static_cast<int64_t>(getColumn());
  // A column near INT64_MAX must not wrap the end around into range.
  int64_t end;
  bool wraps = llvm::AddOverflow(first, count, end);
  if (first >= 0 && !wraps && end <= columns)
    return success();
  InFlightDiagnostic diag = emitOpError() << "reads columns [" << first << ", ";
  if (wraps)
    diag << first << " + " << count;
  else
    diag << end;
  return diag << ") of a buffer of " << columns << " columns";
}
