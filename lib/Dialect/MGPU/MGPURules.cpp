//===- MGPURules.cpp - Support-rule helpers -------------------------------===//
//
// Chip table, effective target lookup, buffer sizes and message formatting
// shared by the verifiers (and later the lowerings) of the mgpu dialect.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Target/SwizzleFormula.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::mgpu;

TargetAttr mlir::mgpu::getEffectiveTarget(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto target =
            cur->getAttrOfType<TargetAttr>(MGPUDialect::getTargetAttrName()))
      return target;
  return TargetAttr::get(op->getContext(), TargetInfo::getDefault().chip,
                         Profile::extended);
}

const TargetInfo &mlir::mgpu::getTargetInfo(Operation *op) {
  // The target attribute's verifier accepts only known chips.
  const TargetInfo *info = TargetInfo::lookup(getEffectiveTarget(op).getChip());
  return info ? *info : TargetInfo::getDefault();
}

/// Bits of one element of a buffer, if known.
static std::optional<int64_t> getElementBits(Type elementType) {
  if (elementType.isIndex())
    return 64;
  // In memory a scalar takes whole bytes (an i1 is one byte, as LLVM and
  // the host's memref.store lay it out); counting bits packed would let the
  // next block overlap an i1 block.
  // 4-bit elements are stored two to a byte (--mgpu-pack-sub-byte).
  if (elementType.isIntOrFloat())
    return elementType.getIntOrFloatBitWidth() == 4
               ? 4
               : llvm::alignTo(elementType.getIntOrFloatBitWidth(), 8);
  if (auto complex = dyn_cast<ComplexType>(elementType);
      complex && complex.getElementType().isIntOrFloat())
    return 2 * complex.getElementType().getIntOrFloatBitWidth();
  // memref<128xvector<4xf32>> is a valid block; counting it as 0 bytes
  // would let it past the shared-memory budget (S25).
  if (auto vector = dyn_cast<VectorType>(elementType);
      vector && !vector.isScalable())
    if (std::optional<int64_t> bits = getElementBits(vector.getElementType())) {
      int64_t total;
      if (llvm::MulOverflow(*bits, vector.getNumElements(), total))
        return std::numeric_limits<int64_t>::max();
      return total;
    }
  return std::nullopt;
}

std::optional<int64_t> mlir::mgpu::getBufferBytes(ArrayRef<int64_t> shape,
                                                  Type elementType) {
  std::optional<int64_t> elementBits = getElementBits(elementType);
  if (!elementBits)
    return std::nullopt;
  // Saturate instead of wrapping around: an absurdly large buffer must still
  // exceed the shared-memory budget.
  int64_t bits = *elementBits;
  for (int64_t size : shape) {
    if (ShapedType::isDynamic(size) || size < 0)
      return std::nullopt;
    if (llvm::MulOverflow(bits, size, bits))
      return std::numeric_limits<int64_t>::max();
  }
  return bits / 8 + (bits % 8 != 0);
}

std::string mlir::mgpu::formatTuple(ArrayRef<int64_t> sizes) {
  std::string text = "(";
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      sizes, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << '?';
        else
          os << size;
      },
      ", ");
  if (sizes.size() == 1)
    os << ',';
  os << ')';
  return text;
}

bool mlir::mgpu::isWorkgroupMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

bool mlir::mgpu::isGlobalMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  if (!memref.getMemorySpace())
    return true;
  auto space = dyn_cast<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Global;
}

MemRefType mlir::mgpu::getGlobalRefType(Type operandType) {
  if (auto memref = dyn_cast<MemRefType>(operandType))
    return memref;
  auto tensor = cast<RankedTensorType>(operandType);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

static MemRefType getSharedType(Type operandType, ArrayRef<int64_t> shape) {
  MLIRContext *ctx = operandType.getContext();
  return MemRefType::get(
      shape, cast<ShapedType>(operandType).getElementType(),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

MemRefType mlir::mgpu::getStagedBlockType(Type operandType,
                                          BlockSpecAttr spec) {
  return getSharedType(operandType, spec.getBodyShape());
}

MemRefType mlir::mgpu::getStagedSlotType(Type operandType, BlockSpecAttr spec) {
  return getSharedType(operandType, spec.getShape());
}

int64_t mlir::mgpu::getSwizzledRowElements(BlockSpecAttr spec) {
  SmallVector<int64_t> shape(spec.getShape());
  for (Attribute attr : spec.getTransforms()) {
    if (auto tile = dyn_cast<TileTransformAttr>(attr)) {
      ArrayRef<int64_t> tiling = tile.getTiling();
      size_t first = shape.size() - tiling.size();
      SmallVector<int64_t> tiled(shape.begin(), shape.begin() + first);
      for (auto [i, t] : llvm::enumerate(tiling))
        tiled.push_back(shape[first + i] / t);
      llvm::append_range(tiled, tiling);
      shape = tiled;
    } else if (auto transpose = dyn_cast<TransposeTransformAttr>(attr)) {
      SmallVector<int64_t> permuted;
      for (int64_t p : transpose.getPermutation())
        permuted.push_back(shape[p]);
      shape = permuted;
    }
  }
  return shape.empty() ? 1 : shape.back();
}

LogicalResult mlir::mgpu::verifyGroupWait(Operation *op, uint64_t pending,
                                          int64_t most, StringRef groups) {
  if (failed(verifyInsideKernel(op)))
    return failure();
  int64_t count = static_cast<int64_t>(pending);
  if (count < 0 || count > most)
    return op->emitOpError() << "waits for at most 0 to " << most << " pending "
                             << groups << ", got " << pending;
  return success();
}

LogicalResult mlir::mgpu::verifyResultTypeOf(Operation *op, Value operand,
                                             StringRef name) {
  Type result = op->getResult(0).getType();
  if (result != operand.getType())
    return op->emitOpError()
           << "expects the result to have the " << name << "'s type "
           << operand.getType() << ", got " << result;
  return success();
}

LogicalResult mlir::mgpu::verifyInsideKernel(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<PallasCallOp, MpmdMapOp, EmitPipelineOp, LaunchOp, gpu::LaunchOp,
            gpu::GPUFuncOp>(parent))
      return success();
    if (isa<FunctionOpInterface>(parent))
      break;
  }
  return op->emitOpError() << "must be inside a kernel: an 'mgpu.pallas_call', "
                              "'mgpu.mpmd_map' or 'mgpu.emit_pipeline' region";
}

bool mlir::mgpu::isBackendElementType(Type type) {
  if (type.isIndex())
    return true;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 4u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
             Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType,
             Float6E2M3FNType, Float6E3M2FNType, Float4E2M1FNType>(type);
}

LogicalResult
mlir::mgpu::verifyIndexMapDivisors(function_ref<InFlightDiagnostic()> emitError,
                                   AffineMap map) {
  LogicalResult result = success();
  for (AffineExpr expr : map.getResults())
    expr.walk([&](AffineExpr sub) {
      auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
      if (!binary || failed(result))
        return;
      AffineExprKind kind = binary.getKind();
      if (kind != AffineExprKind::FloorDiv && kind != AffineExprKind::CeilDiv &&
          kind != AffineExprKind::Mod)
        return;
      auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (divisor && divisor.getValue() > 0)
        return;
      InFlightDiagnostic diag = emitError();
      diag << "block index_map divides by ";
      if (divisor)
        diag << divisor.getValue();
      else
        diag << "a non-constant";
      std::string text;
      llvm::raw_string_ostream os(text);
      sub.print(os);
      diag << " in '" << text << "'; floordiv, ceildiv and mod need a "
           << "positive constant";
      result = failure();
    });
  return result;
}

LogicalResult mlir::mgpu::verifyLaunchLimits(Operation *op,
                                             ArrayRef<int64_t> ctaSizes,
                                             ArrayRef<int64_t> cluster) {
  // CUDA's limits: 2^31 - 1 CTAs along x (where the lowering numbers them),
  // 8 CTAs in a portable cluster.
  constexpr int64_t kMaxCtas = TargetInfo::kMaxCtasX,
                    kMaxCluster = TargetInfo::kMaxClusterCtas;
  int64_t clusterCtas = 1;
  for (int64_t size : cluster)
    if (llvm::MulOverflow(clusterCtas, size, clusterCtas))
      clusterCtas = std::numeric_limits<int64_t>::max();
  if (clusterCtas > kMaxCluster)
    return op->emitOpError()
           << "has clusters of " << clusterCtas << " CTAs "
           << formatTuple(cluster) << "; a portable cluster holds at most "
           << kMaxCluster;
  int64_t ctas = clusterCtas;
  for (int64_t size : ctaSizes) {
    if (ShapedType::isDynamic(size))
      return success();
    if (llvm::MulOverflow(ctas, size, ctas))
      return op->emitOpError() << "launches more CTAs than 64 bits count "
                               << formatTuple(ctaSizes);
  }
  if (ctas > kMaxCtas)
    return op->emitOpError()
           << "launches " << ctas << " CTAs; a launch has at most " << kMaxCtas;
  return success();
}

InFlightDiagnostic mlir::mgpu::emitTooManyThreads(InFlightDiagnostic &&diag,
                                                  int64_t numThreads,
                                                  int64_t limit) {
  diag << "Requested too many CUDA threads per block. Each Mosaic thread "
          "corresponds to "
       << kWarpgroupLanes << " CUDA threads. At most " << limit
       << " are supported";
  // Checked: a huge num_threads must not overflow the note.
  int64_t cudaThreads;
  Diagnostic &note = diag.attachNote();
  note << "num_threads = " << numThreads << " asks for ";
  if (llvm::MulOverflow(numThreads, kWarpgroupLanes, cudaThreads))
    note << "more than 2^63";
  else
    note << cudaThreads;
  note << " CUDA threads; use at most " << limit;
  return std::move(diag);
}

LogicalResult mlir::mgpu::verifyMeshThreads(Operation *op, MeshAttr mesh) {
  constexpr int64_t kMaxThreads =
      TargetInfo::kMaxThreadsPerCta / kWarpgroupLanes;
  std::optional<int64_t> threads = mesh.getNumThreads();
  // Above JAX's limit the mesh attribute itself is refused.
  if (!threads || *threads <= kMaxThreads || *threads > kJaxMaxPallasThreads)
    return success();
  if (!getEffectiveTarget(op).isJaxProfile())
    return emitTooManyThreads(op->emitError(), *threads, kMaxThreads);
  InFlightDiagnostic diag =
      op->emitOpError() << "runs " << *threads << " Pallas threads ("
                        << *threads * kWarpgroupLanes
                        << " CUDA threads) in each CTA; a CTA runs at most "
                        << TargetInfo::kMaxThreadsPerCta << " CUDA threads ("
                        << kMaxThreads << " Pallas threads)";
  diag.attachNote() << "JAX's mesh accepts up to " << kJaxMaxPallasThreads
                    << " Pallas threads, but no CUDA launch runs more than "
                    << kMaxThreads;
  return diag;
}

bool mlir::mgpu::isSequential(CompilerParamsAttr params, unsigned d) {
  return params && d < params.getDimensionSemantics().size() &&
         params.getDimensionSemantics()[d] == DimensionSemantics::sequential;
}

LogicalResult mlir::mgpu::verifyGridSizes(
    Operation *op, ArrayRef<int64_t> grid,
    function_ref<SmallVector<int64_t>(unsigned)> jaxGrid) {
  for (auto [d, size] : llvm::enumerate(grid)) {
    if (ShapedType::isDynamic(size) || size > 0)
      continue;
    // JAX's emit_pipeline checks the grid it steps over
    // (jax/_src/pallas/mosaic_gpu/pipeline.py:265-268 at jax-ml/jax
    // cec06d1); the extended profile names the axis in a note instead.
    InFlightDiagnostic diag =
        op->emitError() << "All elements in the grid must be strictly positive";
    if (getEffectiveTarget(op).isJaxProfile())
      diag << ", but got grid=" << formatTuple(jaxGrid(d));
    else
      diag.attachNote() << "grid size #" << d << " is " << size;
    return diag;
  }
  return success();
}

/// A memref.view (a RefUnion's ref) whose byte shift is a constant and
/// whose sizes are static must lie inside its statically sized buffer.
static LogicalResult verifyViewInBuffer(memref::ViewOp view) {
  MemRefType type = view.getType();
  std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
  int64_t size = view.getSource().getType().getDimSize(0);
  if (!shift || ShapedType::isDynamic(size) || !type.hasStaticShape())
    return success();
  std::optional<int64_t> bytes =
      getBufferBytes(type.getShape(), type.getElementType());
  if (!bytes)
    return success();
  if (*shift >= 0 && *bytes <= size && *shift <= size - *bytes)
    return success();
  return view.emitOpError() << "views " << *bytes << " bytes at byte " << *shift
                            << ", outside its " << size << "-byte buffer";
}

LogicalResult mlir::mgpu::verifyKernelValueTypes(Operation *kernel,
                                                 Region &region) {
  // A vector lives in registers, spread over a warpgroup's 128 lanes.
  constexpr int64_t kMaxRegistersPerLane = TargetInfo::kMaxRegistersPerLane,
                    kLanes = kWarpgroupLanes;
  auto check = [&](Operation *where, Type type) -> LogicalResult {
    if (auto vector = dyn_cast<VectorType>(type)) {
      if (vector.isScalable())
        return where->emitOpError()
               << "uses the scalable vector type " << type
               << ", which no GPU or interpret backend runs";
      // i6 only in registers: the bits of an f6 element, which memory
      // holds one to a byte (--mgpu-pack-sub-byte).
      if (!isBackendElementType(vector.getElementType()) &&
          !vector.getElementType().isSignlessInteger(6))
        return where->emitOpError()
               << "computes on elements of type " << vector.getElementType()
               << ", which no backend handles";
      std::optional<int64_t> bytes =
          getBufferBytes(vector.getShape(), vector.getElementType());
      int64_t registers =
          bytes ? llvm::divideCeil(llvm::divideCeil(*bytes, kLanes), 4)
                : std::numeric_limits<int64_t>::max();
      if (registers > kMaxRegistersPerLane) {
        InFlightDiagnostic diag =
            where->emitOpError()
            << "holds " << type << ", " << registers
            << " 32-bit registers per lane across a warpgroup's 128 lanes; "
               "at most "
            << kMaxRegistersPerLane << " fit";
        diag.attachNote() << "work on smaller vectors (a loop over slices of "
                             "the block)";
        return diag;
      }
      return success();
    }
    if (auto memref = dyn_cast<MemRefType>(type))
      if (!isBackendElementType(memref.getElementType()))
        return where->emitOpError()
               << "uses memory of elements of type " << memref.getElementType()
               << ", which no backend stages or computes on";
    return success();
  };
  WalkResult result = region.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(check(op, type)))
        return WalkResult::interrupt();
    if (auto view = dyn_cast<memref::ViewOp>(op);
        view && failed(verifyViewInBuffer(view)))
      return WalkResult::interrupt();
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (Type type : block.getArgumentTypes())
          if (failed(check(op, type)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

MemRefType mlir::mgpu::getStoredType(MemRefType view) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (view.getRank() != 2 ||
      failed(view.getStridesAndOffset(strides, offset)) || strides[0] != 1 ||
      strides[1] == 1)
    return view;
  return MemRefType::get({view.getDimSize(1), view.getDimSize(0)},
                         view.getElementType(),
                         StridedLayoutAttr::get(view.getContext(), offset,
                                                {strides[1], strides[0]}),
                         view.getMemorySpace());
}

FailureOr<SwizzledTiling> mlir::mgpu::getSwizzledTiling(Operation *op,
                                                        StringRef what,
                                                        ArrayAttr transforms,
                                                        MemRefType type) {
  ArrayRef<Attribute> list = transforms.getValue();
  auto tile = list.size() == 2 ? dyn_cast<TileTransformAttr>(list[0])
                               : TileTransformAttr();
  auto swizzle = list.size() == 2 ? dyn_cast<SwizzleTransformAttr>(list[1])
                                  : SwizzleTransformAttr();
  if (!tile || !swizzle || tile.getTiling().size() != 2)
    return op->emitOpError() << "applies only the layout [#mgpu.tile<[R, C]>, "
                                "#mgpu.swizzle<S>] to "
                             << what << ", got " << transforms;
  std::optional<int64_t> bytes = getBufferBytes({1}, type.getElementType());
  SwizzledTiling tiling{tile.getTiling()[0], tile.getTiling()[1],
                        bytes.value_or(0), swizzle.getBytes()};
  if (type.getRank() != 2 || !type.hasStaticShape() ||
      type.getDimSize(0) % tiling.rows || type.getDimSize(1) % tiling.cols)
    return op->emitOpError()
           << "expects " << what
           << " to be a static 2-d buffer divided by its "
              "tile "
           << formatTuple(tile.getTiling()) << ", got " << type;
  if (tiling.cols * tiling.elementBytes != tiling.swizzleBytes ||
      tiling.rows % 8)
    return op->emitOpError()
           << "expects the tile of " << what << " to span the "
           << tiling.swizzleBytes
           << "-byte swizzle in whole groups of 8 rows, got "
           << formatTuple(tile.getTiling()) << " of " << type.getElementType();
  // A view at a static offset starts at a tile of its buffer (rows of the
  // larger stride, a view may be transposed).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(type.getStridesAndOffset(strides, offset)) &&
      !ShapedType::isDynamic(offset) && offset != 0 &&
      llvm::none_of(strides, ShapedType::isDynamic)) {
    int64_t width = std::max(strides[0], strides[1]);
    if (width > 0 &&
        ((offset / width) % tiling.rows || (offset % width) % tiling.cols))
      return op->emitOpError()
             << "expects " << what
             << " to start at a tile boundary of its buffer, got element "
             << formatTuple({offset / width, offset % width})
             << " with tiles of " << tiling.rows << " x " << tiling.cols;
  }
  return tiling;
}

int64_t mlir::mgpu::getSwizzledByteOffset(const SwizzledTiling &tiling,
                                          int64_t width, int64_t row,
                                          int64_t col) {
  return ::mgpu::swizzledByteOffset(tiling.rows, tiling.cols,
                                    tiling.elementBytes, width, row, col);
}

InFlightDiagnostic mlir::mgpu::emitUnknownAxis(Operation *op, StringRef axis,
                                               ArrayRef<MeshAttr> meshes) {
  bool jax = getEffectiveTarget(op).isJaxProfile();
  llvm::SetVector<StringRef> available;
  for (MeshAttr mesh : meshes) {
    auto add = [&](ArrayRef<StringAttr> names) {
      if (jax)
        for (StringAttr name : llvm::reverse(names))
          available.insert(name.getValue());
      else
        for (StringAttr name : names)
          available.insert(name.getValue());
    };
    add(mesh.getGridNames());
    add(mesh.getClusterNames());
    if (mesh.getThreadName() && mesh.getNumThreads())
      available.insert(mesh.getThreadName().getValue());
  }
  // jax/_src/pallas/mosaic_gpu/lowering.py:3468-3478 at jax-ml/jax cec06d1.
  if (jax && available.empty())
    return op->emitError()
           << "No axis names are available. Make sure you are using "
              "`pl.core_map` with a `plgpu.Mesh` or an appropriate JAX device "
              "mesh.";
  InFlightDiagnostic diag = op->emitError()
                            << "Axis " << axis
                            << " does not refer to a GPU mesh axis "
                               "(available axes: [";
  llvm::interleave(
      available, [&](StringRef name) { diag << "'" << name << "'"; },
      [&] { diag << ", "; });
  diag << "])";
  // JAX also looks for the axis among the JAX device mesh's, which mgpu has
  // none of, and prints both lists as Python lists.
  if (jax)
    diag << " or a JAX mesh axis (available axes: [])";
  return diag;
}
