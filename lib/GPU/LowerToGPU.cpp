//===- LowerToGPU.cpp - --mgpu-lower-to-gpu -------------------------------===//
//
// Lowers kernels in kernel form (expanded pallas_call, mpmd_map; see
// --mgpu-expand-pipelines) to `gpu.launch` ops over device copies of their
// operands. Kernel-level ops stay in the launch bodies for a backend to
// lower (--mgpu-primitives-to-nvvm for the GPU, --mgpu-emulate-gpu for the
// emulator); --mgpu-outline-kernels then makes gpu.module kernels.
//
// pallas_call: its parallel grid axes are numbered row-major onto the CTAs
// of a one-dimensional grid (so no axis meets the 65535 limit of y and z);
// with a mesh, its grid axes number the clusters and its cluster axes are
// the launch cluster. The body already loops over the sequential axes.
// Each Pallas thread is a warpgroup, whose body WarpgroupDistribution turns
// into per-lane code.
//
// mpmd_map: the regions share one launch. When all meshes have the same grid
// and cluster, the pairs are warp-specialized (each region gets its own range
// of warpgroups in every CTA); otherwise they are CTA-partitioned (each
// region its own range of CTAs).
//
// Scratch: global scratch is a device buffer zeroed before the launch;
// shared scratch (zeroed) and barrier arrays (initialized by one thread)
// live in dynamic shared memory, one copy per region.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/GPU/DeviceBuffers.h"
#include "mgpu/GPU/WarpgroupDistribution.h"
#include "mgpu/Passes.h"

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOGPU
#include "mgpu/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

constexpr int64_t kSmemAlignment = TargetInfo::kSharedAlignment;
constexpr int64_t kSwizzleAtomBytes = TargetInfo::kSwizzleAtomBytes;

/// How the pairs of an mpmd_map share the launch.
enum class MpmdForm { Auto, WarpSpecialized, CtaPartitioned };

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Attribute workgroupSpace(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
}

/// Row-major indices of `linear` in a grid of `sizes`.
SmallVector<Value> unflatten(OpBuilder &b, Location loc, Value linear,
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

/// The product of `sizes`, folded to a constant where they are constants
/// (so that outlining sinks it into the kernel rather than passing it).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  int64_t known = 1;
  Value result;
  for (Value size : sizes) {
    APInt value;
    if (matchPattern(size, m_ConstantInt(&value))) {
      known *= value.getSExtValue();
      continue;
    }
    result = result ? Value(arith::MulIOp::create(b, loc, result, size)) : size;
  }
  if (!result)
    return indexConstant(b, loc, known);
  if (known != 1)
    result =
        arith::MulIOp::create(b, loc, result, indexConstant(b, loc, known));
  return result;
}

/// What the body's queries stand for in one Pallas thread.
struct Bindings {
  SmallVector<Value> programIds, numPrograms;
  llvm::StringMap<Value> axisIndex;
  llvm::StringMap<int64_t> axisSize;
};

/// Maps the query ops of `body` (at any depth) to their values.
void bindQueries(OpBuilder &b, Location loc, Block &body,
                 const Bindings &bindings, IRMapping &mapping) {
  body.walk([&](Operation *op) {
    if (auto id = dyn_cast<ProgramIdOp>(op))
      mapping.map(id.getResult(), bindings.programIds[id.getAxis()]);
    else if (auto num = dyn_cast<NumProgramsOp>(op))
      mapping.map(num.getResult(), bindings.numPrograms[num.getAxis()]);
    else if (auto axis = dyn_cast<AxisIndexOp>(op))
      mapping.map(axis.getResult(),
                  bindings.axisIndex.lookup(axis.getAxisName()));
    else if (auto size = dyn_cast<AxisSizeOp>(op))
      mapping.map(
          size.getResult(),
          indexConstant(b, loc, bindings.axisSize.lookup(size.getAxisName())));
  });
}

void bindAxisSizes(ArrayRef<MeshAttr> meshes, Bindings &bindings) {
  for (MeshAttr mesh : meshes)
    for (auto [name, size] : mesh.getNamedAxes())
      bindings.axisSize.try_emplace(name.getValue(), size);
}

/// Binds the named axes of `mesh` to `gridIds`, `clusterIds` and `thread`.
void bindMeshAxes(MeshAttr mesh, ArrayRef<Value> gridIds,
                  ArrayRef<Value> clusterIds, Value thread,
                  Bindings &bindings) {
  for (auto [name, id] : llvm::zip(mesh.getGridNames(), gridIds))
    bindings.axisIndex[name.getValue()] = id;
  for (auto [name, id] : llvm::zip(mesh.getClusterNames(), clusterIds))
    bindings.axisIndex[name.getValue()] = id;
  if (mesh.getThreadName())
    bindings.axisIndex[mesh.getThreadName().getValue()] = thread;
}

//===----------------------------------------------------------------------===//
// The launch
//===----------------------------------------------------------------------===//

/// One kernel being built: the gpu.launch, its thread geometry and its
/// shared memory layout.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  gpu::LaunchOp launch;
  Value tid, warpgroup, lane, smem;
  int64_t threads = 0;
  int64_t smemUsed = 0;
  // Patched once every body is distributed.
  arith::ConstantOp smemBytes, scratchStart, scratchPerWarpgroup;
  int64_t scratchBytes = 0;
  // mgpu.wgmma on the tensor cores (sm_90a and asked for).
  bool tensorCores = false;

  KernelBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// Creates the launch (its body becomes the insertion point).
  void create(Value token, Value ctas, ArrayRef<int64_t> cluster,
              int64_t numThreads) {
    threads = numThreads;
    smemBytes = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value one = indexConstant(b, loc, 1);
    Value gx = ctas, gy = one, gz = one;
    Value cx, cy, cz;
    if (!cluster.empty()) {
      cx = indexConstant(b, loc, cluster[0]);
      cy = indexConstant(b, loc, cluster.size() > 1 ? cluster[1] : 1);
      cz = indexConstant(b, loc, cluster.size() > 2 ? cluster[2] : 1);
      gx = arith::MulIOp::create(b, loc, ctas, cx);
      gy = cy;
      gz = cz;
    }
    launch = gpu::LaunchOp::create(
        b, loc, gx, gy, gz, indexConstant(b, loc, numThreads), one, one,
        smemBytes, gpu::AsyncTokenType::get(b.getContext()), ValueRange{token},
        TypeRange(), TypeRange(), cx, cy, cz);
    Block &body = launch.getBody().front();
    // LaunchOp::build leaves out the cluster id and size arguments that the
    // op (and its parser) have when a cluster is given.
    if (!cluster.empty() && body.getNumArguments() == 12)
      for (int i = 0; i < 6; ++i)
        body.addArgument(b.getIndexType(), loc);
    b.setInsertionPointToStart(&body);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body);
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value lanes = indexConstant(b, loc, kWarpgroupLanes);
    warpgroup = arith::DivUIOp::create(b, loc, tid, lanes);
    lane = arith::RemUIOp::create(b, loc, tid, lanes);
    auto smemType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(),
                                    workgroupSpace(b.getContext()));
    smem = gpu::DynamicSharedMemoryOp::create(b, loc, smemType);
    scratchStart = arith::ConstantIndexOp::create(b, loc, 0);
    scratchPerWarpgroup = arith::ConstantIndexOp::create(b, loc, 0);
  }

  /// A shared-memory buffer of `type`'s shape and element type.
  Value allocateShared(MemRefType type) {
    int64_t bytes = *getBufferBytes(type.getShape(), type.getElementType());
    // Buffers of a KiB or more (pipeline arenas among them) start on a
    // 1024-byte boundary, which 128-byte swizzled slots need.
    int64_t start =
        llvm::alignTo(smemUsed, bytes >= kSwizzleAtomBytes ? kSwizzleAtomBytes
                                                           : kSmemAlignment);
    smemUsed = start + bytes;
    auto viewType = MemRefType::get(type.getShape(), type.getElementType(),
                                    MemRefLayoutAttrInterface(),
                                    workgroupSpace(b.getContext()));
    return memref::ViewOp::create(b, loc, viewType, smem,
                                  indexConstant(b, loc, start), ValueRange());
  }

  /// The CTA id (of the cluster, with a cluster) and the position in the
  /// cluster.
  Value linearCta(bool clustered) {
    if (clustered)
      return gpu::ClusterIdOp::create(b, loc, gpu::Dimension::x);
    return gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  }
  SmallVector<Value> clusterPosition(ArrayRef<int64_t> cluster) {
    SmallVector<Value> ids;
    gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                             gpu::Dimension::z};
    for (size_t d = 0; d < cluster.size(); ++d)
      ids.push_back(gpu::ClusterBlockIdOp::create(b, loc, dims[d]));
    return ids;
  }

  /// Per-lane code of `body` for the current warpgroup.
  LogicalResult distribute(Block &body, IRMapping &mapping) {
    Value barrierId = arith::AddIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI32Type(), warpgroup),
        arith::ConstantIntOp::create(b, loc, 1, 32));
    Value offset = arith::AddIOp::create(
        b, loc, scratchStart,
        arith::MulIOp::create(b, loc, warpgroup, scratchPerWarpgroup));
    WarpgroupScratch scratch(smem, offset);
    WarpgroupContext context{lane, barrierId, &scratch, tensorCores};
    if (failed(distributeWarpgroupBody(b, body, mapping, context)))
      return failure();
    scratchBytes = std::max(scratchBytes, scratch.getRequiredBytes());
    return success();
  }

  /// Sets the shared memory size; fails past the chip's limit.
  LogicalResult finish(Operation *op) {
    int64_t start = llvm::alignTo(smemUsed, kSmemAlignment);
    int64_t perWarpgroup = llvm::alignTo(scratchBytes, 16);
    int64_t total = start + perWarpgroup * (threads / kWarpgroupLanes);
    scratchStart->setAttr("value", b.getIndexAttr(start));
    scratchPerWarpgroup->setAttr("value", b.getIndexAttr(perWarpgroup));
    smemBytes->setAttr("value", b.getI32IntegerAttr(total));
    const TargetInfo &target = getTargetInfo(op);
    StringRef chip = target.chip;
    std::optional<int64_t> limit = target.maxSharedMemoryBytes;
    if (total > *limit) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "needs " << total << " bytes of shared memory on the GPU ("
          << smemUsed << " for staged blocks and scratch, " << perWarpgroup
          << " per warpgroup for data exchanged between lanes), more than "
          << chip << " has (" << *limit << ")";
      diag.attachNote() << "use smaller blocks or vectors";
      return diag;
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Device copies of the operands
//===----------------------------------------------------------------------===//

/// The GPU lowering takes the kernel form.
LogicalResult verifyKernelForm(Operation *kernel) {
  if (kernel->getNumResults())
    return kernel->emitOpError()
           << "must be bufferized before "
              "--mgpu-lower-to-gpu (run --mgpu-bufferize)";
  auto call = dyn_cast<PallasCallOp>(kernel);
  if (call && !call.getExpanded())
    return kernel->emitOpError()
           << "must be in kernel form before --mgpu-lower-to-gpu (run "
              "--mgpu-expand-pipelines)";
  WalkResult result = kernel->walk([&](Operation *op) {
    if (isa<EmitPipelineOp>(op)) {
      op->emitOpError() << "must be expanded before --mgpu-lower-to-gpu (run "
                           "--mgpu-expand-pipelines)";
      return WalkResult::interrupt();
    }
    auto wait = dyn_cast<BarrierWaitOp>(op);
    if (wait && !wait.getParity()) {
      wait.emitOpError() << "needs the parity of its phase before "
                            "--mgpu-lower-to-gpu (run "
                            "--mgpu-track-barrier-phases)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Programs that wait on each other need every CTA resident at once.
LogicalResult verifyCoResident(Operation *kernel, int64_t ctas) {
  bool waits =
      kernel->walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (!waits)
    return success();
  StringRef chip = getTargetInfo(kernel).chip;
  int64_t resident = getTargetInfo(kernel).guaranteedResidentCtas;
  if (ctas >= 0 && ctas <= resident)
    return success();
  InFlightDiagnostic diag = kernel->emitOpError()
                            << "waits on a semaphore, so all its CTAs must be "
                               "resident at once, but ";
  if (ctas < 0)
    diag << "its grid is dynamic";
  else
    diag << "it launches " << ctas << " CTAs and only " << resident
         << " are guaranteed to be resident on " << chip;
  diag.attachNote() << "a launch that waits for CTAs that cannot start "
                       "would deadlock; use fewer programs";
  return diag;
}

//===----------------------------------------------------------------------===//
// Scratch
//===----------------------------------------------------------------------===//

/// Zeroes a shared-memory scratch buffer with all threads of the CTA, 16
/// bytes per store where the buffer is made of whole 16-byte chunks (it
/// starts at least 128-byte aligned): a 192 KiB ring took 512 byte stores
/// per lane before the first MMA.
void zeroShared(KernelBuilder &k, Value buffer) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  int64_t width = bits >= 8 && 128 % bits == 0 ? 128 / bits : 1;
  if (width > 1 && count % width == 0 && type.getLayout().isIdentity()) {
    Value flat = buffer;
    if (type.getRank() != 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      flat = memref::CollapseShapeOp::create(
          b, loc, buffer, ArrayRef<ReassociationIndices>{all});
    }
    auto chunk = VectorType::get({width}, element);
    auto loop =
        scf::ForOp::create(b, loc, k.tid, indexConstant(b, loc, count / width),
                           indexConstant(b, loc, k.threads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value zero = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(chunk)));
    Value at = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                     indexConstant(b, loc, width));
    vector::StoreOp::create(b, loc, zero, flat, at, false,
                            llvm::MaybeAlign(16));
    return;
  }
  SmallVector<Value> sizes;
  for (int64_t s : type.getShape())
    sizes.push_back(indexConstant(b, loc, s));
  auto loop = scf::ForOp::create(b, loc, k.tid, product(b, loc, sizes),
                                 indexConstant(b, loc, k.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(element)));
  memref::StoreOp::create(b, loc, zero, buffer,
                          unflatten(b, loc, loop.getInductionVar(), sizes));
}

/// The scratch operands of a kernel: global ones are device buffers made
/// before the launch; shared ones and barrier arrays are made in the
/// launch, per region.
struct KernelScratch {
  SmallVector<Type> types;
  SmallVector<Value> global; // null for shared entries

  LogicalResult allocateGlobal(Operation *op, DeviceBuffers &device,
                               std::optional<ArrayAttr> scratch) {
    if (!scratch)
      return success();
    for (Attribute attr : *scratch) {
      Type type = cast<TypeAttr>(attr).getValue();
      types.push_back(type);
      if (isa<BarrierType>(type) || isWorkgroupMemRef(type)) {
        global.push_back(Value());
        continue;
      }
      global.push_back(device.zeroedScratch(cast<MemRefType>(type)));
    }
    return success();
  }

  /// One region's scratch in the launch: shared buffers zeroed by the whole
  /// CTA, barriers initialized by thread 0. The caller places the CTA
  /// barrier that publishes them.
  SmallVector<Value> allocateShared(KernelBuilder &k) {
    OpBuilder &b = k.b;
    Location loc = k.loc;
    SmallVector<Value> values;
    for (auto [type, value] : llvm::zip(types, global)) {
      if (value) {
        values.push_back(value);
        continue;
      }
      if (auto barrier = dyn_cast<BarrierType>(type)) {
        auto words = MemRefType::get({barrier.getCount()}, b.getI64Type());
        Value storage = k.allocateShared(words);
        Value bound = UnrealizedConversionCastOp::create(b, loc, type, storage)
                          .getResult(0);
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            k.tid, indexConstant(b, loc, 0));
        auto ifFirst = scf::IfOp::create(b, loc, first, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifFirst.thenBlock());
        BarrierInitOp::create(b, loc, bound);
        values.push_back(bound);
        continue;
      }
      Value buffer = k.allocateShared(cast<MemRefType>(type));
      zeroShared(k, buffer);
      values.push_back(buffer);
    }
    return values;
  }

  bool hasShared() const {
    return llvm::any_of(global, [](Value v) { return !v; });
  }
};

/// Without tensor cores the lanes compute wgmma from row-major operands, so
/// the tiled, swizzled layout that copies and wgmma ops name for the tensor
/// cores is dropped from both: the buffers stay row-major, as on the host.
void dropTensorCoreTransforms(Operation *kernel) {
  kernel->walk([](Operation *op) {
    if (auto copy = dyn_cast<CopyGmemToSmemOp>(op))
      copy.removeTransformsAttr();
    if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      wgmma.removeATransformsAttr();
      wgmma.removeBTransformsAttr();
    }
  });
}

//===----------------------------------------------------------------------===//
// pallas_call
//===----------------------------------------------------------------------===//

LogicalResult lowerPallasCall(PallasCallOp op, bool tensorCores) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  MeshAttr mesh = op.getMeshAttrOrNull();

  // Grid sizes and axis kinds: the sequential axes are loops in the body.
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

  SmallVector<int64_t> cluster;
  int64_t numThreads = 1;
  SmallVector<Value> ctaSizes;
  SmallVector<size_t> ctaAxes;
  if (mesh) {
    cluster = llvm::to_vector(mesh.getCluster());
    numThreads = mesh.getNumThreads().value_or(1);
    for (size_t d = 0; d < mesh.getGrid().size(); ++d) {
      ctaSizes.push_back(sizes[d]);
      ctaAxes.push_back(d);
    }
  } else {
    for (size_t d = 0; d < rank; ++d)
      if (!sequential[d]) {
        ctaSizes.push_back(sizes[d]);
        ctaAxes.push_back(d);
      }
  }
  int64_t staticCtas = 1;
  for (size_t d : ctaAxes) {
    int64_t size = op.getStaticGrid()[d];
    staticCtas =
        ShapedType::isDynamic(size) || staticCtas < 0 ? -1 : staticCtas * size;
  }
  if (failed(verifyCoResident(op, staticCtas)))
    return failure();

  // Device copies of the arrays and global scratch.
  DeviceBuffers device(b, loc);
  SmallVector<Value> args;
  Block &body = op.getBody().front();
  for (auto [v, ref] :
       llvm::zip(op.getOperands().drop_front(op.getGrid().size()),
                 body.getArguments().take_front(op.getIns().size() +
                                                op.getOuts().size())))
    args.push_back(device.copyIn(v, /*withData=*/!isOnlyWritten(ref)));
  KernelScratch scratch;
  if (failed(scratch.allocateGlobal(op, device, op.getScratch())))
    return failure();

  KernelBuilder k(b, loc);
  k.tensorCores = tensorCores && getTargetInfo(op).hasWgmma();
  k.create(device.getToken(), product(b, loc, ctaSizes), cluster,
           numThreads * kWarpgroupLanes);
  llvm::append_range(args, scratch.allocateShared(k));
  if (scratch.hasShared())
    gpu::BarrierOp::create(b, loc);

  // Grid sizes as the kernel sees them: constants made inside it (so that
  // outlining does not pass them), SSA sizes from the host.
  Bindings bindings;
  for (auto [size, value] : llvm::zip(op.getStaticGrid(), sizes))
    bindings.numPrograms.push_back(
        ShapedType::isDynamic(size) ? value : indexConstant(b, loc, size));
  SmallVector<Value> ctaIds =
      unflatten(b, loc, k.linearCta(!cluster.empty()), ctaSizes);
  bindings.programIds.assign(rank, indexConstant(b, loc, 0));
  for (auto [id, d] : llvm::zip(ctaIds, ctaAxes))
    bindings.programIds[d] = id;
  if (mesh) {
    bindAxisSizes({mesh}, bindings);
    SmallVector<Value> clusterIds = k.clusterPosition(cluster);
    for (auto [i, id] : llvm::enumerate(clusterIds))
      bindings.programIds[mesh.getGrid().size() + i] = id;
    if (mesh.getNumThreads())
      bindings.programIds[rank - 1] = k.warpgroup;
    bindMeshAxes(mesh, ctaIds, clusterIds, k.warpgroup, bindings);
  }

  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  bindQueries(b, loc, body, bindings, mapping);
  if (failed(k.distribute(body, mapping)))
    return failure();
  if (failed(k.finish(op)))
    return failure();
  b.setInsertionPointAfter(k.launch);
  device.finish(k.launch.getAsyncToken(), op.getOuts());
  op.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// mpmd_map
//===----------------------------------------------------------------------===//

/// Where region `i` of an mpmd_map runs: a range of CTAs (of clusters, when
/// clustered) and a range of warpgroups in each.
struct RegionPlacement {
  int64_t firstCta, numCtas, firstWarpgroup, numWarpgroups;
};

int64_t gridCount(MeshAttr mesh) {
  int64_t count = 1;
  for (int64_t size : mesh.getGrid())
    count *= size;
  return count;
}

LogicalResult lowerMpmdMap(MpmdMapOp op, MpmdForm requested, bool tensorCores) {
  if (failed(verifyKernelForm(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned numRegions = op.getBodies().size();
  SmallVector<MeshAttr> meshes;
  for (unsigned i = 0; i < numRegions; ++i)
    meshes.push_back(op.getMeshAttrOrNull(i));

  // Warp-specialized needs one grid and cluster and at most 8 warpgroups.
  bool sameGeometry = true;
  int64_t sumThreads = 0, maxThreads = 0;
  for (MeshAttr mesh : meshes) {
    sameGeometry &= mesh.getGrid() == meshes[0].getGrid() &&
                    mesh.getCluster() == meshes[0].getCluster();
    int64_t t = mesh.getNumThreads().value_or(1);
    sumThreads += t;
    maxThreads = std::max(maxThreads, t);
  }
  bool sameCluster = llvm::all_of(meshes, [&](MeshAttr mesh) {
    return mesh.getCluster() == meshes[0].getCluster();
  });
  bool canSpecialize = sameGeometry && sumThreads <= 8;
  MpmdForm form = requested;
  if (form == MpmdForm::Auto)
    form = canSpecialize ? MpmdForm::WarpSpecialized : MpmdForm::CtaPartitioned;
  if (form == MpmdForm::WarpSpecialized && !canSpecialize) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "cannot be warp-specialized: ";
    if (!sameGeometry)
      diag << "its meshes do not all have the same grid and cluster";
    else
      diag << "its regions need " << sumThreads
           << " warpgroups in one CTA, at most 8 (1024 threads) fit";
    diag.attachNote() << "use mpmd-form=cta-partitioned";
    return diag;
  }
  if (form == MpmdForm::CtaPartitioned && !sameCluster && numRegions > 1) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "cannot be CTA-partitioned: its meshes have "
                                 "different clusters, and one launch has one "
                                 "cluster shape";
    diag.attachNote() << "give every mesh the same cluster";
    return diag;
  }

  SmallVector<RegionPlacement> placements;
  int64_t totalCtas = 0, threads = 0;
  if (form == MpmdForm::WarpSpecialized) {
    int64_t first = 0;
    for (MeshAttr mesh : meshes) {
      int64_t t = mesh.getNumThreads().value_or(1);
      placements.push_back({0, gridCount(mesh), first, t});
      first += t;
    }
    totalCtas = gridCount(meshes[0]);
    threads = sumThreads;
  } else {
    for (MeshAttr mesh : meshes) {
      placements.push_back(
          {totalCtas, gridCount(mesh), 0, mesh.getNumThreads().value_or(1)});
      totalCtas += gridCount(mesh);
    }
    threads = maxThreads;
  }
  ArrayRef<int64_t> cluster = meshes[0].getCluster();
  int64_t clusterCtas = 1;
  for (int64_t c : cluster)
    clusterCtas *= c;
  if (failed(verifyCoResident(op, totalCtas * clusterCtas)))
    return failure();

  // Device arrays and scratch.
  DeviceBuffers device(b, loc);
  SmallVector<Value> args;
  for (Value v : op.getOperands()) {
    args.push_back(device.copyIn(v));
  }
  KernelScratch scratch;
  if (failed(scratch.allocateGlobal(op, device, op.getScratch())))
    return failure();

  KernelBuilder k(b, loc);
  k.tensorCores = tensorCores && getTargetInfo(op).hasWgmma();
  k.create(device.getToken(), indexConstant(b, loc, totalCtas), cluster,
           threads * kWarpgroupLanes);
  // Shared scratch and barriers are per region (regions sharing a CTA do
  // not share them, as in interpret mode).
  SmallVector<SmallVector<Value>> regionArgs;
  for (unsigned i = 0; i < numRegions; ++i) {
    regionArgs.push_back(args);
    llvm::append_range(regionArgs.back(), scratch.allocateShared(k));
  }
  if (scratch.hasShared())
    gpu::BarrierOp::create(b, loc);

  SmallVector<MeshAttr> superMesh(meshes);
  if (ArrayAttr external = op.getExternalMeshesAttr())
    for (Attribute attr : external)
      superMesh.push_back(cast<MeshAttr>(attr));

  Value cta = k.linearCta(!cluster.empty());
  SmallVector<Value> clusterIds = k.clusterPosition(cluster);
  for (unsigned i = 0; i < numRegions; ++i) {
    const RegionPlacement &place = placements[i];
    MeshAttr mesh = meshes[i];
    Value ctaInRegion = arith::SubIOp::create(
        b, loc, cta, indexConstant(b, loc, place.firstCta));
    Value wgInRegion = arith::SubIOp::create(
        b, loc, k.warpgroup, indexConstant(b, loc, place.firstWarpgroup));
    auto inRange = [&](Value x, int64_t n) {
      // Unsigned: values below the range wrapped around.
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                   indexConstant(b, loc, n));
    };
    Value mine =
        arith::AndIOp::create(b, loc, inRange(ctaInRegion, place.numCtas),
                              inRange(wgInRegion, place.numWarpgroups));
    auto ifMine = scf::IfOp::create(b, loc, mine, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifMine.thenBlock());

    Bindings bindings;
    bindAxisSizes(superMesh, bindings);
    for (int64_t size : mesh.getGrid())
      bindings.numPrograms.push_back(indexConstant(b, loc, size));
    bindings.programIds = unflatten(b, loc, ctaInRegion, bindings.numPrograms);
    bindMeshAxes(mesh, bindings.programIds, clusterIds, wgInRegion, bindings);

    Block &body = op.getBodies()[i].front();
    IRMapping mapping;
    mapping.map(body.getArguments(), regionArgs[i]);
    bindQueries(b, loc, body, bindings, mapping);
    if (failed(k.distribute(body, mapping)))
      return failure();
  }

  if (failed(k.finish(op)))
    return failure();
  b.setInsertionPointAfter(k.launch);
  device.finish(k.launch.getAsyncToken(), op.getOuts());
  op.erase();
  return success();
}

struct LowerToGPUPass : public mgpu::impl::MGPULowerToGPUBase<LowerToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<MpmdForm> form =
        llvm::StringSwitch<std::optional<MpmdForm>>(mpmdForm)
            .Case("auto", MpmdForm::Auto)
            .Case("warp-specialized", MpmdForm::WarpSpecialized)
            .Case("cta-partitioned", MpmdForm::CtaPartitioned)
            .Default(std::nullopt);
    if (!form) {
      module.emitError() << "mgpu-lower-to-gpu: unknown mpmd-form '" << mpmdForm
                         << "' (expected auto, warp-specialized or "
                            "cta-partitioned)";
      return signalPassFailure();
    }
    SmallVector<Operation *> kernels;
    module.walk([&](Operation *op) {
      if (isa<PallasCallOp, MpmdMapOp>(op))
        kernels.push_back(op);
    });
    if (kernels.empty())
      return;
    for (Operation *kernel : kernels) {
      // The GPU pipeline compiles the gpu.modules of the top-level module.
      if (kernel->getParentOfType<ModuleOp>() != module) {
        kernel->emitOpError()
            << "is in a nested module, which the GPU pipeline does not "
               "compile: move its function to the top-level module";
        return signalPassFailure();
      }
      if (!tensorCores)
        dropTensorCoreTransforms(kernel);
      LogicalResult result =
          isa<PallasCallOp>(kernel)
              ? lowerPallasCall(cast<PallasCallOp>(kernel), tensorCores)
              : lowerMpmdMap(cast<MpmdMapOp>(kernel), *form, tensorCores);
      if (failed(result))
        return signalPassFailure();
    }
  }
};

} // namespace
