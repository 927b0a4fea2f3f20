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
#include "llvm/Support/MathExtras.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPUPROFILEKERNELS
#include "mgpu/KernelForm/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// How one kernel region records: its trace buffer, where this Pallas
/// thread's trace starts, the events a trace holds, and the kernel's scope
/// names (index = scope id; 0 is the whole body).
struct Recorder {
  Value buffer, base;
  int64_t capacity;
  SmallVector<std::string> &names;

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

/// Every trace_scope in `region`, outermost first (so that scope ids
/// follow the text).
void inlineScopes(Region &region, Recorder *recorder, IRRewriter &rw) {
  SmallVector<TraceScopeOp> scopes;
  region.walk<WalkOrder::PreOrder>(
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

/// The traces of one kernel region: `count` of them from trace `first`;
/// `index` builds, at the start of its body, which one is this Pallas
/// thread's (row-major over the axes that tell the Pallas threads apart).
struct RegionTraces {
  Region *region;
  int64_t first = 0, count = 1;
  std::function<Value(OpBuilder &, Location)> index;
};

/// `ids` (each of `sizes`) row-major.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> ids,
                ArrayRef<int64_t> sizes) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [id, size] : llvm::zip(ids, sizes))
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, linear,
                              arith::ConstantIndexOp::create(b, loc, size)),
        id);
  return linear;
}

/// A pallas_call has one trace per point of its parallel axes (a mesh's
/// cluster and thread axes among them): the launch's CTAs and their
/// warpgroups. The sequential axes are steps of the same Pallas thread.
FailureOr<RegionTraces> getTraces(PallasCallOp call,
                                  CompilerParamsAttr params) {
  ArrayRef<int64_t> grid = call.getStaticGrid();
  if (llvm::any_of(grid, ShapedType::isDynamic))
    return call.emitOpError()
           << "cannot be profiled with a dynamic grid: the trace buffer is "
              "sized by the grid";
  SmallVector<unsigned> parallel;
  SmallVector<int64_t> sizes;
  for (auto [d, size] : llvm::enumerate(grid)) {
    if (isSequential(params, d))
      continue;
    parallel.push_back(d);
    sizes.push_back(size);
  }
  RegionTraces traces{&call.getBody()};
  traces.count = llvm::product_of(sizes);
  traces.index = [parallel, sizes](OpBuilder &b, Location loc) {
    SmallVector<Value> ids = llvm::map_to_vector(parallel, [&](unsigned d) {
      return Value(ProgramIdOp::create(b, loc, d));
    });
    return linearize(b, loc, ids, sizes);
  };
  return traces;
}

/// An mpmd_map region has one trace per point of its mesh (grid, cluster
/// and thread axes, by name); the regions' traces follow each other.
FailureOr<RegionTraces> getTraces(MpmdMapOp map, unsigned i, int64_t first) {
  MeshAttr mesh = map.getMeshAttrOrNull(i);
  if (!mesh)
    return map.emitOpError()
           << "cannot be profiled: region #" << i << " has no #mgpu.mesh";
  SmallVector<int64_t> shape = mesh.getShape();
  auto axes = mesh.getNamedAxes();
  if (axes.size() != shape.size())
    return map.emitOpError()
           << "cannot be profiled: the axes of region #" << i
           << "'s mesh must all be named (the trace of a Pallas thread is "
              "found by axis_index)";
  RegionTraces traces{&map.getBodies()[i], first, llvm::product_of(shape)};
  SmallVector<StringAttr> names =
      llvm::map_to_vector(axes, [](auto axis) { return axis.first; });
  traces.index = [names, shape](OpBuilder &b, Location loc) {
    SmallVector<Value> ids = llvm::map_to_vector(names, [&](StringAttr name) {
      return Value(AxisIndexOp::create(b, loc, name));
    });
    return linearize(b, loc, ids, shape);
  };
  return traces;
}

/// The largest trace buffer a kernel gets, in 8-byte words (32 GiB).
constexpr int64_t kMaxTraceWords = int64_t{1} << 32;

/// The profiled kernel's setup and write-out around `kernel`, and its
/// bodies' events.
LogicalResult profile(Operation *kernel, CompilerParamsAttr params,
                      IRRewriter &rw) {
  if (kernel->getNumResults())
    return kernel->emitOpError()
           << "must be bufferized before it is profiled (run --mgpu-bufferize)";
  MLIRContext *ctx = kernel->getContext();
  Location loc = kernel->getLoc();
  auto module = kernel->getParentOfType<ModuleOp>();
  auto func = kernel->getParentOfType<FunctionOpInterface>();
  std::string name = func ? func.getName().str() : "kernel";

  // The regions' traces; warpgroups per CTA for the threads' names (0 when
  // the regions differ).
  SmallVector<RegionTraces> regions;
  int64_t warpgroups = 1;
  auto call = dyn_cast<PallasCallOp>(kernel);
  if (call) {
    FailureOr<RegionTraces> traces = getTraces(call, params);
    if (failed(traces))
      return failure();
    regions.push_back(*traces);
    if (MeshAttr mesh = call.getMeshAttrOrNull())
      warpgroups = mesh.getNumThreads().value_or(1);
  } else {
    auto map = cast<MpmdMapOp>(kernel);
    int64_t first = 0;
    for (unsigned i = 0; i < map.getBodies().size(); ++i) {
      FailureOr<RegionTraces> traces = getTraces(map, i, first);
      if (failed(traces))
        return failure();
      regions.push_back(*traces);
      first += traces->count;
      int64_t threads = map.getMeshAttrOrNull(i).getNumThreads().value_or(1);
      warpgroups = i == 0 || warpgroups == threads ? threads : 0;
    }
  }
  // JAX's profile_space counts scopes: two events each. The buffer's size
  // is checked: a huge profile_space or grid must not wrap it around.
  int64_t traces = 0, capacity = 0, stride = 0, total = 0;
  bool overflow =
      llvm::AddOverflow(regions.back().first, regions.back().count, traces) ||
      llvm::MulOverflow(int64_t{2}, params.getProfileSpace(), capacity) ||
      llvm::MulOverflow(int64_t{2}, capacity, stride) ||
      llvm::AddOverflow(stride, int64_t{1}, stride) ||
      llvm::MulOverflow(traces, stride, total);
  if (overflow || total > kMaxTraceWords)
    return kernel->emitOpError()
           << "cannot be profiled: profile_space = " << params.getProfileSpace()
           << " for each of " << traces
           << " Pallas threads needs a trace buffer of more than 2^"
           << llvm::Log2_64(kMaxTraceWords) << " 8-byte words";
  assert(stride == getTraceWords(capacity) && "trace layout changed");
  auto bufferType = MemRefType::get({traces * stride}, rw.getI64Type());

  // Host side: a zeroed buffer, an extra output, the write-out.
  rw.setInsertionPoint(kernel);
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
  unsigned argIndex;
  if (call) {
    argIndex = call.getIns().size() + call.getOuts().size();
    call.getOutsMutable().append(buffer);
    SmallVector<Attribute> outSpecs(call.getOutSpecs().getValue());
    outSpecs.push_back(BlockSpecAttr::get(
        ctx, {traces * stride},
        AffineMapAttr::get(AffineMap::get(call.getStaticGrid().size(), 0,
                                          getAffineConstantExpr(0, ctx))),
        MemorySpace::gmem));
    call.setOutSpecsAttr(ArrayAttr::get(ctx, outSpecs));
  } else {
    auto map = cast<MpmdMapOp>(kernel);
    argIndex = map.getIns().size() + map.getOuts().size();
    map.getOutsMutable().append(buffer);
  }

  // Bodies: this Pallas thread's trace, the whole body's scope, the scopes.
  SmallVector<std::string> names = {name};
  for (RegionTraces &region : regions) {
    Block &body = region.region->front();
    Value trace = body.insertArgument(argIndex, bufferType, loc);
    rw.setInsertionPointToStart(&body);
    Value index = region.index(rw, loc);
    if (region.first)
      index = arith::AddIOp::create(
          rw, loc, index,
          arith::ConstantIndexOp::create(rw, loc, region.first));
    Value base = arith::MulIOp::create(
        rw, loc, index, arith::ConstantIndexOp::create(rw, loc, stride));
    Recorder recorder{trace, base, capacity, names};
    recorder.record(rw, loc, 0, /*end=*/false);
    rw.setInsertionPoint(body.getTerminator());
    recorder.record(rw, loc, 0, /*end=*/true);
    inlineScopes(*region.region, &recorder, rw);
  }

  // After the launch: the traces to the host's writer, names as one string
  // (NUL-separated).
  std::string blob;
  for (const std::string &scope : names) {
    blob += scope;
    blob.push_back('\0');
  }
  rw.setInsertionPointAfter(kernel);
  SmallVector<Value> args = {
      arith::IndexCastOp::create(
          rw, loc, rw.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(rw, loc, buffer)),
      arith::ConstantIntOp::create(rw, loc, traces, 64),
      arith::ConstantIntOp::create(rw, loc, warpgroups, 64),
      arith::ConstantIntOp::create(rw, loc, capacity, 64),
      getCString(rw, module, loc, blob),
      arith::ConstantIntOp::create(rw, loc, blob.size(), 64),
      getCString(rw, module, loc, params.getProfileDir()),
      getCString(rw, module, loc, name)};
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
            for (Region &region : op->getRegions())
              inlineScopes(region, nullptr, rw);
            return WalkResult::skip();
          }
          if (failed(profile(op, params, rw)))
            return WalkResult::interrupt();
          return WalkResult::skip();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
