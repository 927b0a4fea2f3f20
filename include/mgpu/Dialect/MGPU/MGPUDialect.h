//===- MGPUDialect.h - The mgpu dialect -------------------------*- C++ -*-===//
//
// Everything a user of the mgpu dialect includes: the dialect, its enums,
// attributes and ops, and the helpers their parsers use.
//
//===----------------------------------------------------------------------===//

#ifndef MGPU_DIALECT_MGPU_MGPUDIALECT_H
#define MGPU_DIALECT_MGPU_MGPUDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h.inc"
#include "mgpu/Dialect/MGPU/MGPUEnums.h.inc"

namespace mlir::mgpu {

// Parsers and printers of the bracketed list parameters (MGPUAttrs.td).
FailureOr<SmallVector<int64_t>> parseI64List(AsmParser &parser);
FailureOr<SmallVector<int64_t>> parseBlockShape(AsmParser &parser);
void printBlockShape(AsmPrinter &printer, ArrayRef<int64_t> shape);
void printI64List(AsmPrinter &printer, ArrayRef<int64_t> values);
FailureOr<SmallVector<StringAttr>> parseNameList(AsmParser &parser);
void printNameList(AsmPrinter &printer, ArrayRef<StringAttr> names);
FailureOr<SmallVector<DimensionSemantics>>
parseSemanticsList(AsmParser &parser);
void printSemanticsList(AsmPrinter &printer,
                        ArrayRef<DimensionSemantics> values);
FailureOr<SmallVector<BlockIndexing>> parseIndexingList(AsmParser &parser);
void printIndexingList(AsmPrinter &printer, ArrayRef<BlockIndexing> values);
FailureOr<bool> parseBool(AsmParser &parser);
FailureOr<int64_t> parseInt64(AsmParser &parser);
FailureOr<SmallVector<Attribute>> parseTransformList(AsmParser &parser);
void printTransformList(AsmPrinter &printer, ArrayRef<Attribute> transforms);

// Optional `[offsets]` of a window (copy_gmem_to_smem, copy_smem_to_gmem).
ParseResult
parseWindowOffsets(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
                   DenseI64ArrayAttr &integers);
void printWindowOffsets(OpAsmPrinter &printer, Operation *op,
                        OperandRange values, DenseI64ArrayAttr integers);

// A result type that is written once, as the type of an operand (layout_cast,
// wgmma). The verifiers, not a type constraint, check that the two agree, so
// that generic IR where they differ gets a message naming both.
ParseResult parseSameType(OpAsmParser &parser, Type &result, Type operand);
void printSameType(OpAsmPrinter &printer, Operation *op, Type result,
                   Type operand);

} // namespace mlir::mgpu

#define GET_ATTRDEF_CLASSES
#include "mgpu/Dialect/MGPU/MGPUAttrs.h.inc"

#include "mgpu/Dialect/MGPU/MGPUTypeInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mgpu/Dialect/MGPU/MGPUTypes.h.inc"

#include "mgpu/Dialect/MGPU/MGPUTraits.h"

#define GET_OP_CLASSES
#include "mgpu/Dialect/MGPU/MGPUOps.h.inc"

#endif // MGPU_DIALECT_MGPU_MGPUDIALECT_H
