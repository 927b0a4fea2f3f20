//===- PackSubByte.cpp - 4-bit elements stored two to a byte --------------===//
//
// The pass that gives elements narrower than a byte their storage: 6-bit
// elements one to a byte (WidenSixBit.cpp) and 4-bit ones two to a byte.
// JAX stores int4, uint4 and float4_e2m1fn arrays two elements to a byte,
// element 2k in the low nibble of byte k. Every backend addresses memory in
// bytes (TMA boxes, staging copies, the host runtime, LLVM's GEPs), so this
// pass rewrites the module, host code and kernels alike, before anything
// addresses a 4-bit memref: such a memref becomes an i8 memref with half as
// many innermost elements, block specs and tilings follow, and accesses
// become byte accesses. Vector values keep their 4-bit element type (LLVM
// holds them in registers); a vector read becomes a read of 2-byte pairs,
// a `vector.bitcast` to 4-nibble groups and a `vector.shape_cast`, which the
// warpgroup distribution keeps on one lane (a lane's chunk of 2 bytes is
// the same lane's chunk of 4 nibbles). Writes are the mirror image, whole
// bytes per lane. Scalar loads are a byte load and a shift; scalar stores
// read, modify and write the byte, which only host code may do (lanes of
// a kernel would race on the byte). What cannot be stored so is refused
// first, at its op (CheckPackable.cpp).
//
//===----------------------------------------------------------------------===//

#include "SubByteStorage.h"
#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPACKSUBBYTE
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// memref<... x N x i4> -> memref<... x N/2 x i8>, strides and offset
/// halved likewise.
std::optional<Type> packMemRef(MemRefType type) {
  if (!isNibble(type.getElementType()))
    return type;
  if (!whyNotPackable(type).empty())
    return std::nullopt;
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= 2;
  Type i8 = IntegerType::get(type.getContext(), 8);
  if (type.getLayout().isIdentity())
    return MemRefType::get(shape, i8, MemRefLayoutAttrInterface(),
                           type.getMemorySpace());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  for (int64_t &s : MutableArrayRef(strides).drop_back())
    s /= 2;
  auto layout = StridedLayoutAttr::get(type.getContext(), offset / 2, strides);
  return MemRefType::get(shape, i8, layout, type.getMemorySpace());
}

/// The nibble `value` (4-bit int or float) as the low bits of an i8.
Value nibbleToByte(OpBuilder &b, Location loc, Value value) {
  Type i4 = b.getIntegerType(4);
  if (value.getType() != i4)
    value = arith::BitcastOp::create(b, loc, i4, value);
  return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
}

/// (index, shift): the byte of element `index` and the bit its nibble
/// starts at.
std::pair<Value, Value> byteAndShift(OpBuilder &b, Location loc, Value index) {
  Value two = arith::ConstantIndexOp::create(b, loc, 2);
  Value byte = arith::DivUIOp::create(b, loc, index, two);
  Value odd = arith::RemUIOp::create(b, loc, index, two);
  Value shift = arith::MulIOp::create(
      b, loc, odd, arith::ConstantIndexOp::create(b, loc, 4));
  return {byte, arith::IndexCastOp::create(b, loc, b.getI8Type(), shift)};
}

/// A memref.load or memref.store of a nibble: `lower` gets the byte's
/// indices, the nibble's bit shift in it and the byte as it is.
template <typename OpTy> struct PackScalar : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isNibbleMemRef(op.getMemRefType()))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> indices(adaptor.getIndices());
    auto [byteIndex, shift] = byteAndShift(rewriter, loc, indices.back());
    indices.back() = byteIndex;
    Value byte =
        memref::LoadOp::create(rewriter, loc, adaptor.getMemref(), indices);
    lower(op, adaptor, indices, shift, byte, rewriter);
    return success();
  }
  virtual void lower(OpTy op, OpAdaptor adaptor, ValueRange indices,
                     Value shift, Value byte,
                     ConversionPatternRewriter &rewriter) const = 0;
};

/// memref.load of a nibble: the byte, shifted down, truncated.
struct PackLoad : PackScalar<memref::LoadOp> {
  using PackScalar::PackScalar;
  void lower(memref::LoadOp op, OpAdaptor, ValueRange, Value shift, Value byte,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bits = arith::ShRUIOp::create(rewriter, loc, byte, shift);
    Value nibble = arith::TruncIOp::create(rewriter, loc,
                                           rewriter.getIntegerType(4), bits);
    if (nibble.getType() != op.getType())
      nibble = arith::BitcastOp::create(rewriter, loc, op.getType(), nibble);
    rewriter.replaceOp(op, nibble);
  }
};

/// memref.store of a nibble in host code: read, modify and write the byte.
struct PackStore : PackScalar<memref::StoreOp> {
  using PackScalar::PackScalar;
  void lower(memref::StoreOp op, OpAdaptor adaptor, ValueRange indices,
             Value shift, Value old,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value mask = arith::ShLIOp::create(
        rewriter, loc, arith::ConstantIntOp::create(rewriter, loc, 0xF, 8),
        shift);
    Value kept = arith::AndIOp::create(
        rewriter, loc, old,
        arith::XOrIOp::create(
            rewriter, loc, mask,
            arith::ConstantIntOp::create(rewriter, loc, 0xFF, 8)));
    Value placed = arith::ShLIOp::create(
        rewriter, loc, nibbleToByte(rewriter, loc, adaptor.getValue()), shift);
    Value byte = arith::OrIOp::create(rewriter, loc, kept, placed);
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, byte, adaptor.getMemref(),
                                                 indices);
  }
};

/// The view of a packed memref whose innermost bytes are split in pairs:
/// [..., N/2] -> [..., N/4, 2].
Value pairView(OpBuilder &b, Location loc, Value packed) {
  auto type = cast<MemRefType>(packed.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t last = shape.back();
  shape.back() = last / 2;
  shape.push_back(2);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    groups.push_back({d});
  groups.push_back({type.getRank() - 1, type.getRank()});
  return memref::ExpandShapeOp::create(b, loc, shape, packed, groups);
}

/// Whether a transfer of `vector` nibbles from `memref` at innermost index
/// `index` can move 2-byte pairs: a minor identity map, no mask, innermost
/// sizes multiples of 4, the index too where it is a constant.
LogicalResult checkTransfer(VectorTransferOpInterface op, Value index,
                            ConversionPatternRewriter &rewriter) {
  auto fail = [&](const Twine &why) {
    return rewriter.notifyMatchFailure(op, why);
  };
  VectorType vector = op.getVectorType();
  auto memref = cast<MemRefType>(op.getShapedType());
  if (!op.getPermutationMap().isMinorIdentity() || op.getMask())
    return fail("transfer of nibbles with a permutation or a mask");
  if (vector.getRank() == 0 || vector.getShape().back() % 4 ||
      memref.getShape().back() % 4)
    return fail("innermost sizes are not multiples of 4");
  if (std::optional<int64_t> c = getConstantIntValue(index); c && *c % 4)
    return fail("innermost index is not a multiple of 4");
  return success();
}

/// The transfer's indices on the pair view: the innermost index / 4, then 0.
SmallVector<Value> pairIndices(OpBuilder &b, Location loc, ValueRange indices) {
  SmallVector<Value> result(indices);
  result.back() = arith::DivUIOp::create(
      b, loc, result.back(), arith::ConstantIndexOp::create(b, loc, 4));
  result.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  return result;
}

/// [..., V/4, 2] x i8 <-> [..., V/4, 4] x nibble <-> [..., V] x nibble.
VectorType groupedType(VectorType vector, int64_t inner, Type element) {
  SmallVector<int64_t> shape(vector.getShape());
  shape.back() /= 4;
  shape.push_back(inner);
  return VectorType::get(shape, element);
}

SmallVector<bool> pairInBounds(VectorTransferOpInterface op) {
  SmallVector<bool> inBounds;
  for (unsigned i = 0; i < op.getVectorType().getRank(); ++i)
    inBounds.push_back(op.isDimInBounds(i));
  inBounds.push_back(true);
  return inBounds;
}

/// The host's form of a transfer (--mgpu-to-cpu computes on whole blocks,
/// in loops over chunks that know no bitcast): the nibbles go through a
/// byte-per-element buffer of the vector's shape, filled or drained by
/// scalar loops over the elements, so that the vector itself only meets
/// elementwise conversions (trunci, extui). Each element is bounds-checked
/// where the transfer may leave the memref: padding in, dropped out.
struct ScalarLoops {
  ConversionPatternRewriter &b;
  Location loc;
  VectorTransferOpInterface op;
  Value packed;
  ValueRange indices;

  /// Calls `body(position, element index)` for every element of the
  /// vector inside the memref; `outside(position)` for the others.
  void forEachElement(function_ref<void(ValueRange, ValueRange)> body,
                      function_ref<void(ValueRange)> outside) {
    VectorType vector = op.getVectorType();
    int64_t offset =
        cast<MemRefType>(packed.getType()).getRank() - vector.getRank();
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t size : vector.getShape()) {
      lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(b, loc, size));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    scf::buildLoopNest(
        b, loc, lbs, ubs, steps, [&](OpBuilder &, Location, ValueRange ivs) {
          SmallVector<Value> at(indices);
          Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
          for (auto [i, iv] : llvm::enumerate(ivs)) {
            int64_t d = offset + i;
            at[d] = arith::AddIOp::create(b, loc, at[d], iv);
            if (op.isDimInBounds(i))
              continue;
            Value size = memref::DimOp::create(b, loc, packed, d);
            if (d + 1 == (int64_t)at.size())
              size = arith::MulIOp::create(
                  b, loc, size, arith::ConstantIndexOp::create(b, loc, 2));
            inside = arith::AndIOp::create(
                b, loc, inside,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at[d],
                                      size));
          }
          auto branch = scf::IfOp::create(b, loc, inside, /*else=*/true);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(branch.thenBlock());
          body(ivs, at);
          b.setInsertionPointToStart(branch.elseBlock());
          outside(ivs);
        });
  }
};

/// The nibble of element `at` of packed memref `packed`, as the low bits
/// of an i8.
Value loadNibbleByte(OpBuilder &b, Location loc, Value packed, ValueRange at) {
  SmallVector<Value> indices(at);
  auto [byteIndex, shift] = byteAndShift(b, loc, indices.back());
  indices.back() = byteIndex;
  Value byte = memref::LoadOp::create(b, loc, packed, indices);
  return arith::AndIOp::create(b, loc,
                               arith::ShRUIOp::create(b, loc, byte, shift),
                               arith::ConstantIntOp::create(b, loc, 0xF, 8));
}

/// Replaces the nibble in byte `at` / 2 of `packed` by the low bits of
/// `value` (an i8).
void storeNibbleByte(OpBuilder &b, Location loc, Value packed, ValueRange at,
                     Value value) {
  SmallVector<Value> indices(at);
  auto [byteIndex, shift] = byteAndShift(b, loc, indices.back());
  indices.back() = byteIndex;
  Value old = memref::LoadOp::create(b, loc, packed, indices);
  Value mask = arith::ShLIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, 0xF, 8), shift);
  Value kept = arith::AndIOp::create(
      b, loc, old,
      arith::XOrIOp::create(b, loc, mask,
                            arith::ConstantIntOp::create(b, loc, 0xFF, 8)));
  Value low = arith::AndIOp::create(
      b, loc, value, arith::ConstantIntOp::create(b, loc, 0xF, 8));
  Value placed = arith::ShLIOp::create(b, loc, low, shift);
  memref::StoreOp::create(b, loc, arith::OrIOp::create(b, loc, kept, placed),
                          packed, indices);
}

/// A byte-per-element host buffer of `vector`'s shape, freed at the end of
/// the enclosing block (reads of it may be deferred to their uses).
Value allocateBytes(ConversionPatternRewriter &b, Location loc, Operation *op,
                    VectorType vector) {
  auto type = MemRefType::get(vector.getShape(), b.getI8Type());
  Value buffer = memref::AllocOp::create(b, loc, type);
  OpBuilder::InsertionGuard guard(b);
  Block *block = op->getBlock();
  if (block->mightHaveTerminator())
    b.setInsertionPoint(block->getTerminator());
  else
    b.setInsertionPointToEnd(block);
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

/// A transfer of a 4-bit memref: with `scalarLoops`, through byte buffers
/// that scalar loops fill or drain (interpret mode), else by bitcasts of
/// pairs of nibbles. The two transfers say how in `rewriteWithLoops` and
/// `rewriteWithBitcasts`.
template <typename TransferOp>
struct PackTransfer : OpConversionPattern<TransferOp> {
  using OpAdaptor = typename OpConversionPattern<TransferOp>::OpAdaptor;
  PackTransfer(const TypeConverter &converter, MLIRContext *ctx,
               bool scalarLoops)
      : OpConversionPattern<TransferOp>(converter, ctx),
        scalarLoops(scalarLoops) {}
  bool scalarLoops;

  LogicalResult
  matchAndRewrite(TransferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Transfers that move nibbles in a way the pass cannot rewrite are
    // reported at the op.
    if (!isNibbleMemRef(op.getShapedType()) ||
        failed(checkTransfer(op, op.getIndices().back(), rewriter)))
      return failure();
    if (scalarLoops)
      rewriteWithLoops(op, adaptor, rewriter);
    else
      rewriteWithBitcasts(op, adaptor, rewriter);
    return success();
  }
  virtual void rewriteWithLoops(TransferOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const = 0;
  virtual void
  rewriteWithBitcasts(TransferOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const = 0;

  /// The origin of the byte buffer of `rewriteWithLoops`.
  static SmallVector<Value> zeros(OpBuilder &b, Location loc, int64_t rank) {
    return SmallVector<Value>(rank, arith::ConstantIndexOp::create(b, loc, 0));
  }
};

struct PackTransferRead : PackTransfer<vector::TransferReadOp> {
  using PackTransfer::PackTransfer;

  void rewriteWithLoops(vector::TransferReadOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType vector = op.getVectorType();
    Value bytes = allocateBytes(rewriter, loc, op, vector);
    Value pad = nibbleToByte(rewriter, loc, adaptor.getPadding());
    ScalarLoops{rewriter, loc, op, adaptor.getBase(), adaptor.getIndices()}
        .forEachElement(
            [&](ValueRange ivs, ValueRange at) {
              memref::StoreOp::create(
                  rewriter, loc,
                  loadNibbleByte(rewriter, loc, adaptor.getBase(), at), bytes,
                  ivs);
            },
            [&](ValueRange ivs) {
              memref::StoreOp::create(rewriter, loc, pad, bytes, ivs);
            });
    Value read = vector::TransferReadOp::create(
        rewriter, loc, vector.clone(rewriter.getI8Type()), bytes,
        zeros(rewriter, loc, vector.getRank()),
        arith::ConstantIntOp::create(rewriter, loc, 0, 8),
        SmallVector<bool>(vector.getRank(), true));
    Value nibbles = arith::TruncIOp::create(
        rewriter, loc, vector.clone(rewriter.getIntegerType(4)), read);
    if (nibbles.getType() != vector)
      nibbles = arith::BitcastOp::create(rewriter, loc, vector, nibbles);
    rewriter.replaceOp(op, nibbles);
  }

  void rewriteWithBitcasts(vector::TransferReadOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType vector = op.getVectorType();
    Value view = pairView(rewriter, loc, adaptor.getBase());
    // The padding nibble in both halves of a byte.
    Value pad = nibbleToByte(rewriter, loc, adaptor.getPadding());
    Value four = arith::ConstantIntOp::create(rewriter, loc, 4, 8);
    pad = arith::OrIOp::create(rewriter, loc, pad,
                               arith::ShLIOp::create(rewriter, loc, pad, four));
    VectorType bytes = groupedType(vector, 2, rewriter.getI8Type());
    Value read = vector::TransferReadOp::create(
        rewriter, loc, bytes, view,
        pairIndices(rewriter, loc, adaptor.getIndices()), pad,
        pairInBounds(op));
    Value nibbles = vector::BitCastOp::create(
        rewriter, loc, groupedType(vector, 4, vector.getElementType()), read);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, vector, nibbles);
  }
};

struct PackTransferWrite : PackTransfer<vector::TransferWriteOp> {
  using PackTransfer::PackTransfer;

  void rewriteWithLoops(vector::TransferWriteOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType vector = op.getVectorType();
    Value value = adaptor.getValueToStore();
    Type i4 = vector.clone(rewriter.getIntegerType(4));
    if (value.getType() != i4)
      value = arith::BitcastOp::create(rewriter, loc, i4, value);
    value = arith::ExtUIOp::create(rewriter, loc,
                                   vector.clone(rewriter.getI8Type()), value);
    Value bytes = allocateBytes(rewriter, loc, op, vector);
    vector::TransferWriteOp::create(rewriter, loc, value, bytes,
                                    zeros(rewriter, loc, vector.getRank()),
                                    SmallVector<bool>(vector.getRank(), true));
    ScalarLoops{rewriter, loc, op, adaptor.getBase(), adaptor.getIndices()}
        .forEachElement(
            [&](ValueRange ivs, ValueRange at) {
              storeNibbleByte(
                  rewriter, loc, adaptor.getBase(), at,
                  memref::LoadOp::create(rewriter, loc, bytes, ivs));
            },
            [](ValueRange) {});
    rewriter.eraseOp(op);
  }

  void rewriteWithBitcasts(vector::TransferWriteOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType vector = op.getVectorType();
    Value nibbles = vector::ShapeCastOp::create(
        rewriter, loc, groupedType(vector, 4, vector.getElementType()),
        adaptor.getValueToStore());
    Value bytes = vector::BitCastOp::create(
        rewriter, loc, groupedType(vector, 2, rewriter.getI8Type()), nibbles);
    Value view = pairView(rewriter, loc, adaptor.getBase());
    vector::TransferWriteOp::create(
        rewriter, loc, bytes, view,
        pairIndices(rewriter, loc, adaptor.getIndices()), pairInBounds(op));
    rewriter.eraseOp(op);
  }
};

/// A block spec of a packed operand: the innermost block size and tile
/// size halved (a swizzle is in bytes already).
BlockSpecAttr packSpec(BlockSpecAttr spec) {
  SmallVector<int64_t> shape(spec.getShape());
  shape.back() /= 2;
  SmallVector<Attribute> transforms;
  for (Attribute t : spec.getTransforms()) {
    if (auto tile = dyn_cast<TileTransformAttr>(t)) {
      SmallVector<int64_t> tiling(tile.getTiling());
      tiling.back() /= 2;
      t = TileTransformAttr::get(spec.getContext(), tiling);
    }
    transforms.push_back(t);
  }
  return BlockSpecAttr::get(spec.getContext(), shape, spec.getIndexMap(),
                            spec.getMemorySpace(), transforms,
                            spec.getDelayRelease(), spec.getIndexing(),
                            spec.getCollectiveAxes());
}

/// pallas_call and mpmd_map: operands, block specs, scratch and region
/// arguments.
template <typename OpTy> struct PackKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *this->getTypeConverter();
    // The specs follow the operands' original types.
    ArrayAttr inSpecs, outSpecs;
    if constexpr (std::is_same_v<OpTy, PallasCallOp>) {
      auto pack = [&](ArrayAttr specs, ValueRange operands) {
        SmallVector<Attribute> result;
        for (auto [attr, operand] : llvm::zip(specs, operands)) {
          auto spec = dyn_cast<BlockSpecAttr>(attr);
          result.push_back(spec && isNibbleMemRef(operand.getType())
                               ? packSpec(spec)
                               : attr);
        }
        return rewriter.getArrayAttr(result);
      };
      inSpecs = pack(op.getInSpecs(), op.getIns());
      outSpecs = pack(op.getOutSpecs(), op.getOuts());
    }
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperands(adaptor.getOperands());
      if constexpr (std::is_same_v<OpTy, PallasCallOp>) {
        op.setInSpecsAttr(inSpecs);
        op.setOutSpecsAttr(outSpecs);
      }
      if (std::optional<ArrayAttr> scratch = op.getScratch()) {
        SmallVector<Type> types;
        for (Attribute a : *scratch)
          types.push_back(converter.convertType(cast<TypeAttr>(a).getValue()));
        op.setScratchAttr(rewriter.getTypeArrayAttr(types));
      }
    });
    for (Region &region : op->getRegions())
      if (failed(rewriter.convertRegionTypes(&region, converter)))
        return failure();
    return success();
  }
};

/// Ops that only pass buffers along (allocations, casts, views of byte
/// buffers (a RefUnion's refs), copies, the kernel primitives that move
/// blocks): their types change, nothing else.
struct PackTypesOnly : ConversionPattern {
  PackTypesOnly(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() ||
        !(isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
              memref::CastOp, memref::ViewOp>(op) ||
          isa_and_nonnull<MGPUDialect>(op->getDialect()) || isViewOfSixBit(op)))
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    // A new op rather than new types in place: the patterns of its users
    // still see the original (4-bit) types.
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs(), op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

bool mentionsSubByteMemRef(Operation *op) {
  return mentionsMemRef(
      op, [](Type t) { return isNibbleMemRef(t) || isSixBitMemRef(t); });
}

struct PackSubBytePass
    : public mgpu::impl::MGPUPackSubByteBase<PackSubBytePass> {
  using Base::Base;
  void runOnOperation() override {
    Operation *root = getOperation();
    bool any = false;
    root->walk([&](Operation *op) {
      any |= mentionsSubByteMemRef(op);
      return any ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!any)
      return;
    if (failed(checkPackable(root)) || failed(checkWidenable(root)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](MemRefType type) -> std::optional<Type> {
      if (isSixBitMemRef(type))
        return widenSixBitMemRef(type);
      return packMemRef(type);
    });

    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal(
        [](Operation *op) { return !mentionsSubByteMemRef(op); });
    RewritePatternSet patterns(ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversions(converter, patterns);
    patterns.add<PackLoad, PackStore, PackKernel<PallasCallOp>,
                 PackKernel<MpmdMapOp>>(converter, ctx);
    patterns.add<PackTransferRead, PackTransferWrite>(converter, ctx,
                                                      scalarLoops);
    patterns.add<PackTypesOnly>(converter, ctx);
    populateWidenSixBitPatterns(converter, patterns);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
