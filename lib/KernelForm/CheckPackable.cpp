//===- CheckPackable.cpp - What 4-bit storage two to a byte refuses -------===//
//
// --mgpu-pack-sub-byte stores 4-bit elements two to a byte (JAX's packing);
// this is the part of it that decides, before any rewrite, whether a
// module can be stored so: a memref whose innermost size, strides or offset
// would split a byte, a block spec or tiling of odd width, one element
// stored by a lane of a kernel (its byte is shared with a neighbour another
// lane may write), and ops that address single elements. Each is refused
// at its op with the reason (SubByteStorage.h).
//
//===----------------------------------------------------------------------===//

#include "SubByteStorage.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace mlir::mgpu {

/// i4 and f4E2M1FN: the element types stored two to a byte.
bool isNibble(Type type) {
  return (isa<IntegerType>(type) || isa<FloatType>(type)) &&
         type.getIntOrFloatBitWidth() == 4;
}

bool isNibbleMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isNibble(memref.getElementType());
}

/// Why a memref of nibbles cannot be stored two to a byte, or empty.
std::string whyNotPackable(MemRefType type) {
  if (type.getRank() == 0)
    return "a rank-0 memref holds half a byte";
  int64_t last = type.getShape().back();
  if (ShapedType::isDynamic(last) || last % 2)
    return "its innermost size must be static and even (two elements share "
           "a byte)";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return "its innermost dimension must be contiguous";
  for (int64_t s : ArrayRef(strides).drop_back())
    if (ShapedType::isDynamic(s) || s % 2)
      return "its strides must be static and even";
  if (ShapedType::isDynamic(offset) || offset % 2)
    return "its offset must be static and even";
  return "";
}

/// Why the block spec of a nibble operand cannot be packed, or empty.
std::string whyNotPackable(BlockSpecAttr spec) {
  int64_t last = spec.getShape().back();
  if (ShapedType::isDynamic(last) || last % 2)
    return "its block's innermost size must be even";
  for (Attribute t : spec.getTransforms()) {
    if (isa<TransposeTransformAttr>(t))
      return "a transposed block of 4-bit elements is not supported";
    if (auto tile = dyn_cast<TileTransformAttr>(t);
        tile && tile.getTiling().back() % 2)
      return "its tiling's innermost size must be even";
  }
  return "";
}

bool mentionsMemRef(Operation *op, function_ref<bool(Type)> matches) {
  if (llvm::any_of(op->getOperandTypes(), matches) ||
      llvm::any_of(op->getResultTypes(), matches))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArgumentTypes(), matches))
        return true;
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return llvm::any_of(func.getArgumentTypes(), matches) ||
           llvm::any_of(func.getResultTypes(), matches);
  return false;
}

bool mentionsNibbleMemRef(Operation *op) {
  return mentionsMemRef(op, isNibbleMemRef);
}

/// What the conversion cannot do, reported at the op before it starts.
LogicalResult checkPackable(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) {
    auto refuse = [&](const Twine &why) {
      op->emitOpError() << why;
      return WalkResult::interrupt();
    };
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      llvm::append_range(types, func.getArgumentTypes());
      llvm::append_range(types, func.getResultTypes());
    }
    for (Type type : types) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || !isNibble(memref.getElementType()))
        continue;
      std::string why = whyNotPackable(memref);
      if (!why.empty()) {
        op->emitOpError() << "cannot store the 4-bit elements of " << type
                          << " two to a byte: " << why;
        return WalkResult::interrupt();
      }
    }
    if (auto call = dyn_cast<PallasCallOp>(op)) {
      auto check = [&](ArrayAttr specs, ValueRange operands) -> std::string {
        for (auto [attr, operand] : llvm::zip(specs, operands))
          if (auto spec = dyn_cast<BlockSpecAttr>(attr);
              spec && isNibbleMemRef(operand.getType()))
            if (std::string why = whyNotPackable(spec); !why.empty())
              return why;
        return "";
      };
      std::string why = check(call.getInSpecs(), call.getIns());
      if (why.empty())
        why = check(call.getOutSpecs(), call.getOuts());
      if (!why.empty())
        return refuse("cannot store 4-bit elements two to a byte: " + why);
    }
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && isNibbleMemRef(store.getMemRefType()) &&
        (op->getParentOfType<PallasCallOp>() ||
         op->getParentOfType<MpmdMapOp>()))
      return refuse("cannot store one 4-bit element in a kernel: its byte "
                    "is shared with the next element, which another lane "
                    "may write; write a vector of them");
    if (auto transfer = dyn_cast<VectorTransferOpInterface>(op);
        transfer && isNibbleMemRef(transfer.getShapedType())) {
      VectorType vector = transfer.getVectorType();
      auto memref = cast<MemRefType>(transfer.getShapedType());
      std::optional<int64_t> index =
          getConstantIntValue(transfer.getIndices().back());
      if (!transfer.getPermutationMap().isMinorIdentity() ||
          transfer.getMask() || vector.getRank() == 0 ||
          vector.getShape().back() % 4 || memref.getShape().back() % 4 ||
          (index && *index % 4))
        return refuse("moves 4-bit elements only as vectors whose innermost "
                      "size, memref size and index are multiples of 4, "
                      "without a permutation or a mask");
    }
    if (isa<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
            vector::MaskedStoreOp, vector::GatherOp, vector::ScatterOp,
            memref::AtomicRMWOp, memref::GenericAtomicRMWOp, memref::CopyOp,
            memref::SubViewOp, memref::ReinterpretCastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp>(op) &&
        mentionsNibbleMemRef(op))
      return refuse("is not supported on memrefs of 4-bit elements (stored "
                    "two to a byte); use vector.transfer_read/write");
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

} // namespace mlir::mgpu
