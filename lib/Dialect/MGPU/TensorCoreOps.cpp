//===- TensorCoreOps.cpp - wgmma, wgmma_wait, set_max_registers -----------===//
//
// Verifiers of the tensor-core ops of SPEC section 7 (rules S32-S39 for
// wgmma shapes and types): what a Hopper warpgroup MMA accepts (M a
// multiple of 64, N a multiple of 8 up to 256, K a multiple of the type's K
// step, matching input types but for the two f8 types, an f32 or f16
// accumulator, i32 for i8 inputs), the pending count
// of wgmma_wait, and the register budgets setmaxnreg takes.
//
//===----------------------------------------------------------------------===//

#include "MmaShapes.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::mgpu;

int64_t WgmmaOp::getKStep(Type inputType) {
  if (isa<Float16Type, BFloat16Type>(inputType))
    return 16;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(inputType) ||
      inputType.isInteger(8))
    return 32;
  if (isa<Float32Type>(inputType))
    return 8;
  return 0;
}

Type WgmmaOp::getInputType() {
  return cast<ShapedType>(getB().getType()).getElementType();
}

/// Whether `type` is a memref in shared memory.
static bool isShared(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref);
}

static LogicalResult verifyOperandTiling(WgmmaOp op, StringRef name, Type type,
                                         ArrayAttr transforms,
                                         int64_t rowMultiple);

LogicalResult WgmmaOp::verify() {
  if (failed(verifyResultTypeOf(*this, getAcc(), "accumulator")))
    return failure();
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto accType = cast<VectorType>(getAcc().getType());
  auto aType = cast<ShapedType>(getA().getType());
  auto bType = cast<MemRefType>(getB().getType());
  Type input = bType.getElementType();
  auto isF8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(type);
  };
  // PTX's wgmma takes separate .atype and .btype for the two f8 types.
  if (aType.getElementType() != input &&
      !(isF8(aType.getElementType()) && isF8(input)))
    return emitOpError() << "WGMMA requires A and B to have the same element "
                            "type (or be a mix of the e4m3/e5m2 FP8 types), "
                            "got: "
                         << aType.getElementType() << " and " << input;
  int64_t kStep = getKStep(input);
  if (!kStep)
    return emitOpError() << "multiplies f16, bf16, f8E4M3FN, f8E5M2, i8 or "
                            "f32 (as tf32) matrices, got "
                         << input;
  Type accElement = accType.getElementType();
  if (input.isInteger(8) && !accElement.isInteger(32))
    return emitOpError() << "WGMMA with element type " << input
                         << " only supports accumulators of type s32, but "
                            "got: "
                         << accElement;
  bool f16Inputs = isa<Float16Type>(input) || isF8(input);
  if (accElement.isInteger(32) && !input.isInteger(8))
    return emitOpError() << "accumulates " << input << " products in "
                         << (f16Inputs ? "f32 or f16" : "f32")
                         << " only, got an i32 accumulator";
  if (accElement.isF16() && !f16Inputs)
    return emitOpError() << "accumulates " << input
                         << " products in f32 only, got an f16 accumulator";
  if (isa<MemRefType>(aType) && !isShared(aType))
    return emitOpError() << "expects a in shared memory "
                            "(#gpu.address_space<workgroup>) or in "
                            "registers, got "
                         << aType;
  if (!isShared(bType))
    return emitOpError() << "expects b in shared memory "
                            "(#gpu.address_space<workgroup>), got "
                         << bType;
  if (!aType.hasStaticShape() || !bType.hasStaticShape())
    return emitOpError() << "expects statically shaped operands";
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1);
  int64_t k = aType.getDimSize(1);
  if (failed(verifyMmaShapes(*this, aType, bType, m, n, accType.getShape())))
    return failure();
  if (m % 64)
    return emitOpError() << "expects M to be a multiple of 64 (the rows of "
                            "one warpgroup's MMA), got "
                         << m;
  if (n % 8 || n > 256)
    return emitOpError() << "expects N to be a multiple of 8 up to 256, got "
                         << n;
  if (k % kStep)
    return emitOpError() << "expects K to be a multiple of " << kStep << " for "
                         << input << " inputs, got " << k;
  if (getATransforms() &&
      failed(verifyOperandTiling(*this, "a", getA().getType(),
                                 getATransformsAttr(), /*rowMultiple=*/64)))
    return failure();
  if (getBTransforms() &&
      failed(verifyOperandTiling(*this, "b", bType, getBTransformsAttr(),
                                 /*rowMultiple=*/kStep)))
    return failure();
  return success();
}

FailureOr<TiledOperand> mlir::mgpu::getTiledOperand(Operation *op,
                                                    StringRef name, Type type,
                                                    ArrayAttr transforms,
                                                    bool dynamicOffsets) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return op->emitOpError() << "has " << name << "_transforms, but " << name
                             << " is in registers";
  SmallVector<int64_t> strides;
  int64_t offset;
  // A transposed view (strides [1, s]) reads the buffer's rows as columns:
  // b K-major, or wgmma's a M-major (tcgen05's a is K-major only).
  bool transposable = name == "b" || isa<WgmmaOp>(op);
  bool transposed = succeeded(memref.getStridesAndOffset(strides, offset)) &&
                    memref.getRank() == 2 && strides[0] == 1 &&
                    strides[1] != 1 && transposable;
  // The transforms tile the buffer the view transposes: check them against
  // its rows and columns (a non-square transposed b, as 8-bit MMAs read).
  FailureOr<SwizzledTiling> tiling = getSwizzledTiling(
      op, name, transforms, transposed ? getStoredType(memref) : memref);
  if (failed(tiling))
    return failure();
  int64_t rowStride = transposed ? strides[1] : strides[0];
  int64_t unitStride = transposed ? strides[0] : strides[1];
  bool dynamic = ShapedType::isDynamic(offset);
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      (dynamic && !dynamicOffsets) || ShapedType::isDynamic(rowStride) ||
      unitStride != 1 || rowStride % tiling->cols)
    return op->emitOpError()
           << "expects " << name << " with transforms to be a row-major view "
           << (dynamicOffsets ? "" : "with static offset ")
           << "and a row stride that is a multiple of its tile's columns"
           << (transposable ? ", or the transpose of one" : "") << ", got "
           << type;
  if (dynamic)
    return TiledOperand{*tiling,   rowStride, 0, 0, /*dynamicOffset=*/true,
                        transposed};
  // getSwizzledTiling checked that the view starts at a tile.
  return TiledOperand{*tiling,
                      rowStride,
                      offset / rowStride,
                      offset % rowStride,
                      /*dynamicOffset=*/false,
                      transposed};
}

std::optional<int64_t>
mlir::mgpu::getTiledGroupStride(const TiledOperand &tiled, int64_t span) {
  const SwizzledTiling &tiling = tiled.tiling;
  int64_t tilesPerRow = tiled.width / tiling.cols;
  int64_t atomBytes = 8 * tiling.swizzleBytes;
  if (tilesPerRow == 1 || tiling.rows % span == 0)
    return atomBytes;
  if (tiling.rows == 8)
    return tilesPerRow * tiling.tileBytes();
  return std::nullopt;
}

/// An operand read in its tiled layout: a tile-aligned view whose MMAs
/// read `rowMultiple` rows at a time in evenly spaced 8-row groups.
static LogicalResult verifyOperandTiling(WgmmaOp op, StringRef name, Type type,
                                         ArrayAttr transforms,
                                         int64_t rowMultiple) {
  Type element = getElementTypeOrSelf(type);
  bool eightBit = isa<Float8E4M3FNType, Float8E5M2Type>(element);
  bool tf32 = element.isF32();
  if (!isa<Float16Type, BFloat16Type>(element) && !eightBit && !tf32)
    return op.emitOpError()
           << "reads tiled operands of f16, bf16, f8E4M3FN, f8E5M2 or f32 "
              "(as tf32) only, got "
           << element;
  FailureOr<TiledOperand> tiled =
      getTiledOperand(op, name, type, transforms, /*dynamicOffsets=*/true);
  if (failed(tiled))
    return failure();
  // PTX's wgmma reads 8-bit and tf32 operands K-major only: a as stored,
  // b as the transpose of a buffer of N rows of K (plgpu.transpose_ref).
  if ((eightBit || tf32) && tiled->transposed != (name == "b"))
    return op.emitOpError()
           << "reads a tiled " << (tf32 ? "32" : "8") << "-bit " << name
           << " K-major only (PTX's wgmma): "
           << (name == "b" ? "b must be a transposed view of a buffer of N "
                             "rows of K (plgpu.transpose_ref)"
                           : "a must not be transposed");
  // A transposed b is read K-major: each MMA reads all N rows of its
  // buffer; a transposed a M-major: each MMA reads 16 K rows of it.
  if (tiled->transposed)
    rowMultiple = name == "b" ? cast<ShapedType>(type).getDimSize(1) : 16;
  if (!getTiledGroupStride(*tiled, rowMultiple))
    return op.emitOpError()
           << "expects the 8-row groups each MMA reads of " << name
           << " to be evenly spaced: tiles of 8 rows, of a multiple of "
           << rowMultiple
           << " rows, or one tile per row of tiles; got tiles of "
           << tiled->tiling.rows << " rows, "
           << tiled->width / tiled->tiling.cols << " per row";
  return success();
}

void WgmmaOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isa<MemRefType>(getA().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getAMutable(),
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult WgmmaWaitOp::verify() {
  // wgmma.wait_group takes a count in [0, 7] in practice; PTX allows any
  // immediate, but more than 7 groups in flight do not fit the registers.
  return verifyGroupWait(*this, getPending(), 7, "wgmma groups");
}

LogicalResult WgmmaRegisterAOp::verify() {
  // A lane holds 8 elements of a's 64 x 16 tile and N / 2 accumulator
  // registers (N a multiple of 8 up to 256).
  if (getA().getType().getNumElements() != 8)
    return emitOpError() << "takes a lane's 8 elements of a 64 x 16 a tile, "
                            "got "
                         << getA().getType();
  int64_t registers = getAcc().getType().getNumElements();
  if (registers % 4 || registers > 128)
    return emitOpError() << "takes N / 2 accumulator registers for N a "
                            "multiple of 8 up to 256, got "
                         << getAcc().getType();
  return success();
}

LogicalResult WgmmaSharedOp::verify() {
  int64_t registers = getAcc().getType().getNumElements();
  if (registers % 4 || registers > 128)
    return emitOpError() << "takes N / 2 accumulator registers for N a "
                            "multiple of 8 up to 256, got "
                         << getAcc().getType();
  Type a = getAType(), b = getBType();
  auto sixteenBit = [](Type t) { return t.isF16() || t.isBF16(); };
  auto eightBit = [](Type t) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(t);
  };
  // wgmma.mma_async's input pairs: 16-bit or tf32 alike, or any two 8-bit
  // floats; only 16-bit inputs may be MN-major.
  bool pair =
      (sixteenBit(a) || a.isF32()) ? a == b : eightBit(a) && eightBit(b);
  if (!pair)
    return emitOpError() << "takes f16, bf16 or f32 (tf32) inputs of one "
                            "type, or two 8-bit floats, got "
                         << a << " and " << b;
  if ((getAMnMajor() || getBMnMajor()) && !sixteenBit(a))
    return emitOpError() << "reads " << a << " inputs K-major only";
  return success();
}

LogicalResult SetMaxRegistersOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  int64_t count = static_cast<int64_t>(getCount());
  if (count < 24 || count > 256 || count % 8)
    return emitOpError() << "sets a register budget that is a multiple of 8 "
                            "in [24, 256] (setmaxnreg), got "
                         << getCount();
  return success();
}

LogicalResult mlir::mgpu::verifyMmaShapes(Operation *op, ShapedType a,
                                          ShapedType b, int64_t m, int64_t n,
                                          ArrayRef<int64_t> accShape) {
  int64_t k = a.getDimSize(1);
  if (a.getDimSize(0) == m && b.getDimSize(0) == k && b.getDimSize(1) == n)
    return success();
  return op->emitOpError() << "expects a (M x K) x b (K x N) + acc (M x N), "
                              "got a "
                           << formatTuple(a.getShape()) << ", b "
                           << formatTuple(b.getShape()) << ", acc "
                           << formatTuple(accShape);
}
