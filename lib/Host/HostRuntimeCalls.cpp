//===- HostRuntimeCalls.cpp - Calls into libmgpu_host_runtime -------------===//
//
// Helpers shared by the host backends to call the host runtime: function
// declarations, element pointers and location strings (see the header).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/HostRuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mgpu;

/// The module whose symbols the runtime declarations join: the closest one
/// around `op`, where its symbol references resolve (a kernel may sit in a
/// nested module).
static ModuleOp getHostModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

Value mlir::mgpu::getI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Operation *mlir::mgpu::callHostRuntime(OpBuilder &b, Operation *op,
                                       StringRef name, ValueRange args,
                                       TypeRange results) {
  ModuleOp module = getHostModule(op);
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    func = func::FuncOp::create(b, module.getLoc(), name,
                                b.getFunctionType(TypeRange(args), results));
    func.setPrivate();
  }
  return func::CallOp::create(b, op->getLoc(), func, args);
}

Value mlir::mgpu::getElementPointer(OpBuilder &b, Location loc, Value memref,
                                    ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value element = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    element = arith::AddIOp::create(
        b, loc, element, arith::MulIOp::create(b, loc, index, stride));
  unsigned bits = type.getElementType().isIndex()
                      ? 64
                      : type.getElementType().getIntOrFloatBitWidth();
  Value bytes = arith::MulIOp::create(
      b, loc, element, arith::ConstantIndexOp::create(b, loc, (bits + 7) / 8));
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, bytes));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

Value mlir::mgpu::andIndexInBounds(OpBuilder &b, Location loc, Value ok,
                                   Value zero, Value index,
                                   arith::CmpIPredicate upper, Value bound) {
  Value low =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value high = arith::CmpIOp::create(b, loc, upper, index, bound);
  return arith::AndIOp::create(b, loc, ok,
                               arith::AndIOp::create(b, loc, low, high));
}

Value mlir::mgpu::getCheckedElementPointer(OpBuilder &b, Location loc,
                                           Value memref, ValueRange indices) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [d, index] : llvm::enumerate(indices))
    ok = andIndexInBounds(b, loc, ok, zero, index, arith::CmpIPredicate::slt,
                          memref::DimOp::create(b, loc, memref, d));
  if (!indices.empty())
    cf::AssertOp::create(b, loc, ok, "^ out-of-bounds access");
  return getElementPointer(b, loc, memref, indices);
}

Value mlir::mgpu::getLocationString(OpBuilder &b, Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty())
    loc = fused.getLocations().front();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return getStringConstant(b, op, text);
}

Value mlir::mgpu::getStringConstant(OpBuilder &b, Operation *op,
                                    StringRef value) {
  std::string text = value.str();
  text.push_back('\0');

  ModuleOp module = getHostModule(op);
  MLIRContext *ctx = b.getContext();
  auto arrayType =
      LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
  // One global per distinct text.
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = "__mgpu_str_" + std::to_string(n);
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (value && value.getValue() == text)
      return LLVM::AddressOfOp::create(b, op->getLoc(), existing);
  }
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    global =
        LLVM::GlobalOp::create(b, module.getLoc(), arrayType,
                               /*isConstant=*/true, LLVM::Linkage::Internal,
                               name, b.getStringAttr(text));
  }
  return LLVM::AddressOfOp::create(b, op->getLoc(), global);
}

void mlir::mgpu::checkBarrierIndex(OpBuilder &b, Operation *op, Value index,
                                   int64_t count) {
  Location loc = op->getLoc();
  Value wide =
      index.getType().isIndex()
          ? Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), index))
          : index;
  callHostRuntime(b, op, "mgpuHostCheckBarrierIndex",
                  {wide, getI64(b, loc, count), getLocationString(b, op)});
}

Value mlir::mgpu::getCheckedBarrier(OpBuilder &b, Operation *op, Value barriers,
                                    Value index, int64_t count) {
  checkBarrierIndex(b, op, index, count);
  return getElementPointer(b, op->getLoc(), barriers, index);
}

void mlir::mgpu::arriveOnHostBarrier(OpBuilder &b, Operation *op, Value barrier,
                                     int64_t arrivals) {
  callHostRuntime(b, op, "mgpuHostBarrierArrive",
                  {barrier, getI64(b, op->getLoc(), arrivals)});
}

void mlir::mgpu::arriveOnCheckedBarrier(OpBuilder &b, Operation *op,
                                        Value barriers, Value index,
                                        int64_t count, int64_t arrivals) {
  arriveOnHostBarrier(b, op, getCheckedBarrier(b, op, barriers, index, count),
                      arrivals);
}

LogicalResult mlir::mgpu::lowerPrintfToHost(Operation *printfOp) {
  auto op = cast<gpu::PrintfOp>(printfOp);
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> args = {getStringConstant(b, op, op.getFormat())};
  for (Value arg : op.getArgs()) {
    Type type = arg.getType();
    if (type.isIndex()) {
      args.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), arg));
    } else if (auto integer = dyn_cast<IntegerType>(type)) {
      if (integer.getWidth() > 64)
        return op.emitOpError() << "cannot print a " << type
                                << " on the host (printf takes up to i64)";
      if (integer.getWidth() == 1)
        arg = arith::ExtUIOp::create(b, loc, b.getI32Type(), arg);
      else if (integer.getWidth() < 32)
        arg = arith::ExtSIOp::create(b, loc, b.getI32Type(), arg);
      else if (integer.getWidth() != 32 && integer.getWidth() != 64)
        arg = arith::ExtSIOp::create(b, loc, b.getI64Type(), arg);
      args.push_back(arg);
    } else if (auto real = dyn_cast<FloatType>(type)) {
      if (real.getWidth() > 64)
        return op.emitOpError() << "cannot print a " << type
                                << " on the host (printf takes up to f64)";
      args.push_back(real.getWidth() == 64
                         ? arg
                         : arith::ExtFOp::create(b, loc, b.getF64Type(), arg));
    } else {
      return op.emitOpError()
             << "cannot print a " << type << " on the host: print scalars";
    }
  }
  ModuleOp module = getHostModule(op);
  auto printfType = LLVM::LLVMFunctionType::get(
      IntegerType::get(ctx, 32), {LLVM::LLVMPointerType::get(ctx)},
      /*isVarArg=*/true);
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>("printf");
  if (!callee) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    callee = LLVM::LLVMFuncOp::create(b, module.getLoc(), "printf", printfType);
  }
  LLVM::CallOp::create(b, loc, callee, args);
  op.erase();
  return success();
}
