//===- SubByteStorage.h - How elements narrower than a byte are stored ----===//
//
// --mgpu-pack-sub-byte gives every memref of elements narrower than a byte
// a byte-addressed storage type, as JAX stores them: 4-bit elements two to
// a byte (PackSubByte.cpp) and 6-bit elements one to a byte, in the low
// bits (WidenSixBit.cpp, JAX's `p2b6`). This header is what the two halves
// of the pass share.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_LIB_KERNELFORM_SUBBYTESTORAGE_H
#define MGPU_LIB_KERNELFORM_SUBBYTESTORAGE_H

#include "mgpu/Dialect/MGPU/MGPUDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::mgpu {

/// f6E2M3FN and f6E3M2FN: the element types stored one to a byte.
bool isSixBit(Type type);
bool isSixBitMemRef(Type type);

/// memref<... x f6> -> memref<... x i8>, shape, layout and memory space
/// unchanged; other types unchanged.
Type widenSixBitMemRef(MemRefType type);

/// Views and copies of 6-bit memrefs and 6-bit views of byte buffers:
/// ops whose types alone change.
bool isViewOfSixBit(Operation *op);

/// Loads, stores, vector loads, stores and transfers of memrefs of 6-bit
/// elements as byte accesses: a byte read is truncated to 6 bits and
/// bitcast; a written value is bitcast and zero-extended.
void populateWidenSixBitPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

/// What cannot store 6-bit elements one to a byte, reported at the op.
LogicalResult checkWidenable(Operation *op);

/// i4 and f4E2M1FN: the element types stored two to a byte, and memrefs
/// of them (CheckPackable.cpp).
bool isNibble(Type type);
bool isNibbleMemRef(Type type);

/// Why a memref of nibbles, or the block spec of a nibble operand, cannot
/// be stored two to a byte; empty when it can.
std::string whyNotPackable(MemRefType type);
std::string whyNotPackable(BlockSpecAttr spec);

/// Whether `op` has an operand, result, block argument or (a function)
/// signature type that `matches`; that is a memref of nibbles.
bool mentionsMemRef(Operation *op, function_ref<bool(Type)> matches);
bool mentionsNibbleMemRef(Operation *op);

/// What cannot store 4-bit elements two to a byte, reported at the op
/// before the conversion starts.
LogicalResult checkPackable(Operation *root);

} // namespace mlir::mgpu

#endif // MGPU_LIB_KERNELFORM_SUBBYTESTORAGE_H
