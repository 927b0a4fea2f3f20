//===- LowerToCPU.cpp - --mgpu-lower-to-cpu (interpret mode) --------------===//
//
// Runs kernels in kernel form (expanded pallas_call, mpmd_map) on the host.
// A kernel's programs are CTAs (the points of its parallel grid axes, or of
// a mesh's grid and cluster axes) each running its Pallas threads; a
// pallas_call's sequential axes are already a loop in its body
// (--mgpu-expand-pipelines). The body is inlined once, with program ids and
// axis queries bound to loop indices and constants, between a stack save
// and restore so that its allocas do not grow the stack with the grid.
//
// Global scratch is allocated once and zeroed. Shared-memory scratch and
// barrier arrays are per CTA: slices of one host arena, zeroed when the CTA
// starts (a zero word is a barrier in phase 0). Kernel-level ops and
// semaphores become host code (PrimitivesToCPU).
//
// CTAs run one after another and their Pallas threads too, unless they may
// wait for each other: the Pallas threads of a CTA that waits on a barrier
// run on their own host threads (an OpenMP team per CTA), and a pallas_call
// or mpmd_map that waits on a semaphore runs every Pallas thread of every
// CTA (of every region) on its own host thread.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Host/PrimitivesToCPU.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOCPU
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// Host memory of a CTA's shared scratch and barriers start at multiples of
/// this.
constexpr int64_t kSharedAlignment = TargetInfo::kSharedAlignment;

/// What the body queries (program_id, axis_index, ...) stand for in one
/// Pallas thread.
struct ProgramBindings {
  SmallVector<Value> programIds;
  SmallVector<Value> numPrograms;
  llvm::StringMap<Value> axisIndex;
  llvm::StringMap<Value> axisSize;
};

/// The host type of a kernel value: shared memory is ordinary host memory.
Type toHostType(Type type) {
  if (!isWorkgroupMemRef(type))
    return type;
  auto memref = cast<MemRefType>(type);
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

/// Moves the kernel `body` to the insertion point of `b`, with its arguments
/// replaced by `args` and its queries by `bindings`. The host stack is saved
/// before and restored after it (what memref.alloca_scope would do, but
/// without a region that must keep a single block once scf is lowered to cf),
/// so allocas of the body do not grow the stack with every program.
void inlineKernelBody(OpBuilder &b, Location loc, Block &body, ValueRange args,
                      const ProgramBindings &bindings) {
  Value stack = LLVM::StackSaveOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    arg.replaceAllUsesWith(value);
  body.getTerminator()->erase();
  SmallVector<Operation *> ops =
      llvm::map_to_vector(body, [](Operation &op) { return &op; });
  b.getInsertionBlock()->getOperations().splice(b.getInsertionPoint(),
                                                body.getOperations());
  LLVM::StackRestoreOp::create(b, loc, stack);

  for (Operation *top : ops) {
    top->walk([&](Operation *op) {
      Value replacement;
      if (auto id = dyn_cast<ProgramIdOp>(op))
        replacement = bindings.programIds[id.getAxis()];
      else if (auto num = dyn_cast<NumProgramsOp>(op))
        replacement = bindings.numPrograms[num.getAxis()];
      else if (auto index = dyn_cast<AxisIndexOp>(op))
        replacement = bindings.axisIndex.lookup(index.getAxisName());
      else if (auto size = dyn_cast<AxisSizeOp>(op))
        replacement = bindings.axisSize.lookup(size.getAxisName());
      if (replacement) {
        op->getResult(0).replaceAllUsesWith(replacement);
        op->erase();
        return;
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(toHostType(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(toHostType(result.getType()));
    });
  }
}

/// One region of a kernel and how its programs are laid out: CTAs over
/// `ctaSizes`, `threads` Pallas threads each.
struct KernelRegion {
  Block *body;
  MeshAttr mesh;
  SmallVector<Value> ctaSizes;
  int64_t threads = 1;
  /// Binds the queries of one Pallas thread at CTA indices `cta` and
  /// thread index `thread`.
  std::function<void(OpBuilder &, Location, ValueRange cta, Value thread,
                     ProgramBindings &)>
      bind;
};

/// The per-CTA scratch of a kernel: shared buffers and barrier arrays, laid
/// out in one host arena.
struct CtaScratch {
  SmallVector<int64_t> offsets; // per scratch entry, -1 for global scratch
  int64_t bytes = 0;
};

CtaScratch planCtaScratch(std::optional<ArrayAttr> scratch) {
  CtaScratch plan;
  if (!scratch)
    return plan;
  for (Attribute attr : *scratch) {
    Type type = cast<TypeAttr>(attr).getValue();
    std::optional<int64_t> bytes;
    if (auto barrier = dyn_cast<BarrierType>(type))
      bytes = barrier.getSharedMemoryBytes();
    else if (isWorkgroupMemRef(type))
      bytes = getBufferBytes(cast<MemRefType>(type).getShape(),
                             cast<MemRefType>(type).getElementType());
    if (!bytes) {
      plan.offsets.push_back(-1);
      continue;
    }
    int64_t start = llvm::alignTo(plan.bytes, kSharedAlignment);
    plan.offsets.push_back(start);
    plan.bytes = start + *bytes;
  }
  plan.bytes = llvm::alignTo(plan.bytes, kSharedAlignment);
  return plan;
}

/// Lowers one kernel op (expanded pallas_call or mpmd_map).
class KernelLowering {
public:
  KernelLowering(Operation *kernel, std::optional<ArrayAttr> scratch)
      : kernel(kernel), b(kernel), loc(kernel->getLoc()), scratch(scratch),
        plan(planCtaScratch(scratch)) {}

  /// Global scratch (zeroed) and the arrays are the same for every program.
  void allocateGlobalScratch(ValueRange arrays) {
    shared.assign(arrays.begin(), arrays.end());
    if (!scratch)
      return;
    for (auto [i, attr] : llvm::enumerate(*scratch)) {
      Type type = cast<TypeAttr>(attr).getValue();
      if (plan.offsets[i] >= 0) {
        shared.push_back(Value()); // per CTA
        continue;
      }
      auto memref = cast<MemRefType>(type);
      Value buffer = memref::AllocOp::create(b, loc, memref);
      Value zero = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(memref.getElementType())));
      linalg::FillOp::create(b, loc, zero, buffer);
      shared.push_back(buffer);
      toFree.push_back(buffer);
    }
  }

  /// Runs every region's programs, in order or all at once.
  void run(ArrayRef<KernelRegion> regions, bool concurrently);

  void finish() {
    for (Value buffer : toFree)
      memref::DeallocOp::create(b, loc, buffer);
  }

private:
  Operation *kernel;
  OpBuilder b;
  Location loc;
  std::optional<ArrayAttr> scratch;
  CtaScratch plan;
  SmallVector<Value> shared; // arrays, then scratch (null: per CTA)
  SmallVector<Value> toFree;

  /// The region arguments of a CTA whose scratch starts at byte `base` of
  /// `arena`.
  SmallVector<Value> argsOfCta(OpBuilder &nb, Value arena, Value base) {
    SmallVector<Value> args(shared);
    size_t first = args.size() - plan.offsets.size();
    for (auto [i, offset] : llvm::enumerate(plan.offsets)) {
      if (offset < 0)
        continue;
      Type type = cast<TypeAttr>((*scratch)[i]).getValue();
      Value shift =
          arith::AddIOp::create(nb, loc, base, indexConstant(nb, loc, offset));
      if (auto barrier = dyn_cast<BarrierType>(type)) {
        auto words = MemRefType::get({barrier.getCount()}, nb.getI64Type());
        Value view =
            memref::ViewOp::create(nb, loc, words, arena, shift, ValueRange());
        args[first + i] =
            UnrealizedConversionCastOp::create(nb, loc, type, view)
                .getResult(0);
        continue;
      }
      args[first + i] =
          memref::ViewOp::create(nb, loc, cast<MemRefType>(toHostType(type)),
                                 arena, shift, ValueRange());
    }
    return args;
  }

  /// Zeroes `bytes` of `arena` from `base`: fresh shared memory and barriers
  /// in phase 0.
  void zeroArena(OpBuilder &nb, Value arena, Value base, int64_t bytes) {
    if (!bytes)
      return;
    Value slice = memref::SubViewOp::create(
        nb, loc, arena, ArrayRef<OpFoldResult>{base},
        ArrayRef<OpFoldResult>{nb.getIndexAttr(bytes)},
        ArrayRef<OpFoldResult>{nb.getIndexAttr(1)});
    linalg::FillOp::create(
        nb, loc, Value(arith::ConstantIntOp::create(nb, loc, 0, 8)), slice);
  }

  Value allocateArena(OpBuilder &nb, Value ctas) {
    auto type = MemRefType::get({ShapedType::kDynamic}, nb.getI8Type());
    Value size = arith::MulIOp::create(nb, loc, ctas,
                                       indexConstant(nb, loc, plan.bytes));
    // An empty arena still needs an address.
    size = arith::MaxUIOp::create(nb, loc, size, indexConstant(nb, loc, 1));
    return memref::AllocOp::create(nb, loc, type, ValueRange{size},
                                   nb.getI64IntegerAttr(kSharedAlignment));
  }

  /// Runs `region`'s body for thread `thread` of the CTA at `cta`.
  void runThread(OpBuilder &nb, const KernelRegion &region, ValueRange cta,
                 Value thread, ArrayRef<Value> args) {
    ProgramBindings bindings;
    region.bind(nb, loc, cta, thread, bindings);
    inlineKernelBody(nb, loc, *region.body, args, bindings);
  }
};

/// `body(b, i)` once per i in [0, count), each on its own host thread: an
/// OpenMP team of `count` threads, each taking one iteration of a
/// statically scheduled loop (chunk 1), so that threads waiting for each
/// other all make progress.
void forEachOnOwnThread(OpBuilder &b, Location loc, Value count,
                        function_ref<void(OpBuilder &, Value)> body) {
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  omp::ParallelOperands team;
  team.numThreads = arith::IndexCastOp::create(b, loc, b.getI32Type(), count);
  auto parallel = omp::ParallelOp::create(b, loc, team);
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&parallel.getRegion());
  omp::WsloopOperands schedule;
  schedule.scheduleKind = omp::ClauseScheduleKindAttr::get(
      b.getContext(), omp::ClauseScheduleKind::Static);
  schedule.scheduleChunk = arith::ConstantIntOp::create(b, loc, 1, 32);
  auto wsloop = omp::WsloopOp::create(b, loc, schedule);
  omp::TerminatorOp::create(b, loc);
  b.createBlock(&wsloop.getRegion());
  omp::LoopNestOperands bounds;
  bounds.loopLowerBounds = {zero};
  bounds.loopUpperBounds = {count};
  bounds.loopSteps = {one};
  auto nest = omp::LoopNestOp::create(b, loc, bounds);
  Block *block =
      b.createBlock(&nest.getRegion(), {}, {b.getIndexType()}, {loc});
  omp::YieldOp::create(b, loc);
  b.setInsertionPointToStart(block);
  body(b, block->getArgument(0));
}

/// Row-major indices of `linear` in a grid of `sizes`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<Value> sizes) {
  SmallVector<Value> result(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      result[d] = linear;
      break;
    }
    result[d] = arith::RemUIOp::create(b, loc, linear, sizes[d]);
    linear = arith::DivUIOp::create(b, loc, linear, sizes[d]);
  }
  return result;
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value result = indexConstant(b, loc, 1);
  for (Value size : sizes)
    result = arith::MulIOp::create(b, loc, result, size);
  return result;
}

bool waitsOnBarriers(Block &body) {
  return body.walk([](BarrierWaitOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

void KernelLowering::run(ArrayRef<KernelRegion> regions, bool concurrently) {
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  if (!concurrently) {
    // One CTA at a time, in grid order; its scratch is one arena slice.
    Value arena = allocateArena(b, one);
    toFree.push_back(arena);
    for (const KernelRegion &region : regions) {
      size_t rank = region.ctaSizes.size();
      scf::buildLoopNest(
          b, loc, SmallVector<Value>(rank, zero), region.ctaSizes,
          SmallVector<Value>(rank, one),
          [&](OpBuilder &nb, Location, ValueRange cta) {
            zeroArena(nb, arena, zero, plan.bytes);
            SmallVector<Value> args = argsOfCta(nb, arena, zero);
            Value threads = indexConstant(nb, loc, region.threads);
            if (region.threads > 1 && waitsOnBarriers(*region.body)) {
              forEachOnOwnThread(nb, loc, threads, [&](OpBuilder &tb, Value t) {
                runThread(tb, region, cta, t, args);
              });
              return;
            }
            auto loop = scf::ForOp::create(nb, loc, zero, threads, one);
            OpBuilder::InsertionGuard guard(nb);
            nb.setInsertionPoint(loop.getBody()->getTerminator());
            runThread(nb, region, cta, loop.getInductionVar(), args);
          });
    }
    return;
  }

  // Every Pallas thread of every CTA of every region at once.
  SmallVector<Value> firstCta, firstThread;
  Value ctas = zero, threads = zero;
  for (const KernelRegion &region : regions) {
    firstCta.push_back(ctas);
    firstThread.push_back(threads);
    Value count = product(b, loc, region.ctaSizes);
    ctas = arith::AddIOp::create(b, loc, ctas, count);
    threads = arith::AddIOp::create(
        b, loc, threads,
        arith::MulIOp::create(b, loc, count,
                              indexConstant(b, loc, region.threads)));
  }
  firstThread.push_back(threads);
  Value arena = allocateArena(b, ctas);
  toFree.push_back(arena);
  if (plan.bytes)
    linalg::FillOp::create(
        b, loc, Value(arith::ConstantIntOp::create(b, loc, 0, 8)), arena);
  forEachOnOwnThread(b, loc, threads, [&](OpBuilder &nb, Value program) {
    for (auto [r, region] : llvm::enumerate(regions)) {
      Value inRegion = arith::AndIOp::create(
          nb, loc,
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::uge, program,
                                firstThread[r]),
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult, program,
                                firstThread[r + 1]));
      auto ifInRegion = scf::IfOp::create(nb, loc, inRegion, false);
      OpBuilder::InsertionGuard guard(nb);
      nb.setInsertionPointToStart(ifInRegion.thenBlock());
      Value local = arith::SubIOp::create(nb, loc, program, firstThread[r]);
      Value perCta = indexConstant(nb, loc, region.threads);
      Value ctaIndex = arith::DivUIOp::create(nb, loc, local, perCta);
      Value thread = arith::RemUIOp::create(nb, loc, local, perCta);
      Value base = arith::MulIOp::create(
          nb, loc, arith::AddIOp::create(nb, loc, firstCta[r], ctaIndex),
          indexConstant(nb, loc, plan.bytes));
      SmallVector<Value> args = argsOfCta(nb, arena, base);
      runThread(nb, region, delinearize(nb, loc, ctaIndex, region.ctaSizes),
                thread, args);
    }
  });
}

/// Binds the named axes of `mesh` to CTA indices `cta` (grid, then
/// cluster) and `thread`.
void bindMeshAxes(MeshAttr mesh, ValueRange cta, Value thread,
                  ProgramBindings &bindings) {
  size_t position = 0;
  for (auto [i, size] : llvm::enumerate(mesh.getGrid())) {
    if (i < mesh.getGridNames().size())
      bindings.axisIndex[mesh.getGridNames()[i].getValue()] = cta[position];
    ++position;
  }
  for (auto [i, size] : llvm::enumerate(mesh.getCluster())) {
    if (i < mesh.getClusterNames().size())
      bindings.axisIndex[mesh.getClusterNames()[i].getValue()] = cta[position];
    ++position;
  }
  if (mesh.getThreadName())
    bindings.axisIndex[mesh.getThreadName().getValue()] = thread;
}

void bindAxisSizes(OpBuilder &b, Location loc, ArrayRef<MeshAttr> meshes,
                   ProgramBindings &bindings) {
  for (MeshAttr mesh : meshes)
    for (auto [name, size] : mesh.getNamedAxes())
      if (!bindings.axisSize.count(name.getValue()))
        bindings.axisSize[name.getValue()] = indexConstant(b, loc, size);
}

/// The interpret lowering works on the kernel form.
LogicalResult verifyKernelForm(Operation *kernel) {
  if (kernel->getNumResults())
    return kernel->emitOpError()
           << "must be bufferized before "
              "--mgpu-lower-to-cpu (run --mgpu-bufferize)";
  auto call = dyn_cast<PallasCallOp>(kernel);
  if (call && !call.getExpanded())
    return kernel->emitOpError()
           << "must be in kernel form before --mgpu-lower-to-cpu (run "
              "--mgpu-expand-pipelines)";
  WalkResult result = kernel->walk([&](Operation *op) {
    if (isa<EmitPipelineOp>(op)) {
      op->emitOpError() << "must be expanded before --mgpu-lower-to-cpu (run "
                           "--mgpu-expand-pipelines)";
      return WalkResult::interrupt();
    }
    auto wait = dyn_cast<BarrierWaitOp>(op);
    if (wait && !wait.getParity()) {
      wait.emitOpError() << "needs the parity of its phase before "
                            "--mgpu-lower-to-cpu (run "
                            "--mgpu-track-barrier-phases)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool waitsOnSemaphores(Operation *kernel) {
  return kernel->walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Host threads one synchronizing kernel may start in interpret mode: far
/// more than any test needs, few enough that thread creation cannot fail.
constexpr int64_t kMaxHostThreads = 1024;

LogicalResult lowerPallasCall(PallasCallOp op) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Programs that wait on semaphores may wait for each other: each runs on
  // its own host thread, so their number must be known and bounded.
  bool concurrently = waitsOnSemaphores(op);
  if (concurrently) {
    MeshAttr mesh = op.getMeshAttrOrNull();
    std::optional<int64_t> total = mesh ? mesh.getNumThreads().value_or(1) : 1;
    ArrayRef<int64_t> grid = op.getStaticGrid();
    size_t axes = mesh && mesh.getNumThreads() ? grid.size() - 1 : grid.size();
    CompilerParamsAttr params = op.getParamsAttr();
    for (size_t d = 0; d < axes; ++d) {
      bool sequentialAxis =
          params && d < params.getDimensionSemantics().size() &&
          params.getDimensionSemantics()[d] == DimensionSemantics::sequential;
      if (sequentialAxis)
        continue;
      if (ShapedType::isDynamic(grid[d]) || !total ||
          *total * grid[d] > kMaxHostThreads)
        total = std::nullopt;
      else
        *total *= grid[d];
    }
    if (!total) {
      InFlightDiagnostic diag =
          op.emitOpError() << "waits on a semaphore: interpret mode runs each "
                              "of its programs on its own host thread, at "
                              "most "
                           << kMaxHostThreads << ", for a static grid";
      diag.attachNote() << "use a smaller static grid to run it on the CPU";
      return diag;
    }
  }

  SmallVector<Value> sizes;
  unsigned dynamicIndex = 0;
  for (int64_t size : op.getStaticGrid())
    sizes.push_back(ShapedType::isDynamic(size) ? op.getGrid()[dynamicIndex++]
                                                : indexConstant(b, loc, size));
  size_t rank = sizes.size();
  SmallVector<bool> sequential(rank, false);
  if (CompilerParamsAttr params = op.getParamsAttr())
    for (auto [d, semantics] : llvm::enumerate(params.getDimensionSemantics()))
      sequential[d] = semantics == DimensionSemantics::sequential;

  MeshAttr mesh = op.getMeshAttrOrNull();
  KernelRegion region;
  region.body = &op.getBody().front();
  region.mesh = mesh;
  region.threads = mesh ? mesh.getNumThreads().value_or(1) : 1;
  // CTAs: the parallel axes (a mesh's thread axis is the threads).
  size_t ctaRank = mesh && mesh.getNumThreads() ? rank - 1 : rank;
  SmallVector<size_t> ctaAxes;
  for (size_t d = 0; d < ctaRank; ++d)
    if (!sequential[d]) {
      ctaAxes.push_back(d);
      region.ctaSizes.push_back(sizes[d]);
    }
  region.bind = [&, ctaAxes, rank](OpBuilder &nb, Location l, ValueRange cta,
                                   Value thread, ProgramBindings &bindings) {
    Value zero = indexConstant(nb, l, 0);
    bindings.numPrograms = sizes;
    bindings.programIds.assign(rank, zero);
    for (auto [i, d] : llvm::enumerate(ctaAxes))
      bindings.programIds[d] = cta[i];
    if (!mesh)
      return;
    if (mesh.getNumThreads())
      bindings.programIds[rank - 1] = thread;
    bindMeshAxes(mesh, cta, thread, bindings);
    bindAxisSizes(nb, l, {mesh}, bindings);
  };

  KernelLowering lowering(op, op.getScratch());
  lowering.allocateGlobalScratch(
      op.getOperands().drop_front(op.getGrid().size()));
  lowering.run({region}, concurrently);
  lowering.finish();
  op.erase();
  return success();
}

LogicalResult lowerMpmdMap(MpmdMapOp op) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  bool concurrently = waitsOnSemaphores(op);
  if (concurrently) {
    int64_t total = 0;
    for (unsigned i = 0, e = op.getBodies().size(); i < e; ++i) {
      int64_t count = 1;
      for (int64_t size : op.getMeshAttrOrNull(i).getShape())
        count *= size;
      total += count;
    }
    if (total > kMaxHostThreads) {
      InFlightDiagnostic diag = op.emitOpError()
                                << "has " << total
                                << " programs that may wait on each other; "
                                   "interpret mode runs each on its own host "
                                   "thread, at most "
                                << kMaxHostThreads;
      diag.attachNote() << "use smaller meshes to run it on the CPU";
      return diag;
    }
  }

  SmallVector<MeshAttr> superMesh;
  for (unsigned i = 0, e = op.getMeshes().size(); i < e; ++i)
    superMesh.push_back(op.getMeshAttrOrNull(i));
  if (ArrayAttr external = op.getExternalMeshesAttr())
    for (Attribute attr : external)
      superMesh.push_back(cast<MeshAttr>(attr));

  SmallVector<KernelRegion> regions;
  for (unsigned i = 0, e = op.getBodies().size(); i < e; ++i) {
    MeshAttr mesh = op.getMeshAttrOrNull(i);
    KernelRegion region;
    region.body = &op.getBodies()[i].front();
    region.mesh = mesh;
    region.threads = mesh.getNumThreads().value_or(1);
    for (int64_t size : mesh.getGrid())
      region.ctaSizes.push_back(indexConstant(b, loc, size));
    for (int64_t size : mesh.getCluster())
      region.ctaSizes.push_back(indexConstant(b, loc, size));
    region.bind = [&, mesh](OpBuilder &nb, Location l, ValueRange cta,
                            Value thread, ProgramBindings &bindings) {
      for (int64_t size : mesh.getGrid())
        bindings.numPrograms.push_back(indexConstant(nb, l, size));
      bindings.programIds =
          llvm::to_vector(cta.take_front(mesh.getGrid().size()));
      bindMeshAxes(mesh, cta, thread, bindings);
      bindAxisSizes(nb, l, superMesh, bindings);
    };
    regions.push_back(std::move(region));
  }

  KernelLowering lowering(op, op.getScratch());
  lowering.allocateGlobalScratch(op.getOperands());
  lowering.run(regions, concurrently);
  lowering.finish();
  op.erase();
  return success();
}

struct LowerToCPUPass : public mgpu::impl::MGPULowerToCPUBase<LowerToCPUPass> {
  void runOnOperation() override {
    SmallVector<Operation *> kernels;
    WalkResult gpuCode = getOperation()->walk([&](Operation *op) {
      if (isa<PallasCallOp, MpmdMapOp>(op))
        kernels.push_back(op);
      // GPU kernels already lowered have no interpret lowering.
      if (isa<gpu::LaunchFuncOp, gpu::LaunchOp>(op)) {
        op->emitOpError() << "is GPU code, which interpret mode does not "
                             "run: --mgpu-to-cpu takes mgpu kernels "
                             "(pallas_call, mpmd_map); mgpu-run "
                             "--backend=emulate runs GPU kernels on the host";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (gpuCode.wasInterrupted())
      return signalPassFailure();
    SetVector<Operation *> hosts;
    for (Operation *kernel : kernels) {
      hosts.insert(kernel->getParentOp());
      LogicalResult result = isa<PallasCallOp>(kernel)
                                 ? lowerPallasCall(cast<PallasCallOp>(kernel))
                                 : lowerMpmdMap(cast<MpmdMapOp>(kernel));
      if (failed(result))
        return signalPassFailure();
    }
    // The kernel-level ops and semaphores, now in host code.
    TypeConverter converter;
    populateBarrierTypeConversion(converter);
    RewritePatternSet patterns(&getContext());
    populatePrimitivesToCPUPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configurePrimitivesToCPULegality(target);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (Operation *host : hosts)
      if (failed(applyPartialConversion(host, target, frozen)))
        return signalPassFailure();
  }
};

} // namespace
