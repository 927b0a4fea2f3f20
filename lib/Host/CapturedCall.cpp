//===- CapturedCall.cpp - Host functions called back from the runtime -----===//
//
// Packs captured values into a stack struct of their LLVM forms and unpacks
// them in the called function (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/CapturedCall.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::mgpu;

FailureOr<CapturedFunction> mlir::mgpu::createCapturedFunction(
    OpBuilder &b, Operation *anchor, ModuleOp module, StringRef name,
    ArrayRef<Value> captures, TypeRange extra, IRMapping &mapping) {
  MLIRContext *ctx = b.getContext();
  Location loc = anchor->getLoc();
  // The forms --convert-func-to-llvm and --finalize-memref-to-llvm give
  // (64-bit index, memref descriptors), so that the casts cancel out.
  LLVMTypeConverter converter(ctx);
  SmallVector<Value> packed;
  SmallVector<Type> fields;
  for (Value value : captures) {
    if (matchPattern(value, m_Constant()))
      continue;
    Type field = converter.convertType(value.getType());
    if (!field)
      return anchor->emitOpError()
             << "cannot be emulated: it uses a value of type "
             << value.getType() << ", which has no LLVM form";
    packed.push_back(value);
    fields.push_back(field);
  }
  auto pointerType = LLVM::LLVMPointerType::get(ctx);
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto fieldAt = [&](OpBuilder &fb, Value base, int32_t i) -> Value {
    return LLVM::GEPOp::create(fb, loc, pointerType, structType, base,
                               ArrayRef<LLVM::GEPArg>{0, i});
  };

  CapturedFunction result;
  result.stack = LLVM::StackSaveOp::create(b, loc, pointerType);
  result.pointer = LLVM::AllocaOp::create(
      b, loc, pointerType, structType,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), 1));
  // Between a value and its LLVM form (none where they are one type).
  auto convert = [&](OpBuilder &cb, Value value, Type type) -> Value {
    if (value.getType() == type)
      return value;
    return UnrealizedConversionCastOp::create(cb, loc, type, value)
        .getResult(0);
  };
  for (auto [i, value] : llvm::enumerate(packed))
    LLVM::StoreOp::create(b, loc, convert(b, value, fields[i]),
                          fieldAt(b, result.pointer, i));

  SmallVector<Type> arguments = {pointerType};
  llvm::append_range(arguments, extra);
  OpBuilder fb(ctx);
  result.func =
      func::FuncOp::create(fb, loc, name, fb.getFunctionType(arguments, {}));
  result.func.setPrivate();
  SymbolTable(module).insert(result.func);
  Block *entry = result.func.addEntryBlock();
  fb.setInsertionPointToStart(entry);
  Value base = entry->getArgument(0);
  for (Value value : captures) {
    if (!matchPattern(value, m_Constant()))
      continue;
    Operation *constant = fb.clone(*value.getDefiningOp());
    mapping.map(value,
                constant->getResult(cast<OpResult>(value).getResultNumber()));
  }
  for (auto [i, value] : llvm::enumerate(packed)) {
    Value form = LLVM::LoadOp::create(fb, loc, fields[i], fieldAt(fb, base, i));
    mapping.map(value, convert(fb, form, value.getType()));
  }
  return result;
}
