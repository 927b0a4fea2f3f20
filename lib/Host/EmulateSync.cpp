//===- EmulateSync.cpp - The emulator's barrier helper --------------------===//
//
// What the GPU emulator (EmulateGPU.cpp) adds to a module for the barriers
// among the threads of a CTA: a helper function counting arrivals in host
// words, which lets the other lanes run while it waits (mgpuEmuYield, the
// host runtime's step: lib/Runtime/EmuScheduler.cpp), and the OR of a
// predicate over a warpgroup's lanes between two such barriers (bar.red.or).
//
//===----------------------------------------------------------------------===//

#include "EmulateSync.h"

#include "mgpu/KernelForm/IndexArithmetic.h"
#include "mgpu/Target/TargetInfo.h"

#include "mgpu/KernelForm/IfThen.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::mgpu;

/// `@__mgpu_emu_barrier(%sync, %slot, %count, %checked)`: counter at 2*slot,
/// generation at 2*slot+1 (of this CTA's words); the last thread to arrive
/// resets the counter and bumps the generation, the others let the other
/// lanes run until the generation moves. With `%checked` >= 0 (a barrier of
/// every thread of the CTA, with the checks on), the last thread also tells
/// the checker, once for all (mgpuEmuCheckSyncComplete).
/// The helper is ours alone: a user function of the same name keeps its
/// name and the helper is renamed (SymbolTable::insert), so that neither
/// calls the other.
/// The host runtime's function `name` taking `inputs`, declared once.
static func::FuncOp getOrCreateRuntime(ModuleOp module, StringRef name,
                                       TypeRange inputs) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(inputs, {}));
  func.setPrivate();
  return func;
}

func::FuncOp mlir::mgpu::createEmuBarrier(ModuleOp module, func::FuncOp yield) {
  OpBuilder b(module.getContext());
  Location loc = module.getLoc();
  auto syncType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  auto func = func::FuncOp::create(
      b, loc, "__mgpu_emu_barrier",
      b.getFunctionType(
          {syncType, b.getIndexType(), b.getIndexType(), b.getI64Type()}, {}));
  func.setPrivate();
  SymbolTable(module).insert(func, module.getBody()->end());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value sync = entry->getArgument(0), slot = entry->getArgument(1);
  Value count =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), entry->getArgument(2));
  Value counterAt =
      arith::MulIOp::create(b, loc, slot, indexConstant(b, loc, 2));
  Value generationAt =
      arith::AddIOp::create(b, loc, counterAt, indexConstant(b, loc, 1));
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
  // Plain loads and stores: all the threads of a CTA run on one host thread
  // (EmuScheduler.cpp), and the opaque call to mgpuEmuYield makes every
  // check after it load the word again.
  Value generation = memref::LoadOp::create(b, loc, sync, generationAt);
  Value arrived = memref::LoadOp::create(b, loc, sync, counterAt);
  memref::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, arrived, one),
                          sync, counterAt);
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            arith::AddIOp::create(b, loc, arrived, one), count);
  auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    memref::StoreOp::create(b, loc, zero, sync, counterAt);
    memref::StoreOp::create(b, loc,
                            arith::AddIOp::create(b, loc, generation, one),
                            sync, generationAt);
    // A barrier that opens is progress for the checks' deadlock detection
    // (lanes spinning elsewhere are not stuck while this CTA moves on).
    func::CallOp::create(b, loc,
                         getOrCreateRuntime(module, "mgpuEmuNoteProgress", {}),
                         ValueRange());
    Value checked = entry->getArgument(3);
    buildIfThen(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, checked, zero),
        [&] {
          func::CallOp::create(b, loc,
                               getOrCreateRuntime(module,
                                                  "mgpuEmuCheckSyncComplete",
                                                  {b.getI64Type()}),
                               ValueRange{checked});
        });
    b.setInsertionPointToStart(ifLast.elseBlock());
    auto loop = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
    b.createBlock(&loop.getBefore());
    Value now = memref::LoadOp::create(b, loc, sync, generationAt);
    Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, now,
                                       generation);
    scf::ConditionOp::create(b, loc, same, ValueRange());
    b.createBlock(&loop.getAfter());
    func::CallOp::create(b, loc, yield, ValueRange());
    scf::YieldOp::create(b, loc);
  }
  func::ReturnOp::create(b, loc);
  return func;
}

Value mlir::mgpu::emitWarpgroupOr(OpBuilder &b, Location loc, Value pred,
                                  Value exchange, Value t, Value lane,
                                  function_ref<void()> barrier) {
  memref::StoreOp::create(b, loc,
                          arith::ExtUIOp::create(b, loc, b.getI64Type(), pred),
                          exchange, t);
  barrier();
  Value first = arith::SubIOp::create(b, loc, t, lane);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  auto loop = scf::ForOp::create(b, loc, indexConstant(b, loc, 0),
                                 indexConstant(b, loc, kWarpgroupLanes),
                                 indexConstant(b, loc, 1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value word =
        memref::LoadOp::create(b, loc, exchange,
                               ValueRange{arith::AddIOp::create(
                                   b, loc, first, loop.getInductionVar())});
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::OrIOp::create(
                             b, loc, loop.getRegionIterArgs()[0], word)});
  }
  barrier();
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                               loop.getResult(0), zero);
}

/// The host runtime's `void mgpuEmuYield(void)`, which lets the next lane
/// run (EmuScheduler.cpp); its name cannot change, so a user symbol of that
/// name with another type is refused.
FailureOr<func::FuncOp> mlir::mgpu::getOrCreateEmuYield(ModuleOp module) {
  StringRef name = "mgpuEmuYield";
  OpBuilder b(module.getContext());
  FunctionType type = b.getFunctionType({}, {});
  if (Operation *existing = module.lookupSymbol(name)) {
    auto func = dyn_cast<func::FuncOp>(existing);
    if (func && func.getFunctionType() == type)
      return func;
    return existing->emitError()
           << "the GPU emulator needs '" << name
           << "' to be the host runtime's function of type " << type
           << ", which this symbol shadows; rename it";
  }
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, module.getLoc(), name, type);
  func.setPrivate();
  return func;
}
