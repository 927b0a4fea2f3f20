//===- ProfileKernels.cpp - --mgpu-profile-kernels ------------------------===//
//
// JAX's in-kernel profiler (jax/experimental/mosaic/gpu/profiler.py) for a
// bufferized pallas_call: a hidden global output holds one trace per Pallas
// thread, the body records the entry and exit of each named scope (and of
// the whole body) in its trace, and the host writes the traces out as a
// Chrome trace after the call. This runs first among the kernel-form
// passes, so the scopes' regions never meet the others; a kernel that is
// not profiled just loses them. The buffer is an ordinary output with a
// global-memory block spec, so every backend launches, copies and reads it
// back like any other.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/KernelForm/ProfileRecord.h"
#include "mgpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPROFILEKERNELS
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// How a profiled kernel records: its trace buffer, where this Pallas
/// thread's trace starts, the events a trace holds, and the scope names
/// (index = scope id; 0 is the whole body).
struct Recorder {
  Value buffer, base;
  int64_t capacity;
  SmallVector<std::string> names;

  int64_t intern(StringRef name) {
    auto *it = llvm::find(names, name);
    if (it != names.end())
      return it - names.begin();
    names.push_back(name.str());
    return names.size() - 1;
  }

  void record(OpBuilder &b, Location loc, int64_t scope, bool end) {
    ProfileEventOp::create(b, loc, buffer, base, scope, end, capacity);
  }
};

/// Replaces `scope` by its body, between a begin and an end event when
/// `recorder` is set.
void inlineScope(TraceScopeOp scope, Recorder *recorder, IRRewriter &rw) {
  Location loc = scope.getLoc();
  int64_t id = recorder ? recorder->intern(scope.getName()) : 0;
  rw.setInsertionPoint(scope);
  if (recorder)
    recorder->record(rw, loc, id, /*end=*/false);
  rw.inlineBlockBefore(&scope.getBody().front(), scope);
  auto yield = cast<YieldOp>(scope->getPrevNode());
  rw.setInsertionPoint(scope);
  if (recorder)
    recorder->record(rw, loc, id, /*end=*/true);
  rw.replaceOp(scope, yield.getValues());
  rw.eraseOp(yield);
}

/// Every trace_scope under `root`, outermost first (so that scope ids
/// follow the text).
void inlineScopes(Operation *root, Recorder *recorder, IRRewriter &rw) {
  SmallVector<TraceScopeOp> scopes;
  root->walk<WalkOrder::PreOrder>(
      [&](TraceScopeOp scope) { scopes.push_back(scope); });
  for (TraceScopeOp scope : scopes)
    inlineScope(scope, recorder, rw);
}

/// An `!llvm.ptr` to a constant global holding `text` and a NUL.
Value getCString(OpBuilder &b, ModuleOp module, Location loc, StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = "__mgpu_profile_" + std::to_string(n);
    if (!module.lookupSymbol(name))
      break;
  }
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// The profiled kernel's setup and write-out around `call`, and its body's
/// events.
LogicalResult profile(PallasCallOp call, CompilerParamsAttr params,
                      IRRewriter &rw) {
  if (!call.getResultTensors().empty())
    return call.emitOpError()
           << "must be bufferized before it is profiled (run --mgpu-bufferize)";
  ArrayRef<int64_t> grid = call.getStaticGrid();
  if (llvm::any_of(grid, ShapedType::isDynamic))
    return call.emitOpError()
           << "cannot be profiled with a dynamic grid: the trace buffer is "
              "sized by the grid";
  MLIRContext *ctx = call.getContext();
  Location loc = call.getLoc();
  auto module = call->getParentOfType<ModuleOp>();
  auto func = call->getParentOfType<FunctionOpInterface>();
  std::string kernel = func ? func.getName().str() : "kernel";

  // One trace per point of the parallel axes (a mesh's cluster and thread
  // axes among them): the launch's CTAs and their warpgroups.
  SmallVector<unsigned> parallel;
  int64_t traces = 1;
  for (auto [d, size] : llvm::enumerate(grid)) {
    if (isSequential(params, d))
      continue;
    parallel.push_back(d);
    traces *= size;
  }
  int64_t warpgroups = 1;
  if (MeshAttr mesh = call.getMeshAttrOrNull())
    warpgroups = mesh.getNumThreads().value_or(1);
  // JAX's profile_space counts scopes: two events each.
  int64_t capacity = 2 * params.getProfileSpace();
  int64_t stride = getTraceWords(capacity);
  auto bufferType = MemRefType::get({traces * stride}, rw.getI64Type());

  // Host side: a zeroed buffer, an extra output, the write-out.
  rw.setInsertionPoint(call);
  Value buffer = memref::AllocOp::create(rw, loc, bufferType);
  Value zero64 = arith::ConstantIntOp::create(rw, loc, 0, 64);
  Value c0 = arith::ConstantIndexOp::create(rw, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(rw, loc, 1);
  Value words = arith::ConstantIndexOp::create(rw, loc, traces * stride);
  scf::ForOp::create(rw, loc, c0, words, c1, ValueRange(),
                     [&](OpBuilder &b, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(b, l, zero64, buffer, i);
                       scf::YieldOp::create(b, l);
                     });
  unsigned argIndex = call.getIns().size() + call.getOuts().size();
  call.getOutsMutable().append(buffer);
  SmallVector<Attribute> outSpecs(call.getOutSpecs().getValue());
  outSpecs.push_back(
      BlockSpecAttr::get(ctx, {traces * stride},
                         AffineMapAttr::get(AffineMap::get(
                             grid.size(), 0, getAffineConstantExpr(0, ctx))),
                         MemorySpace::gmem));
  call.setOutSpecsAttr(ArrayAttr::get(ctx, outSpecs));
  Block &body = call.getBody().front();
  Value trace = body.insertArgument(argIndex, bufferType, loc);

  rw.setInsertionPointAfter(call);
  SmallVector<Value> args = {
      arith::IndexCastOp::create(
          rw, loc, rw.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, buffer)),
      arith::ConstantIntOp::create(rw, loc, traces, 64),
      arith::ConstantIntOp::create(rw, loc, warpgroups, 64),
      arith::ConstantIntOp::create(rw, loc, capacity, 64)};

  // Body: this Pallas thread's trace, the whole body's scope, the scopes.
  Recorder recorder{trace, Value(), capacity, {kernel}};
  rw.setInsertionPointToStart(&body);
  Value linear = arith::ConstantIndexOp::create(rw, loc, 0);
  for (unsigned d : parallel) {
    Value size = arith::ConstantIndexOp::create(rw, loc, grid[d]);
    Value id = ProgramIdOp::create(rw, loc, d);
    linear = arith::AddIOp::create(
        rw, loc, arith::MulIOp::create(rw, loc, linear, size), id);
  }
  recorder.base = arith::MulIOp::create(
      rw, loc, linear, arith::ConstantIndexOp::create(rw, loc, stride));
  recorder.record(rw, loc, 0, /*end=*/false);
  rw.setInsertionPoint(body.getTerminator());
  recorder.record(rw, loc, 0, /*end=*/true);
  inlineScopes(call, &recorder, rw);

  // The names go to the host as one string, NUL-separated.
  std::string names;
  for (const std::string &name : recorder.names) {
    names += name;
    names.push_back('\0');
  }
  rw.setInsertionPointAfter(args.back().getDefiningOp());
  args.push_back(getCString(rw, module, loc, names));
  args.push_back(arith::ConstantIntOp::create(rw, loc, names.size(), 64));
  args.push_back(getCString(rw, module, loc, params.getProfileDir()));
  args.push_back(getCString(rw, module, loc, kernel));
  auto writeType = rw.getFunctionType(ValueRange(args).getTypes(), {});
  StringRef writeName = "mgpuWriteProfile";
  if (!module.lookupSymbol(writeName)) {
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(rw, loc, writeName, writeType);
    decl.setPrivate();
  }
  func::CallOp::create(rw, loc, writeName, TypeRange(), args);
  memref::DeallocOp::create(rw, loc, buffer);
  return success();
}

struct ProfileKernelsPass
    : public mgpu::impl::MGPUProfileKernelsBase<ProfileKernelsPass> {
  void runOnOperation() override {
    IRRewriter rw(&getContext());
    WalkResult result = getOperation()->walk<WalkOrder::PreOrder>(
        [&](Operation *op) -> WalkResult {
          if (!isa<PallasCallOp, MpmdMapOp>(op))
            return WalkResult::advance();
          CompilerParamsAttr params;
          if (auto call = dyn_cast<PallasCallOp>(op))
            params = call.getParamsAttr();
          else
            params = cast<MpmdMapOp>(op).getParamsAttr();
          if (!params || !params.getProfileSpace()) {
            inlineScopes(op, nullptr, rw);
            return WalkResult::skip();
          }
          auto call = dyn_cast<PallasCallOp>(op);
          if (!call) {
            op->emitOpError() << "cannot be profiled yet (profile_space): "
                                 "mgpu profiles pallas_call kernels";
            return WalkResult::interrupt();
          }
          if (failed(profile(call, params, rw)))
            return WalkResult::interrupt();
          return WalkResult::skip();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
