//===- LowerToCPU.cpp - --mgpu-lower-to-cpu (interpret mode) --------------===//
//
// Lowers memref-form pallas_call and mpmd_map to host loops with Pallas
// semantics, so the kernels of a module run on the CPU unchanged. A
// pallas_call becomes a loop nest over its grid in Pallas order (last axis
// innermost). Each SMEM-staged operand gets one host buffer holding its
// current block: an input block is copied in when its block index changes,
// an output block is copied out when its index changes and after the last
// step (so a block revisited across consecutive steps stays resident, the
// accumulator pattern) and copied in when it becomes current, so unwritten
// elements keep the array's values. Out-of-bounds parts of a block read as
// zeros and are never written back. An mpmd_map runs its regions in order,
// each over its whole mesh, with zero-initialized global scratch.
//
// Programs run one after another, except in an mpmd_map that waits on a
// semaphore: there every program of every region gets its own host thread
// (an OpenMP team with one thread per program), so a consumer that waits for
// a producer cannot deadlock whatever the order of the regions. A pallas_call
// that waits on a semaphore is refused with a diagnostic rather than left to
// hang.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOCPU
#include "mgpu/Transforms/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// What the body queries (program_id, axis_index, ...) stand for at one
/// program of the grid.
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

/// Binds the axes of `mesh` (grid, cluster, thread, in that order) to the
/// induction variables `ivs` of a loop nest over the mesh's shape.
void bindMeshAxes(MeshAttr mesh, ValueRange ivs, ProgramBindings &bindings) {
  unsigned position = 0;
  auto bind = [&](ArrayRef<StringAttr> names, size_t count) {
    for (size_t i = 0; i < count; ++i, ++position)
      if (i < names.size())
        bindings.axisIndex[names[i].getValue()] = ivs[position];
  };
  bind(mesh.getGridNames(), mesh.getGrid().size());
  bind(mesh.getClusterNames(), mesh.getCluster().size());
  if (mesh.getNumThreads() && mesh.getThreadName())
    bindings.axisIndex[mesh.getThreadName().getValue()] = ivs[position];
}

void bindAxisSizes(OpBuilder &b, Location loc, ArrayRef<MeshAttr> meshes,
                   ProgramBindings &bindings) {
  for (MeshAttr mesh : meshes)
    for (auto [name, size] : mesh.getNamedAxes())
      if (!bindings.axisSize.count(name.getValue()))
        bindings.axisSize[name.getValue()] = indexConstant(b, loc, size);
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

/// Semaphores on the host: an atomic add, and a spin on "subtract if at
/// least `value`" done as one atomic read-modify-write.
void lowerSemaphores(Operation *root) {
  root->walk([&](SemaphoreSignalOp op) {
    OpBuilder b(op);
    memref::AtomicRMWOp::create(b, op.getLoc(), arith::AtomicRMWKind::addi,
                                op.getValue(), op.getSem(), op.getIndices());
    op.erase();
  });
  root->walk([&](SemaphoreWaitOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value value = op.getValue();
    auto loop = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
    Block *before = b.createBlock(&loop.getBefore());
    auto rmw = memref::GenericAtomicRMWOp::create(b, loc, op.getSem(),
                                                  op.getIndices());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rmw.getBody());
      Value current = rmw.getCurrentValue();
      Value ready = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          current, value);
      Value taken = arith::SubIOp::create(b, loc, current, value);
      Value next = arith::SelectOp::create(b, loc, ready, taken, current);
      memref::AtomicYieldOp::create(b, loc, next);
    }
    Value notReady = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           rmw.getResult(), value);
    scf::ConditionOp::create(b, loc, notReady, ValueRange());
    b.createBlock(&loop.getAfter());
    scf::YieldOp::create(b, loc);
    (void)before;
    op.erase();
  });
}

//===----------------------------------------------------------------------===//
// Block staging
//===----------------------------------------------------------------------===//

/// One SMEM-staged operand of a pallas_call and its host-side state.
struct StagedOperand {
  Value array;
  BlockSpecAttr spec;
  bool isOutput;
  Value buffer;    // the current block
  Value lastIndex; // memref<rank x index>: block index held in `buffer`
  Value valid;     // memref<i1>: whether `buffer` holds a block
};

/// Copies block `blockIndex` between `array` and `buffer`, clipped to the
/// array: out-of-bounds elements read as zero and are not written.
void copyBlock(OpBuilder &b, Location loc, const StagedOperand &operand,
               ValueRange blockIndex, bool toBuffer) {
  ArrayRef<int64_t> window = operand.spec.getShape();
  SmallVector<OpFoldResult> arrayOffsets, bufferOffsets, sizes, strides;
  Value partial = arith::ConstantIntOp::create(b, loc, 0, 1);
  Value zero = indexConstant(b, loc, 0);
  for (auto [dim, index] : llvm::enumerate(blockIndex)) {
    Value size = indexConstant(b, loc, window[dim]);
    Value extentOfArray = memref::DimOp::create(b, loc, operand.array, dim);
    Value offset = arith::MulIOp::create(b, loc, index, size);
    Value lo = arith::MaxSIOp::create(b, loc, offset, zero);
    Value end = arith::AddIOp::create(b, loc, offset, size);
    Value hi = arith::MinSIOp::create(b, loc, end, extentOfArray);
    Value extent = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, hi, lo), zero);
    Value clipped =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, extent, size);
    partial = arith::OrIOp::create(b, loc, partial, clipped);
    arrayOffsets.push_back(lo);
    bufferOffsets.push_back(Value(arith::SubIOp::create(b, loc, lo, offset)));
    sizes.push_back(extent);
    strides.push_back(b.getIndexAttr(1));
  }
  Value arrayView = memref::SubViewOp::create(b, loc, operand.array,
                                              arrayOffsets, sizes, strides);
  Value bufferView = memref::SubViewOp::create(b, loc, operand.buffer,
                                               bufferOffsets, sizes, strides);
  if (!toBuffer) {
    linalg::CopyOp::create(b, loc, bufferView, arrayView);
    return;
  }
  Type elementType =
      cast<MemRefType>(operand.buffer.getType()).getElementType();
  auto fill = scf::IfOp::create(b, loc, partial, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fill.thenBlock());
    Value zeroElement = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(elementType)));
    linalg::FillOp::create(b, loc, zeroElement, operand.buffer);
  }
  linalg::CopyOp::create(b, loc, arrayView, bufferView);
}

SmallVector<Value> loadIndex(OpBuilder &b, Location loc, Value stored,
                             size_t rank) {
  SmallVector<Value> index;
  for (size_t d = 0; d < rank; ++d)
    index.push_back(
        memref::LoadOp::create(b, loc, stored, indexConstant(b, loc, d)));
  return index;
}

/// At one grid step: brings each staged operand's current block into its
/// buffer, writing back an output's previous block first.
void stageBlocks(OpBuilder &b, Location loc, ArrayRef<StagedOperand> operands,
                 ValueRange ivs) {
  for (const StagedOperand &operand : operands) {
    AffineMap map = operand.spec.getIndexMap().getValue();
    SmallVector<Value> index;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      index.push_back(
          affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), ivs));
    Value valid = memref::LoadOp::create(b, loc, operand.valid);
    SmallVector<Value> last =
        loadIndex(b, loc, operand.lastIndex, index.size());
    Value changed = arith::XOrIOp::create(
        b, loc, valid, arith::ConstantIntOp::create(b, loc, 1, 1));
    for (auto [now, before] : llvm::zip(index, last))
      changed = arith::OrIOp::create(
          b, loc, changed,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, now, before));
    auto ifChanged = scf::IfOp::create(b, loc, changed, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifChanged.thenBlock());
    if (operand.isOutput) {
      auto ifValid = scf::IfOp::create(b, loc, valid, false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(ifValid.thenBlock());
      copyBlock(b, loc, operand, last, /*toBuffer=*/false);
    }
    copyBlock(b, loc, operand, index, /*toBuffer=*/true);
    for (auto [d, value] : llvm::enumerate(index))
      memref::StoreOp::create(b, loc, value, operand.lastIndex,
                              indexConstant(b, loc, d));
    memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1),
                            operand.valid);
  }
}

/// Zero-filled host buffer for a scratch operand.
Value allocateZeroed(OpBuilder &b, Location loc, MemRefType type) {
  Value buffer =
      memref::AllocOp::create(b, loc, cast<MemRefType>(toHostType(type)));
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
  linalg::FillOp::create(b, loc, zero, buffer);
  return buffer;
}

/// Zero-filled host buffers for the scratch operands, appended to the region
/// arguments `args` and to the buffers to free after the kernel.
void appendZeroedScratch(OpBuilder &b, Location loc,
                         std::optional<ArrayAttr> scratch,
                         SmallVectorImpl<Value> &args,
                         SmallVectorImpl<Value> &toFree) {
  if (!scratch)
    return;
  for (Attribute attr : *scratch) {
    Value buffer = allocateZeroed(
        b, loc, cast<MemRefType>(cast<TypeAttr>(attr).getValue()));
    args.push_back(buffer);
    toFree.push_back(buffer);
  }
}

/// The interpret lowering works on the memref form.
LogicalResult verifyBufferized(Operation *kernel) {
  if (kernel->getNumResults() == 0)
    return success();
  return kernel->emitOpError() << "must be bufferized before "
                                  "--mgpu-lower-to-cpu (run --mgpu-bufferize)";
}

/// Whether programs of `kernel` may wait for each other.
bool waitsOnSemaphores(Operation *kernel) {
  return kernel->walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// A kernel whose programs wait on each other cannot run one program after
/// another.
LogicalResult verifySequentiallyRunnable(Operation *kernel) {
  WalkResult result = kernel->walk([&](SemaphoreWaitOp wait) {
    InFlightDiagnostic diag =
        wait.emitOpError()
        << "cannot run in interpret mode yet: the CPU lowering runs programs "
           "one after another, so a program waiting for another one could "
           "hang";
    diag.attachNote(kernel->getLoc()) << "in this kernel";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

LogicalResult lowerPallasCall(PallasCallOp op) {
  if (failed(verifyBufferized(op)))
    return failure();
  if (failed(verifySequentiallyRunnable(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();

  // Grid sizes.
  SmallVector<Value> sizes;
  unsigned dynamicIndex = 0;
  for (int64_t size : op.getStaticGrid())
    sizes.push_back(ShapedType::isDynamic(size) ? op.getGrid()[dynamicIndex++]
                                                : indexConstant(b, loc, size));

  // Region arguments: staged blocks get buffers, GMEM blocks the arrays.
  SmallVector<Value> args;
  SmallVector<StagedOperand> staged;
  SmallVector<Value> toFree;
  auto addOperands = [&](ValueRange operands, ArrayAttr specs, bool output) {
    for (auto [array, specAttr] : llvm::zip(operands, specs)) {
      auto spec = cast<BlockSpecAttr>(specAttr);
      if (!spec.isStaged()) {
        args.push_back(array);
        continue;
      }
      auto blockType = MemRefType::get(
          spec.getShape(), cast<MemRefType>(array.getType()).getElementType());
      StagedOperand operand{array, spec, output};
      operand.buffer = memref::AllocOp::create(b, loc, blockType);
      operand.lastIndex = memref::AllocaOp::create(
          b, loc,
          MemRefType::get({static_cast<int64_t>(spec.getShape().size())},
                          b.getIndexType()));
      operand.valid =
          memref::AllocaOp::create(b, loc, MemRefType::get({}, b.getI1Type()));
      memref::StoreOp::create(
          b, loc, arith::ConstantIntOp::create(b, loc, 0, 1), operand.valid);
      args.push_back(operand.buffer);
      toFree.push_back(operand.buffer);
      staged.push_back(operand);
    }
  };
  addOperands(op.getIns(), op.getInSpecs(), false);
  addOperands(op.getOuts(), op.getOutSpecs(), true);
  appendZeroedScratch(b, loc, op.getScratch(), args, toFree);

  ProgramBindings bindings;
  bindings.numPrograms = sizes;
  SmallVector<MeshAttr> meshes;
  if (MeshAttr mesh = op.getMeshAttrOrNull())
    meshes.push_back(mesh);
  bindAxisSizes(b, loc, meshes, bindings);

  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  scf::buildLoopNest(b, loc, SmallVector<Value>(sizes.size(), zero), sizes,
                     SmallVector<Value>(sizes.size(), one),
                     [&](OpBuilder &nested, Location loc, ValueRange ivs) {
                       bindings.programIds = llvm::to_vector(ivs);
                       if (!meshes.empty())
                         bindMeshAxes(meshes.front(), ivs, bindings);
                       stageBlocks(nested, loc, staged, ivs);
                       inlineKernelBody(nested, loc, op.getBody().front(), args,
                                        bindings);
                     });

  // The last block of each output goes back.
  for (const StagedOperand &operand : staged) {
    if (!operand.isOutput)
      continue;
    Value valid = memref::LoadOp::create(b, loc, operand.valid);
    auto ifValid = scf::IfOp::create(b, loc, valid, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifValid.thenBlock());
    copyBlock(
        b, loc, operand,
        loadIndex(b, loc, operand.lastIndex, operand.spec.getShape().size()),
        /*toBuffer=*/false);
  }
  for (Value buffer : toFree)
    memref::DeallocOp::create(b, loc, buffer);
  op.erase();
  return success();
}

using ProgramBuilder =
    function_ref<void(OpBuilder &, Location, unsigned, ValueRange)>;

/// Each region over its whole mesh, one program after another.
void runProgramsInOrder(OpBuilder &b, Location loc, MpmdMapOp op,
                        ProgramBuilder runProgram) {
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  for (unsigned index = 0, e = op.getBodies().size(); index < e; ++index) {
    SmallVector<Value> sizes;
    for (int64_t size : op.getMeshAttrOrNull(index).getShape())
      sizes.push_back(indexConstant(b, loc, size));
    scf::buildLoopNest(b, loc, SmallVector<Value>(sizes.size(), zero), sizes,
                       SmallVector<Value>(sizes.size(), one),
                       [&](OpBuilder &nested, Location loc, ValueRange ivs) {
                         runProgram(nested, loc, index, ivs);
                       });
  }
}

/// Every program of every region on its own host thread: an OpenMP team of
/// one thread per program, each taking one iteration of a statically
/// scheduled loop over all programs (chunk 1), so programs that wait on each
/// other all make progress, as on a GPU where they are all resident.
void runProgramsConcurrently(OpBuilder &b, Location loc, MpmdMapOp op,
                             ProgramBuilder runProgram) {
  SmallVector<int64_t> firstProgram;
  int64_t total = 0;
  for (unsigned index = 0, e = op.getBodies().size(); index < e; ++index) {
    firstProgram.push_back(total);
    int64_t count = 1;
    for (int64_t size : op.getMeshAttrOrNull(index).getShape())
      count *= size;
    total += count;
  }
  firstProgram.push_back(total);

  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  Value numPrograms = indexConstant(b, loc, total);
  omp::ParallelOperands team;
  team.numThreads = arith::ConstantIntOp::create(b, loc, total, 32);
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
  bounds.loopUpperBounds = {numPrograms};
  bounds.loopSteps = {one};
  auto nest = omp::LoopNestOp::create(b, loc, bounds);
  Block *body = b.createBlock(&nest.getRegion(), {}, {b.getIndexType()}, {loc});
  Value program = body->getArgument(0);
  omp::YieldOp::create(b, loc);
  b.setInsertionPointToStart(body);

  for (unsigned index = 0, e = op.getBodies().size(); index < e; ++index) {
    Value first = indexConstant(b, loc, firstProgram[index]);
    Value end = indexConstant(b, loc, firstProgram[index + 1]);
    Value inRegion = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, program,
                              first),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, program, end));
    auto ifInRegion = scf::IfOp::create(b, loc, inRegion, false);
    OpBuilder::InsertionGuard regionGuard(b);
    b.setInsertionPointToStart(ifInRegion.thenBlock());
    // Row-major mesh indices of the program within its region.
    SmallVector<int64_t> shape = op.getMeshAttrOrNull(index).getShape();
    Value rest = arith::SubIOp::create(b, loc, program, first);
    SmallVector<Value> ivs(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      Value size = indexConstant(b, loc, shape[d]);
      ivs[d] = arith::RemUIOp::create(b, loc, rest, size);
      rest = arith::DivUIOp::create(b, loc, rest, size);
    }
    runProgram(b, loc, index, ivs);
  }
}

/// Host threads one synchronizing mpmd_map may start in interpret mode: far
/// more than any test needs, few enough that thread creation cannot fail.
constexpr int64_t kMaxHostThreads = 1024;

/// The programs of a synchronizing mpmd_map each take a host thread.
LogicalResult verifyConcurrentlyRunnable(MpmdMapOp op) {
  int64_t total = 0;
  for (unsigned index = 0, e = op.getBodies().size(); index < e; ++index) {
    int64_t count = 1;
    for (int64_t size : op.getMeshAttrOrNull(index).getShape())
      count *= size;
    total += count;
  }
  if (total <= kMaxHostThreads)
    return success();
  InFlightDiagnostic diag =
      op.emitOpError() << "has " << total
                       << " programs that may wait on each other; interpret "
                          "mode runs each on its own host thread, at most "
                       << kMaxHostThreads;
  diag.attachNote() << "use smaller meshes to run it on the CPU";
  return diag;
}

LogicalResult lowerMpmdMap(MpmdMapOp op) {
  if (failed(verifyBufferized(op)))
    return failure();
  bool concurrent = waitsOnSemaphores(op);
  if (concurrent && failed(verifyConcurrentlyRunnable(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();

  SmallVector<Value> args(op.getOperands());
  SmallVector<Value> toFree;
  appendZeroedScratch(b, loc, op.getScratch(), args, toFree);

  SmallVector<MeshAttr> superMesh;
  for (unsigned i = 0, e = op.getMeshes().size(); i < e; ++i)
    superMesh.push_back(op.getMeshAttrOrNull(i));
  if (ArrayAttr external = op.getExternalMeshesAttr())
    for (Attribute attr : external)
      superMesh.push_back(cast<MeshAttr>(attr));

  // Runs region `index` at the program whose mesh indices are `ivs`.
  auto runProgram = [&](OpBuilder &nested, Location loc, unsigned index,
                        ValueRange ivs) {
    MeshAttr mesh = op.getMeshAttrOrNull(index);
    ProgramBindings bindings;
    bindAxisSizes(nested, loc, superMesh, bindings);
    for (int64_t size : mesh.getGrid())
      bindings.numPrograms.push_back(indexConstant(nested, loc, size));
    bindings.programIds =
        llvm::to_vector(ivs.take_front(mesh.getGrid().size()));
    bindMeshAxes(mesh, ivs, bindings);
    inlineKernelBody(nested, loc, op.getBodies()[index].front(), args,
                     bindings);
  };

  if (concurrent)
    runProgramsConcurrently(b, loc, op, runProgram);
  else
    runProgramsInOrder(b, loc, op, runProgram);
  for (Value buffer : toFree)
    memref::DeallocOp::create(b, loc, buffer);
  op.erase();
  return success();
}

struct LowerToCPUPass : public mgpu::impl::MGPULowerToCPUBase<LowerToCPUPass> {
  void runOnOperation() override {
    SmallVector<Operation *> kernels;
    getOperation()->walk([&](Operation *op) {
      if (isa<PallasCallOp, MpmdMapOp>(op))
        kernels.push_back(op);
    });
    for (Operation *kernel : kernels) {
      Operation *parent = kernel->getParentOp();
      LogicalResult result = isa<PallasCallOp>(kernel)
                                 ? lowerPallasCall(cast<PallasCallOp>(kernel))
                                 : lowerMpmdMap(cast<MpmdMapOp>(kernel));
      if (failed(result))
        return signalPassFailure();
      lowerSemaphores(parent);
    }
  }
};

} // namespace
