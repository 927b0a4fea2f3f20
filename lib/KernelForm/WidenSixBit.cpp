//===- WidenSixBit.cpp - 6-bit elements stored one to a byte
//---------------===//
//
// JAX's float6_e2m3fn and float6_e3m2fn arrays hold one element per byte,
// in its low 6 bits (Mosaic GPU's `p2b6`). Every backend addresses bytes,
// and LLVM packs a vector of i6 bitwise, so --mgpu-pack-sub-byte gives a
// memref of 6-bit elements the i8 element type, shape and layout
// unchanged, and these patterns make its accesses byte accesses: a read
// is truncated to 6 bits and bitcast back to the float type, a written
// value is bitcast and zero-extended. Unlike 4-bit elements, no element
// shares a byte, so a lane may store one alone and transfers keep their
// shape, permutation and mask; the distribution sees ordinary byte
// vectors and elementwise conversions.
//
//===----------------------------------------------------------------------===//

#include "SubByteStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mgpu;

bool mlir::mgpu::isSixBit(Type type) {
  return isa<Float6E2M3FNType, Float6E3M2FNType>(type);
}

bool mlir::mgpu::isSixBitMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isSixBit(memref.getElementType());
}

Type mlir::mgpu::widenSixBitMemRef(MemRefType type) {
  if (!isSixBit(type.getElementType()))
    return type;
  return MemRefType::get(type.getShape(),
                         IntegerType::get(type.getContext(), 8),
                         type.getLayout(), type.getMemorySpace());
}

/// Views and copies of 6-bit memrefs, whose layout the widening keeps
/// (views and copies of 4-bit ones are refused before the conversion), and
/// 6-bit views of byte buffers (one byte per element already).
bool mlir::mgpu::isViewOfSixBit(Operation *op) {
  return isa<memref::SubViewOp, memref::ReinterpretCastOp,
             memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CopyOp,
             memref::TransposeOp, memref::MemorySpaceCastOp, memref::ViewOp>(
             op) &&
         (llvm::any_of(op->getOperandTypes(), isSixBitMemRef) ||
          llvm::any_of(op->getResultTypes(), isSixBitMemRef));
}

namespace {

/// `type` (a 6-bit float, or a vector of them) with `element` instead.
Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// A 6-bit value (scalar or vector) as the low bits of bytes.
Value toBytes(OpBuilder &b, Location loc, Value value) {
  Value bits = arith::BitcastOp::create(
      b, loc, withElement(value.getType(), b.getIntegerType(6)), value);
  return arith::ExtUIOp::create(
      b, loc, withElement(value.getType(), b.getI8Type()), bits);
}

/// Bytes read from memory as the 6-bit values of `type`.
Value fromBytes(OpBuilder &b, Location loc, Value bytes, Type type) {
  Value bits = arith::TruncIOp::create(
      b, loc, withElement(type, b.getIntegerType(6)), bytes);
  return arith::BitcastOp::create(b, loc, type, bits);
}

/// `op` again on the converted operands, `operands[index]` (a value to
/// store or a padding value) as bytes, and its result as bytes.
Operation *recreateOnBytes(ConversionPatternRewriter &rewriter, Operation *op,
                           ValueRange adapted, unsigned index) {
  SmallVector<Value> operands(adapted);
  if (index < operands.size())
    operands[index] = toBytes(rewriter, op->getLoc(), operands[index]);
  SmallVector<Type> results;
  for (Type t : op->getResultTypes())
    results.push_back(withElement(t, rewriter.getI8Type()));
  OperationState state(op->getLoc(), op->getName(), operands, results,
                       op->getAttrs());
  return rewriter.create(state);
}

/// A read or a write of a six-bit memref, recreated on bytes. Reads
/// (memref.load, vector.load, vector.transfer_read) have the memref first
/// and a transfer's padding value after the indices; writes
/// (memref.store, vector.store, vector.transfer_write) the value first.
struct WidenAccess : ConversionPattern {
  WidenAccess(const TypeConverter &converter, MLIRContext *ctx,
              StringRef opName)
      : ConversionPattern(converter, opName, /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool isRead = op->getNumResults() == 1;
    if (!isSixBitMemRef(op->getOperand(isRead ? 0 : 1).getType()))
      return failure();
    unsigned bytesOperand = 0;
    if (auto transfer = dyn_cast<vector::TransferReadOp>(op))
      bytesOperand = transfer.getPaddingMutable().getOperandNumber();
    else if (isRead)
      bytesOperand = ~0u;
    Operation *access = recreateOnBytes(rewriter, op, operands, bytesOperand);
    if (!isRead) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOp(op,
                       fromBytes(rewriter, op->getLoc(), access->getResult(0),
                                 op->getResult(0).getType()));
    return success();
  }
};

} // namespace

void mlir::mgpu::populateWidenSixBitPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name :
       {memref::LoadOp::getOperationName(), vector::LoadOp::getOperationName(),
        vector::TransferReadOp::getOperationName(),
        memref::StoreOp::getOperationName(),
        vector::StoreOp::getOperationName(),
        vector::TransferWriteOp::getOperationName()})
    patterns.add<WidenAccess>(converter, ctx, name);
}

LogicalResult mlir::mgpu::checkWidenable(Operation *op) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (!isa<vector::MaskedLoadOp, vector::MaskedStoreOp, vector::GatherOp,
             vector::ScatterOp, vector::ExpandLoadOp, vector::CompressStoreOp,
             memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(inner) ||
        !llvm::any_of(inner->getOperandTypes(), isSixBitMemRef))
      return WalkResult::advance();
    inner->emitOpError()
        << "is not supported on memrefs of 6-bit elements (stored one to a "
           "byte); use memref.load/store, vector.load/store or "
           "vector.transfer_read/write";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
