//===- PrimitiveOps.cpp - Kernel-level ops --------------------------------===//
//
// Verifiers, memory effects and custom syntax of the kernel-level ops
// (SPEC section 7, rules S32-S39): async copies, bulk-group waits, barrier
// arrivals and waits, atomic stores and the barrier type. emit_pipeline
// lives beside pallas_call in KernelOps.cpp, with which it shares the
// block-spec rules.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mgpu;

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//

ParseResult mlir::mgpu::parseWindowOffsets(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
    DenseI64ArrayAttr &integers) {
  return parseDynamicIndexList(parser, values, integers, /*valueTypes=*/nullptr,
                               AsmParser::Delimiter::OptionalSquare);
}

void mlir::mgpu::printWindowOffsets(OpAsmPrinter &printer, Operation *op,
                                    OperandRange values,
                                    DenseI64ArrayAttr integers) {
  if (integers.empty())
    return;
  printDynamicIndexList(printer, op, values, integers);
}

ParseResult mlir::mgpu::parseSameType(OpAsmParser &, Type &result,
                                      Type operand) {
  result = operand;
  return success();
}

void mlir::mgpu::printSameType(OpAsmPrinter &, Operation *, Type, Type) {}

//===----------------------------------------------------------------------===//
// BarrierType
//===----------------------------------------------------------------------===//

LogicalResult BarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t count, int64_t arrivals) {
  if (count < 1)
    return emitError() << "a barrier array holds at least 1 barrier, got count "
                       << count;
  // 8-byte mbarriers in the shared memory of a CTA on any chip (this also
  // keeps the array's byte size far from overflow).
  int64_t maxBytes = 0;
  for (const TargetInfo &target : TargetInfo::getAll())
    maxBytes = std::max(maxBytes, target.maxSharedMemoryBytes);
  int64_t maxCount = maxBytes / 8;
  if (count > maxCount)
    return emitError() << "a barrier array holds at most " << maxCount
                       << " barriers (8 bytes each in " << maxBytes / 1024
                       << " KiB of shared memory), got count " << count;
  // mbarrier counts arrivals in 20 bits.
  constexpr int64_t kMaxArrivals = (1 << 20) - 1;
  if (arrivals < 1 || arrivals > kMaxArrivals)
    return emitError() << "barrier arrivals must be in [1, " << kMaxArrivals
                       << "], got " << arrivals;
  return success();
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// S32: a statically known barrier index is inside the array.
static LogicalResult verifyBarrierIndex(Operation *op, BarrierLikeType type,
                                        Value index) {
  std::optional<int64_t> constant = getConstantIntValue(index);
  if (!constant || (*constant >= 0 && *constant < type.getCount()))
    return success();
  return op->emitOpError() << "barrier index " << *constant
                           << " is out of range for " << type << " (count "
                           << type.getCount() << ")";
}

/// S33: where a copy's two sides live, and that they hold the same elements.
static LogicalResult verifyCopySides(Operation *op, MemRefType smem,
                                     MemRefType gmem, StringRef smemName,
                                     StringRef gmemName) {
  if (!isWorkgroupMemRef(smem)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects " << smemName
                              << " in shared memory "
                                 "(#gpu.address_space<workgroup>), got "
                              << smem;
    diag.attachNote() << "stage blocks in a workgroup scratch buffer";
    return diag;
  }
  auto gmemSpace =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(gmem.getMemorySpace());
  if ((gmem.getMemorySpace() && !gmemSpace) ||
      (gmemSpace && gmemSpace.getValue() != gpu::AddressSpace::Global))
    return op->emitOpError()
           << "expects " << gmemName << " in global memory, got " << gmem;
  if (smem.getElementType() != gmem.getElementType())
    return op->emitOpError()
           << "copies between different element types: " << smemName << " has "
           << smem.getElementType() << ", " << gmemName << " has "
           << gmem.getElementType();
  // A contiguous view at any offset is a buffer too: JAX's `smem.at[slot]`
  // of a buffer of slots, `.at[32:64]` of rows.
  if (!memref::isStaticShapeAndContiguousRowMajor(smem))
    return op->emitOpError() << "expects " << smemName
                             << " to be a statically shaped, contiguous "
                                "buffer or view, got "
                             << smem;
  if (smem.getRank() != gmem.getRank())
    return op->emitOpError() << "expects " << smemName << " and " << gmemName
                             << " of the same rank, got " << smem.getRank()
                             << " and " << gmem.getRank();
  if (!isBackendElementType(smem.getElementType()))
    return op->emitOpError()
           << "cannot copy elements of type " << smem.getElementType();
  return success();
}

/// S34: the window: offsets, or a `gmem` of the buffer's own shape.
static LogicalResult verifyWindow(Operation *op, MemRefType smem,
                                  MemRefType gmem, ArrayRef<int64_t> offsets,
                                  ValueRange dynamicOffsets,
                                  StringRef gmemName) {
  if (!offsets.empty()) {
    if (static_cast<int64_t>(offsets.size()) != gmem.getRank())
      return op->emitOpError()
             << "expects " << gmem.getRank() << " window offsets into "
             << gmemName << ", got " << offsets.size();
    return verifyListOfOperandsOrIntegers(op, "offset", offsets.size(), offsets,
                                          dynamicOffsets);
  }
  if (!dynamicOffsets.empty())
    return op->emitOpError() << "has dynamic offsets but no offset list";
  for (auto [d, size] : llvm::enumerate(gmem.getShape()))
    if (!ShapedType::isDynamic(size) && size != smem.getDimSize(d)) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "copies a window of shape "
                                << formatTuple(smem.getShape()) << ", but "
                                << gmemName << " has shape "
                                << formatTuple(gmem.getShape());
      diag.attachNote() << "take a memref.subview of the window, or give its "
                           "offsets: "
                        << gmemName << "[...]";
      return diag;
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

/// What both copies check: that they are inside a kernel, the types of
/// their sides, and the window of the global side.
template <typename CopyOp>
static LogicalResult verifyCopy(CopyOp op, MemRefType shared, MemRefType global,
                                StringRef sharedName, StringRef globalName) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  if (failed(verifyCopySides(op, shared, global, sharedName, globalName)))
    return failure();
  return verifyWindow(op, shared, global, op.getStaticOffsets(),
                      op.getOffsets(), globalName);
}

SmallVector<OpFoldResult> CopyGmemToSmemOp::getMixedOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}

LogicalResult CopyGmemToSmemOp::verify() {
  auto dst = cast<MemRefType>(getDst().getType());
  // A partitioned copy's window is the pair's: twice dst along its
  // dimension (CollectiveMma.cpp).
  if (getPartitioned()) {
    if (failed(verifyInsideKernel(*this)) ||
        failed(verifyCopySides(*this, dst, cast<MemRefType>(getSrc().getType()),
                               "the destination", "the source")) ||
        failed(verifyPartitionedCopy(*this)))
      return failure();
    if (!getBarrier() || !getBarrierIndex())
      return emitOpError() << "partitioned copies count on a barrier (TMA)";
    if (getPredicate())
      return emitOpError() << "takes a predicate or collective_axes, not both";
    if (getTransforms() && failed(getSwizzledTiling(*this, "the destination",
                                                    *getTransforms(), dst)))
      return failure();
    if (!getStaticOffsets().empty() &&
        failed(verifyWindow(*this, dst, cast<MemRefType>(getSrc().getType()),
                            getStaticOffsets(), getOffsets(), "the source")))
      return failure();
    return verifyBarrierIndex(*this, getBarrier().getType(), getBarrierIndex());
  }
  if (failed(verifyCopy(*this, dst, cast<MemRefType>(getSrc().getType()),
                        "the destination", "the source")))
    return failure();
  // Without a barrier: a pre-Hopper cp.async copy (CpAsyncOps.cpp).
  if (!getBarrier() || !getBarrierIndex())
    return verifyCpAsyncCopy(*this);
  if (getTransforms() && failed(getSwizzledTiling(*this, "the destination",
                                                  *getTransforms(), dst)))
    return failure();
  if (failed(verifyCollectiveCopy(*this)))
    return failure();
  // A predicated multicast would leave the group's other CTAs waiting for
  // a share that is never sent.
  if (getPredicate() && getCollectiveAxes())
    return emitOpError() << "takes a predicate or collective_axes, not both";
  return verifyBarrierIndex(*this, getBarrier().getType(), getBarrierIndex());
}

SmallVector<OpFoldResult> CopySmemToGmemOp::getMixedOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}

/// The element types each TMA reduction takes, and the message, are JAX's
/// (at jax-ml/jax cec06d1: _is_tma_reduction_op_supported and its caller,
/// jax/experimental/mosaic/gpu/launch_context.py:592-624 and 1275-1282),
/// which follow PTX's table for cp.reduce.async.bulk.tensor.
static bool isTmaReductionSupported(TmaReduction kind, Type element) {
  bool i32 = element.isSignlessInteger(32);
  bool i64 = element.isSignlessInteger(64);
  bool half = element.isF16() || element.isBF16();
  switch (kind) {
  case TmaReduction::add:
    return half || element.isF32() || i32 || i64;
  case TmaReduction::min:
  case TmaReduction::max:
    return half;
  case TmaReduction::inc:
  case TmaReduction::dec:
    return i32;
  case TmaReduction::bit_and:
  case TmaReduction::bit_or:
  case TmaReduction::bit_xor:
  case TmaReduction::smin:
  case TmaReduction::smax:
  case TmaReduction::umin:
  case TmaReduction::umax:
    return i32 || i64;
  }
  return false;
}

LogicalResult CopySmemToGmemOp::verify() {
  auto src = cast<MemRefType>(getSrc().getType());
  if (failed(verifyCopy(*this, src, cast<MemRefType>(getDst().getType()),
                        "the source", "the destination")))
    return failure();
  if (getTransforms() &&
      failed(getSwizzledTiling(*this, "the source", *getTransforms(), src)))
    return failure();
  std::optional<TmaReduction> kind = getReduction();
  if (!kind || isTmaReductionSupported(*kind, src.getElementType()))
    return success();
  // Unquoted, as JAX prints it.
  std::string type;
  llvm::raw_string_ostream(type) << src.getElementType();
  InFlightDiagnostic diag =
      emitOpError() << "Reduction op " << stringifyTmaReduction(*kind)
                    << " not supported by the TMA implementation for element "
                       "type "
                    << type;
  if ((*kind == TmaReduction::min || *kind == TmaReduction::max) &&
      (src.getElementType().isSignlessInteger(32) ||
       src.getElementType().isSignlessInteger(64)))
    diag.attachNote() << "integer min/max reductions say how they compare: "
                         "smin/smax (signed) or umin/umax (unsigned)";
  return diag;
}

/// JAX checks that the prefetched ref is in GMEM, in its words
/// (jax/_src/pallas/mosaic_gpu/primitives.py:1344-1348 calls _check_ref,
/// :77-91); the static shape and element type are what a TMA box needs.
LogicalResult AsyncPrefetchOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto type = cast<MemRefType>(getRef().getType());
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  if ((type.getMemorySpace() && !space) ||
      (space && space.getValue() != gpu::AddressSpace::Global))
    return emitOpError() << "ref must be a GMEM reference, got " << type;
  if (!type.hasStaticShape())
    return emitOpError() << "prefetches a window of static shape, got " << type;
  if (!isBackendElementType(type.getElementType()))
    return emitOpError() << "cannot prefetch elements of type "
                         << type.getElementType();
  return success();
}

/// Splits a JAX format string around its `{}` placeholders, undoing `{{`
/// and `}}` and escaping `%` for printf. Fails with JAX's message
/// (jax/_src/pallas/primitives.py:617-637) on a field name, spec or
/// conversion, or a lone brace.
static FailureOr<SmallVector<std::string>>
splitFormat(StringRef format, function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<std::string> pieces(1);
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if (c == '{' && i + 1 < format.size() && format[i + 1] == '{') {
      pieces.back() += '{';
      ++i;
    } else if (c == '}' && i + 1 < format.size() && format[i + 1] == '}') {
      pieces.back() += '}';
      ++i;
    } else if (c == '{') {
      size_t end = format.find('}', i);
      if (end == StringRef::npos)
        return emitError() << "Single '{' encountered in format string";
      StringRef field = format.slice(i + 1, end);
      if (field.contains(':') || field.contains('!'))
        return emitError() << "The format string should not contain any "
                              "format specs or conversions";
      if (!field.empty())
        return emitError() << "The format string should not reference "
                              "arguments by position or name";
      pieces.emplace_back();
      i = end;
    } else if (c == '}') {
      return emitError() << "Single '}' encountered in format string";
    } else if (c == '%') {
      pieces.back() += "%%";
    } else {
      pieces.back() += c;
    }
  }
  return pieces;
}

LogicalResult DebugPrintOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  FailureOr<SmallVector<std::string>> pieces =
      splitFormat(getFormat(), [&] { return emitOpError(); });
  if (failed(pieces))
    return failure();
  size_t placeholders = pieces->size() - 1;
  if (placeholders != 1)
    return emitOpError() << "The format string expects " << placeholders
                         << " argument" << (placeholders == 1 ? "" : "s")
                         << ", but got 1";
  Type element = getValue().getType().getElementType();
  if (!element.isIntOrIndex() && !element.isF16() && !element.isBF16() &&
      !element.isF32() && !element.isF64())
    return emitOpError() << "cannot print elements of type " << element;
  return success();
}

std::string DebugPrintOp::getElementFormat() {
  SmallVector<std::string> pieces =
      *splitFormat(getFormat(), [&] { return emitOpError(); });
  VectorType type = getValue().getType();
  std::string element = "[";
  for (int64_t d = 0; d < type.getRank(); ++d)
    element += d ? ", %lld" : "%lld";
  element += isa<FloatType>(type.getElementType()) ? "]: %f" : "]: %lld";
  return pieces[0] + element + pieces[1] + "\n";
}

LogicalResult WaitSmemToGmemOp::verify() {
  // cp.async.bulk.wait_group takes a count in [0, 63].
  return verifyGroupWait(*this, getPending(), 63, "groups");
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

LogicalResult BarrierArriveOp::verify() {
  if (failed(verifyInsideKernel(*this)) ||
      failed(verifyClusterBarrierUse(*this, getBarrier().getType())))
    return failure();
  return verifyBarrierIndex(*this, getBarrier().getType(), getIndex());
}

LogicalResult BarrierWaitOp::verify() {
  if (failed(verifyInsideKernel(*this)) ||
      failed(verifyClusterBarrierUse(*this, getBarrier().getType())))
    return failure();
  return verifyBarrierIndex(*this, getBarrier().getType(), getIndex());
}

LogicalResult BarrierTestOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  return verifyBarrierIndex(*this, getBarrier().getType(), getIndex());
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// The element types and kinds are JAX's (at jax-ml/jax cec06d1:
/// plgpu.atomic_* in jax/_src/pallas/mosaic_gpu/primitives.py:5208-5280
/// bind mgpu_atomic_store, whose lowering ends in FragmentedArray's
/// _store_register_atomic, jax/experimental/mosaic/gpu/fragmented_array.py
/// :3859-3917), and so are the messages: an i32 takes every kind, f32 only
/// add, f16/bf16 add, max and min (only add in shared memory).
static LogicalResult verifyAtomicElement(AtomicStoreOp op, Type element,
                                         bool shared) {
  AtomicKind kind = op.getKind();
  if (element.isSignlessInteger(32))
    return success();
  bool isUnsigned = kind == AtomicKind::umax || kind == AtomicKind::umin;
  if (isUnsigned && isa<FloatType>(element))
    return op.emitOpError() << "unsigned atomic " << stringifyAtomicKind(kind)
                            << " needs an i32 element, got " << element;
  if (element.isF32()) {
    if (kind == AtomicKind::add)
      return success();
    InFlightDiagnostic diag = op.emitOpError()
                              << "f32 only supports add atomics, got "
                              << stringifyAtomicKind(kind);
    if (kind == AtomicKind::max || kind == AtomicKind::min)
      diag.attachNote() << "for values known to be non-negative, the i32 bit "
                           "patterns order as the floats do: store them "
                           "bitcast to i32";
    return diag;
  }
  if (element.isF16() || element.isBF16()) {
    if (kind != AtomicKind::add && kind != AtomicKind::max &&
        kind != AtomicKind::min)
      return op.emitOpError()
             << "f16/bf16 only supports add, min, max atomics, got "
             << stringifyAtomicKind(kind);
    if (shared && kind != AtomicKind::add)
      return op.emitOpError()
             << "f16/bf16 SMEM/multimem atomics only support add, got "
             << stringifyAtomicKind(kind);
    return success();
  }
  return op.emitOpError() << "Unsupported element type for atomic stores: "
                          << element;
}

LogicalResult AtomicStoreOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto refType = cast<MemRefType>(getRef().getType());
  if (getIndices().size() != static_cast<size_t>(refType.getRank()))
    return emitOpError() << "expects " << refType.getRank()
                         << " indices for a ref of rank " << refType.getRank()
                         << ", got " << getIndices().size();
  // GMEM refs carry no memory space (or the GPU dialect's global one).
  bool shared = isWorkgroupMemRef(refType);
  if (Attribute space = refType.getMemorySpace(); space && !shared) {
    auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
    if (!gpuSpace || gpuSpace.getValue() != gpu::AddressSpace::Global)
      return emitOpError()
             << "expects a ref in global or shared memory, got memory space "
             << space;
  }
  Type valueType = getValue().getType();
  auto vectorType = dyn_cast<VectorType>(valueType);
  if (vectorType && (vectorType.isScalable() || vectorType.getRank() == 0))
    return emitOpError() << "expects a scalar or a fixed vector of rank 1 or "
                            "more, got "
                         << valueType;
  Type element = vectorType ? vectorType.getElementType() : valueType;
  if (element != refType.getElementType())
    return emitOpError() << "expects a value of the ref's element type "
                         << refType.getElementType() << ", got " << valueType;
  if (vectorType) {
    int64_t extra = refType.getRank() - vectorType.getRank();
    if (extra < 0)
      return emitOpError() << "expects a vector of rank at most the ref's ("
                           << refType.getRank() << "), got " << valueType;
    // The vector covers the ref's innermost dimensions, as vector.store's.
    for (auto [d, size] : llvm::enumerate(vectorType.getShape())) {
      int64_t dim = refType.getDimSize(extra + d);
      if (!ShapedType::isDynamic(dim) && size > dim)
        return emitOpError()
               << "stores a " << valueType << " that does not fit in "
               << refType << " (dimension " << extra + d << " has " << dim
               << " elements)";
    }
  }
  return verifyAtomicElement(*this, element, shared);
}
