//===- WgmmaDeferral.cpp - wgmma completed at its wait, on the host -------===//
//
// See the header. The placeholders are signalling NaNs, which moves (LLVM's
// extractvalue, insertelement, phis) keep bit for bit; an op that computes
// with them, stores them or passes them on to a call resolves them first.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/WgmmaDeferral.h"
#include "mgpu/Host/HostRuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::mgpu;

/// Marks the stores that hand an MMA its accumulator registers: the chain of
/// MMAs of one accumulator legitimately passes placeholders along.
/// (No dialect prefix: the mgpu dialect verifies its own;
/// resolveDeferredResults removes the mark.)
static constexpr StringLiteral kMmaInput = "mgpu_emu_wgmma_input";

/// Issues one lane's MMA with accumulator registers `accumulators` (f32):
/// a from the descriptor `descA`, or, where `aRows` (32 f32) are given,
/// from those values. Returns the registers of placeholders.
static SmallVector<Value> issue(OpBuilder &b, Operation *op,
                                ValueRange accumulators, Value descA,
                                ValueRange aRows, Value descB, int64_t flags,
                                Value smem, Value ctaBase, Value lane,
                                Value where) {
  Location loc = op->getLoc();
  int64_t regs = accumulators.size();
  auto i64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  };
  Value stack = LLVM::StackSaveOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  Value buffer =
      memref::AllocaOp::create(b, loc, MemRefType::get({regs}, b.getF32Type()));
  for (auto [reg, value] : llvm::enumerate(accumulators)) {
    auto store = memref::StoreOp::create(
        b, loc, value, buffer,
        ValueRange{arith::ConstantIndexOp::create(b, loc, reg)});
    store->setAttr(kMmaInput, b.getUnitAttr());
  }
  Value total = memref::DimOp::create(b, loc, smem, 0);
  SmallVector<Value> args{getElementPointer(b, loc, buffer),
                          getI64(b, loc, 2 * regs)};
  if (!aRows.empty()) {
    Value rows = memref::AllocaOp::create(
        b, loc, MemRefType::get({int64_t(aRows.size())}, b.getF32Type()));
    for (auto [i, value] : llvm::enumerate(aRows))
      memref::StoreOp::create(
          b, loc, value, rows,
          ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    args.push_back(getElementPointer(b, loc, rows));
  } else {
    args.push_back(descA);
  }
  args.append(
      {descB, getI64(b, loc, flags), getElementPointer(b, loc, smem, ctaBase),
       i64(arith::SubIOp::create(b, loc, total, ctaBase)), i64(lane), where});
  callHostRuntime(
      b, op, aRows.empty() ? "mgpuEmuWgmmaIssue" : "mgpuEmuWgmmaIssueRegisterA",
      args);
  SmallVector<Value> results;
  for (int64_t reg = 0; reg < regs; ++reg)
    results.push_back(memref::LoadOp::create(
        b, loc, buffer,
        ValueRange{arith::ConstantIndexOp::create(b, loc, reg)}));
  LLVM::StackRestoreOp::create(b, loc, stack);
  return results;
}

Value mlir::mgpu::issueDeferredWgmma(OpBuilder &b, WgmmaSharedOp op, Value smem,
                                     Value ctaBase, Value lane, Value where) {
  Location loc = op.getLoc();
  // The inputs' codes (mgpuEmuWgmmaIssue's flags): 0 f16, 1 bf16, 2 e4m3,
  // 3 e5m2, 4 tf32 (bit 7); a K of 32 bytes per MMA (verified pairs).
  auto code = [](Type type) -> int64_t {
    if (isa<BFloat16Type>(type))
      return 1;
    if (isa<Float8E4M3FNType>(type))
      return 2;
    if (isa<Float8E5M2Type>(type))
      return 3;
    return type.isF32() ? 4 : 0;
  };
  int64_t aCode = code(op.getAType()), bCode = code(op.getBType());
  bool tf32 = aCode == 4;
  SmallVector<Value> accumulators;
  for (int64_t reg = 0; reg < op.getAcc().getType().getNumElements(); ++reg)
    accumulators.push_back(vector::ExtractOp::create(b, loc, op.getAcc(), reg));
  int64_t flags = (aCode == 1 ? 1 : 0) | (op.getBMnMajor() ? 2 : 0) |
                  (op.getAMnMajor() ? 4 : 0) |
                  (tf32 ? 1 << 7 : (aCode << 3) | (bCode << 5));
  SmallVector<Value> results =
      issue(b, op, accumulators, op.getDescriptorA(), ValueRange(),
            op.getDescriptorB(), flags, smem, ctaBase, lane, where);
  return vector::FromElementsOp::create(b, loc, op.getAcc().getType(), results);
}

Value mlir::mgpu::issueDeferredRegisterAWgmma(OpBuilder &b, WgmmaRegisterAOp op,
                                              ValueRange aRows, Value smem,
                                              Value ctaBase, Value lane,
                                              Value where) {
  Location loc = op.getLoc();
  SmallVector<Value> accumulators;
  for (int64_t reg = 0; reg < op.getAcc().getType().getNumElements(); ++reg)
    accumulators.push_back(vector::ExtractOp::create(b, loc, op.getAcc(), reg));
  int64_t flags =
      (isa<BFloat16Type>(op.getA().getType().getElementType()) ? 1 : 0) |
      (op.getBMnMajor() ? 2 : 0);
  SmallVector<Value> results =
      issue(b, op, accumulators, Value(), aRows, op.getDescriptorB(), flags,
            smem, ctaBase, lane, where);
  return vector::FromElementsOp::create(b, loc, op.getAcc().getType(), results);
}

/// Calls mgpuEmuWgmmaResolve on operand `use` (an f32 or a vector of f32)
/// before its op.
static void
resolveOperand(OpOperand &use,
               function_ref<Value(OpBuilder &, Operation *)> where) {
  Operation *user = use.getOwner();
  Value value = use.get();
  Type type = value.getType();
  auto vector = dyn_cast<VectorType>(type);
  if (!(type.isF32() || (vector && vector.getElementType().isF32() &&
                         vector.getRank() > 0 && !vector.isScalable())))
    return;
  OpBuilder b(user);
  Location loc = user->getLoc();
  int64_t count = vector ? vector.getNumElements() : 1;
  Value stack = LLVM::StackSaveOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  Value buffer = memref::AllocaOp::create(
      b, loc, MemRefType::get({count}, b.getF32Type()));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto flat = vector ? VectorType::get({count}, b.getF32Type()) : VectorType();
  if (vector)
    vector::StoreOp::create(b, loc,
                            vector::ShapeCastOp::create(b, loc, flat, value),
                            buffer, ValueRange{zero});
  else
    memref::StoreOp::create(b, loc, value, buffer, ValueRange{zero});
  callHostRuntime(b, user, "mgpuEmuWgmmaResolve",
                  {getElementPointer(b, loc, buffer), getI64(b, loc, count),
                   where(b, user)});
  Value resolved;
  if (vector)
    resolved = vector::ShapeCastOp::create(
        b, loc, vector,
        vector::LoadOp::create(b, loc, flat, buffer, ValueRange{zero}));
  else
    resolved = memref::LoadOp::create(b, loc, buffer, ValueRange{zero});
  LLVM::StackRestoreOp::create(b, loc, stack);
  use.set(resolved);
}

void mlir::mgpu::resolveDeferredResults(
    ArrayRef<Value> results,
    function_ref<Value(OpBuilder &, Operation *)> where) {
  llvm::SetVector<Value> derived(results.begin(), results.end());
  SmallVector<Value> worklist(results);
  SmallVector<OpOperand *> reads;
  auto derive = [&](Value v) {
    if (derived.insert(v))
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned at = use.getOperandNumber();
      // Moves: the value goes on as it is.
      if (isa<LLVM::ExtractValueOp, LLVM::InsertValueOp, vector::ExtractOp,
              vector::InsertOp, vector::ExtractStridedSliceOp,
              vector::InsertStridedSliceOp, vector::ShapeCastOp,
              vector::BroadcastOp, vector::FromElementsOp>(user)) {
        for (Value result : user->getResults())
          derive(result);
        continue;
      }
      if (user->hasAttr(kMmaInput))
        continue;
      if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (auto loop = dyn_cast<scf::ForOp>(parent)) {
          derive(loop.getResult(at));
          derive(loop.getRegionIterArgs()[at]);
        } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
          derive(loop.getBeforeArguments()[at]);
        } else if (at < parent->getNumResults()) {
          derive(parent->getResult(at));
        }
        continue;
      }
      if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        if (at == 0) {
          reads.push_back(&use);
          continue;
        }
        auto loop = cast<scf::WhileOp>(condition->getParentOp());
        derive(loop.getAfterArguments()[at - 1]);
        derive(loop.getResult(at - 1));
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user);
          loop && at >= loop.getNumControlOperands()) {
        unsigned i = at - loop.getNumControlOperands();
        derive(loop.getRegionIterArgs()[i]);
        derive(loop.getResult(i));
        continue;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(user)) {
        derive(loop.getBeforeArguments()[at]);
        continue;
      }
      reads.push_back(&use);
    }
  }
  for (OpOperand *use : reads)
    resolveOperand(*use, where);
  // Every mark goes, also of the MMAs whose inputs derive from no MMA.
  llvm::SmallPtrSet<Operation *, 4> functions;
  for (Value result : results)
    functions.insert(result.getDefiningOp()->getParentOfType<func::FuncOp>());
  for (Operation *function : functions)
    function->walk([](Operation *op) { op->removeAttr(kMmaInput); });
}
