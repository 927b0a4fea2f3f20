//===- EmulateHostSide.cpp - The emulator's host side --------------------===//
//
// The emulator runs gpu.launch bodies. Programs written against upstream's
// gpu dialect launch outlined kernels (gpu.module, gpu.func, gpu.launch_func
// on an async token chain), so each launch_func is brought back inline first:
// a gpu.launch with the launch_func's sizes, cluster, dynamic shared memory
// and async dependencies, whose body is a copy of the kernel's. The
// workgroup attributions of every launch then become views of dynamic shared
// memory past the launch's own (the emulator gives every CTA its slice of
// that), its private attributions allocas of each thread.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Host/EmulateHostSide.h"
#include "mgpu/Host/HostTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Alignment of each workgroup attribution in dynamic shared memory, as
/// the NVVM lowering aligns them.
constexpr int64_t kAttributionAlignment = 16;

/// Why the kernel of `launch` cannot be inlined: the error at the launch,
/// with a note at `where` in the kernel.
LogicalResult refuse(gpu::LaunchFuncOp launch, Operation *where,
                     const Twine &why) {
  InFlightDiagnostic diag = launch.emitOpError()
                            << "cannot be emulated: " << why;
  if (where)
    diag.attachNote(where->getLoc()) << "in the kernel here";
  return diag;
}

LogicalResult inlineLaunchFunc(gpu::LaunchFuncOp launchFunc) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launchFunc, launchFunc.getKernel());
  if (!kernel)
    return refuse(launchFunc, nullptr,
                  "its kernel is not a gpu.func of a gpu.module");
  if (launchFunc.getAsyncObject())
    return refuse(launchFunc, kernel,
                  "launches on a stream object are not emulated");
  if (!kernel.getBody().hasOneBlock())
    return refuse(launchFunc, kernel,
                  "the kernel's body must be one block (structured control "
                  "flow: scf, not cf)");
  if (launchFunc.getNumKernelOperands() != kernel.getNumArguments())
    return refuse(launchFunc, kernel, "kernel operands do not match");
  // Device functions and globals of the gpu.module have no host copy.
  Operation *kernels = kernel->getParentOp();
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&kernel.getBody()))
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *target = SymbolTable::lookupNearestSymbolFrom(
          use.getUser(), use.getSymbolRef());
      if (target && kernels->isProperAncestor(target))
        return refuse(launchFunc, use.getUser(),
                      "the kernel uses @" +
                          use.getSymbolRef().getLeafReference().getValue() +
                          " of its gpu.module, which the emulator does not "
                          "bring to the host");
    }

  OpBuilder b(launchFunc);
  Type tokenType = launchFunc.getAsyncToken()
                       ? launchFunc.getAsyncToken().getType()
                       : Type();
  gpu::KernelDim3 grid = launchFunc.getGridSizeOperandValues();
  gpu::KernelDim3 block = launchFunc.getBlockSizeOperandValues();
  Value cx, cy, cz;
  if (launchFunc.hasClusterSize()) {
    gpu::KernelDim3 cluster = launchFunc.getClusterSizeOperandValues();
    cx = cluster.x, cy = cluster.y, cz = cluster.z;
  }
  auto launch = gpu::LaunchOp::create(
      b, launchFunc.getLoc(), grid.x, grid.y, grid.z, block.x, block.y, block.z,
      launchFunc.getDynamicSharedMemorySize(), tokenType,
      launchFunc.getAsyncDependencies(),
      TypeRange(ValueRange(kernel.getWorkgroupAttributions())),
      TypeRange(ValueRange(kernel.getPrivateAttributions())), cx, cy, cz);

  // LLVM 22's builder gives the body the 12 config arguments only, where the
  // parser and the accessors also count 6 cluster ones with a cluster.
  Block &body = launch.getBody().front();
  if (launch.hasClusterSize() &&
      body.getNumArguments() < launch.getNumConfigRegionAttributes() +
                                   kernel.getNumWorkgroupAttributions() +
                                   kernel.getNumPrivateAttributions())
    for (unsigned i = gpu::LaunchOp::kNumConfigRegionAttributes;
         i < launch.getNumConfigRegionAttributes(); ++i)
      body.insertArgument(i, b.getIndexType(), launchFunc.getLoc());

  IRMapping mapping;
  mapping.map(kernel.getArguments(), launchFunc.getKernelOperands());
  mapping.map(ValueRange(kernel.getWorkgroupAttributions()),
              ValueRange(launch.getWorkgroupAttributions()));
  mapping.map(ValueRange(kernel.getPrivateAttributions()),
              ValueRange(launch.getPrivateAttributions()));
  b.setInsertionPointToStart(&body);
  for (Operation &op : kernel.getBody().front().without_terminator())
    b.clone(op, mapping);
  gpu::TerminatorOp::create(b, kernel.getBody().front().back().getLoc());

  if (Value token = launchFunc.getAsyncToken())
    token.replaceAllUsesWith(launch.getAsyncToken());
  launchFunc.erase();
  return success();
}

/// The bytes of a statically shaped workgroup attribution, or failure.
FailureOr<int64_t> attributionBytes(Operation *op, MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return failure();
  int64_t element = static_cast<int64_t>(
      DataLayout::closest(op).getTypeSize(type.getElementType()));
  return type.getNumElements() * element;
}

/// The launch's attributions as the emulator's memory: workgroup ones as
/// views of dynamic shared memory at 16-byte aligned offsets past the
/// launch's own (the launch's dynamic size grows by theirs), private ones
/// as allocas of each thread. The attribution arguments are left unused.
LogicalResult lowerAttributions(gpu::LaunchOp launch) {
  ArrayRef<BlockArgument> workgroup = launch.getWorkgroupAttributions();
  ArrayRef<BlockArgument> privates = launch.getPrivateAttributions();
  if (workgroup.empty() && privates.empty())
    return success();
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value dynamicBytes = launch.getDynamicSharedMemorySize();
  Value end = dynamicBytes ? Value(arith::IndexCastOp::create(
                                 b, loc, b.getIndexType(), dynamicBytes))
                           : constant(0);
  SmallVector<Value> offsets;
  for (BlockArgument attribution : workgroup) {
    auto type = cast<MemRefType>(attribution.getType());
    FailureOr<int64_t> bytes = attributionBytes(launch, type);
    if (failed(bytes))
      return launch.emitOpError()
             << "cannot be emulated: workgroup attribution of type " << type
             << " (the emulator places static shapes with the identity "
                "layout)";
    Value aligned =
        arith::MulIOp::create(b, loc,
                              arith::CeilDivUIOp::create(
                                  b, loc, end, constant(kAttributionAlignment)),
                              constant(kAttributionAlignment));
    offsets.push_back(aligned);
    end = arith::AddIOp::create(b, loc, aligned, constant(*bytes));
  }
  if (!workgroup.empty())
    launch.getDynamicSharedMemorySizeMutable().assign(
        arith::IndexCastOp::create(b, loc, b.getI32Type(), end).getResult());

  b.setInsertionPointToStart(&launch.getBody().front());
  if (!workgroup.empty()) {
    auto bytesType = MemRefType::get(
        {ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup));
    Value shared = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    for (auto [attribution, offset] : llvm::zip_equal(workgroup, offsets)) {
      BlockArgument argument = attribution;
      argument.replaceAllUsesWith(
          memref::ViewOp::create(b, argument.getLoc(), argument.getType(),
                                 shared, offset, ValueRange()));
    }
  }
  for (BlockArgument attribution : privates)
    BlockArgument(attribution)
        .replaceAllUsesWith(memref::AllocaOp::create(
            b, attribution.getLoc(),
            cast<MemRefType>(toHostType(attribution.getType()))));
  return success();
}

} // namespace

LogicalResult mlir::mgpu::prepareLaunches(ModuleOp module) {
  SmallVector<gpu::LaunchFuncOp> outlined;
  module.walk([&](gpu::LaunchFuncOp op) { outlined.push_back(op); });
  SetVector<Operation *> kernelModules;
  for (gpu::LaunchFuncOp launch : outlined) {
    if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel()))
      kernelModules.insert(kernel->getParentOp());
    if (failed(inlineLaunchFunc(launch)))
      return failure();
  }
  // A gpu.module left behind would go on to the host lowering, which has
  // no place for it.
  for (Operation *kernels : kernelModules)
    if (SymbolTable::symbolKnownUseEmpty(kernels, kernels->getParentOp()))
      kernels->erase();
  WalkResult lowered = module.walk([](gpu::LaunchOp launch) {
    return failed(lowerAttributions(launch)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
  });
  return failure(lowered.wasInterrupted());
}

LogicalResult mlir::mgpu::emulateHostOps(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<gpu::AllocOp, gpu::MemcpyOp, gpu::MemsetOp, gpu::DeallocOp,
            gpu::WaitOp, gpu::LaunchOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      Value host = memref::AllocOp::create(b, loc, alloc.getMemref().getType(),
                                           alloc.getDynamicSizes());
      alloc.getMemref().replaceAllUsesWith(host);
    } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      memref::CopyOp::create(b, loc, copy.getSrc(), copy.getDst());
    } else if (auto set = dyn_cast<gpu::MemsetOp>(op)) {
      linalg::FillOp::create(b, loc, set.getValue(), set.getDst());
    } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
      memref::DeallocOp::create(b, loc, dealloc.getMemref());
    }
  }
  for (Operation *op : llvm::reverse(ops)) {
    for (OpResult r : op->getResults())
      if (!r.use_empty() && !isa<gpu::AsyncTokenType>(r.getType()))
        return op->emitOpError() << "cannot be emulated: result still used";
    op->dropAllUses();
    op->erase();
  }
  return success();
}
