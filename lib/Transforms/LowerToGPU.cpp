//===- LowerToGPU.cpp - --mgpu-lower-to-gpu
//--------------------------------===//
//
// Lowers memref-form pallas_call and mpmd_map to GPU kernels: each op becomes
// a `gpu.launch` (outlined at the end of the pass into a `gpu.module` kernel
// and a `gpu.launch_func`) over device copies of its operands.
//
// pallas_call: parallel grid axes are numbered row-major onto the CTAs of a
// one-dimensional grid (so no axis meets the 65535 limit of y and z); with a
// mesh, its grid axes number the clusters and its cluster axes are the
// launch cluster. Sequential axes are a loop inside each CTA. Every staged
// block has one buffer in dynamic shared memory: an input block is copied in
// (by all threads of the CTA, V-wide when the block is inside the array,
// element-wise with zero fill at the edge) when its block index changes, an
// output block is copied out when its index is about to change and after the
// last step, so a block revisited across consecutive steps stays resident.
// The body runs once per Pallas thread (warpgroup), distributed over its 128
// lanes by WarpgroupDistribution.
//
// mpmd_map: the regions share one launch. When all meshes have the same grid
// and cluster, the pairs are warp-specialized (each region gets its own range
// of warpgroups in every CTA); otherwise they are CTA-partitioned (each
// region its own range of CTAs). Scratch lives in global memory, zeroed
// before the launch (in shared memory when its type says workgroup).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Transforms/Passes.h"
#include "mgpu/Transforms/WarpgroupDistribution.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::mgpu {
#define GEN_PASS_DEF_MGPULOWERTOGPU
#include "mgpu/Transforms/Passes.h.inc"
} // namespace mlir::mgpu

using namespace mlir;
using namespace mlir::mgpu;

namespace {

/// Shared-memory buffers start at multiples of this (enough for 128-bit and
/// future TMA accesses).
constexpr int64_t kSmemAlignment = 128;

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
    int64_t start = llvm::alignTo(smemUsed, kSmemAlignment);
    smemUsed = start + *getBufferBytes(type.getShape(), type.getElementType());
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
    WarpgroupContext context{lane, barrierId, &scratch};
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
    StringRef chip = getEffectiveTarget(op).getChip();
    std::optional<int64_t> limit = getMaxSharedMemoryBytes(chip);
    if (limit && total > *limit) {
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

/// The device side of a kernel's operands: a gpu.alloc'd copy of each host
/// memref (so the same host program runs on CPU and GPU), chained through
/// async tokens.
struct DeviceOperands {
  OpBuilder &b;
  Location loc;
  Value token;
  llvm::MapVector<Value, Value> copies;  // host -> device
  llvm::MapVector<Value, Value> staging; // strided host -> contiguous host
  SmallVector<Value> scratch;

  DeviceOperands(OpBuilder &b, Location loc) : b(b), loc(loc) {
    token = gpu::WaitOp::create(
                b, loc, gpu::AsyncTokenType::get(b.getContext()), ValueRange())
                .getAsyncToken();
  }

  FailureOr<Value> alloc(Operation *op, MemRefType type, Value like) {
    if (!type.getLayout().isIdentity())
      return op->emitOpError()
             << "cannot be lowered to the GPU: operand type " << type
             << " is not contiguous; the GPU lowering copies operands to the "
                "device and needs identity layouts (bufferize with "
                "identity-layout=true)";
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(memref::DimOp::create(b, loc, like, d));
    auto alloc = gpu::AllocOp::create(
        b, loc, type, gpu::AsyncTokenType::get(b.getContext()),
        ValueRange{token}, dynamicSizes, ValueRange(), false);
    token = alloc.getAsyncToken();
    return alloc.getMemref();
  }

  /// The device copy of `host`. A strided host memref (a subview) goes
  /// through a contiguous host buffer when `relayout` allows it (the kernel
  /// only sees it through staged copies, which index it themselves).
  FailureOr<Value> copyIn(Operation *op, Value host, bool relayout) {
    if (Value device = copies.lookup(host))
      return device;
    auto type = cast<MemRefType>(host.getType());
    Value source = host;
    if (!type.getLayout().isIdentity() && relayout) {
      auto contiguous = MemRefType::get(type.getShape(), type.getElementType());
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicSizes.push_back(memref::DimOp::create(b, loc, host, d));
      source = memref::AllocOp::create(b, loc, contiguous, dynamicSizes);
      memref::CopyOp::create(b, loc, host, source);
      staging[host] = source;
    }
    FailureOr<Value> device =
        alloc(op, cast<MemRefType>(source.getType()), source);
    if (failed(device))
      return failure();
    token =
        gpu::MemcpyOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                              ValueRange{token}, *device, source)
            .getAsyncToken();
    copies[host] = *device;
    return *device;
  }

  FailureOr<Value> zeroedScratch(Operation *op, MemRefType type) {
    FailureOr<Value> device = alloc(op, type, Value());
    if (failed(device))
      return failure();
    Value zero = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
    token =
        gpu::MemsetOp::create(b, loc, gpu::AsyncTokenType::get(b.getContext()),
                              ValueRange{token}, *device, zero)
            .getAsyncToken();
    scratch.push_back(*device);
    return *device;
  }

  /// After the launch (whose token is `launched`): outputs back, buffers
  /// freed, host waits.
  void finish(Value launched, ValueRange outputs) {
    token = launched;
    auto tokenType = gpu::AsyncTokenType::get(b.getContext());
    llvm::SmallDenseSet<Value> done;
    for (Value host : outputs)
      if (done.insert(host).second)
        token = gpu::MemcpyOp::create(
                    b, loc, tokenType, ValueRange{token},
                    staging.lookup(host) ? staging.lookup(host) : host,
                    copies.lookup(host))
                    .getAsyncToken();
    for (auto [host, device] : copies)
      token =
          gpu::DeallocOp::create(b, loc, tokenType, ValueRange{token}, device)
              .getAsyncToken();
    for (Value device : scratch)
      token =
          gpu::DeallocOp::create(b, loc, tokenType, ValueRange{token}, device)
              .getAsyncToken();
    gpu::WaitOp::create(b, loc, Type(), ValueRange{token});
    for (auto [host, contiguous] : staging) {
      if (done.contains(host))
        memref::CopyOp::create(b, loc, contiguous, host);
      memref::DeallocOp::create(b, loc, contiguous);
    }
  }
};

LogicalResult verifyBufferized(Operation *kernel) {
  if (kernel->getNumResults() == 0)
    return success();
  return kernel->emitOpError() << "must be bufferized before "
                                  "--mgpu-lower-to-gpu (run --mgpu-bufferize)";
}

/// CTAs that are resident at once on any GPU of the chip's family, one per
/// SM (a CTA of at most 1024 threads and 227 KiB always fits one SM).
int64_t getGuaranteedResidentCtas(StringRef chip) {
  if (chip.starts_with("sm_80"))
    return 108;
  if (chip.starts_with("sm_100"))
    return 148;
  return 114; // sm_90: the H100 PCIe has the fewest SMs of its family
}

/// Programs that wait on each other need every CTA resident at once.
LogicalResult verifyCoResident(Operation *kernel, int64_t ctas) {
  bool waits =
      kernel->walk([](SemaphoreWaitOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (!waits)
    return success();
  StringRef chip = getEffectiveTarget(kernel).getChip();
  int64_t resident = getGuaranteedResidentCtas(chip);
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
// pallas_call
//===----------------------------------------------------------------------===//

/// One staged block of a pallas_call.
struct StagedBlock {
  Value array;  // device memref
  Value buffer; // shared memory
  BlockSpecAttr spec;
  bool isOutput;
  BlockArgument arg;
  // Pipelined inputs: `depth` buffers `stride` bytes apart from `buffer`,
  // filled with cp.async up to depth - 1 steps ahead of the body.
  int64_t depth = 1;
  int64_t stride = 0;
};

/// Picks V, the elements per access: up to 16 bytes, dividing the window's
/// innermost size.
int64_t accessWidth(ArrayRef<int64_t> window, Type element) {
  int64_t bytes = element.isIndex() ? 8 : element.getIntOrFloatBitWidth() / 8;
  if (bytes == 0 || window.empty())
    return 1;
  int64_t width = std::max<int64_t>(1, 16 / bytes);
  while (width > 1 && window.back() % width)
    width /= 2;
  return width;
}

/// Copies block `blockIndex` between the array and its buffer, with all
/// threads of the CTA; out-of-bounds elements read as zero and are not
/// written.
void copyBlock(KernelBuilder &k, const StagedBlock &block,
               ArrayRef<Value> blockIndex, bool toBuffer) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  ArrayRef<int64_t> window = block.spec.getShape();
  auto arrayType = cast<MemRefType>(block.array.getType());
  Type element = arrayType.getElementType();
  int64_t total = 1;
  for (int64_t w : window)
    total *= w;

  SmallVector<Value> offsets, extents;
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [d, index] : llvm::enumerate(blockIndex)) {
    Value size = indexConstant(b, loc, window[d]);
    Value offset = arith::MulIOp::create(b, loc, index, size);
    Value extent = memref::DimOp::create(b, loc, block.array, d);
    Value end = arith::AddIOp::create(b, loc, offset, size);
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, extent));
    offsets.push_back(offset);
    extents.push_back(extent);
  }
  Value threads = indexConstant(b, loc, k.threads);
  auto globalIndex = [&](OpBuilder &nb, ArrayRef<Value> local) {
    SmallVector<Value> global;
    for (auto [o, l] : llvm::zip(offsets, local))
      global.push_back(arith::AddIOp::create(nb, loc, o, l));
    return global;
  };
  auto localIndex = [&](OpBuilder &nb, Value flat) {
    SmallVector<Value> sizes;
    for (int64_t w : window)
      sizes.push_back(indexConstant(nb, loc, w));
    return unflatten(nb, loc, flat, sizes);
  };

  auto ifInside = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
  {
    // Whole block inside the array: V-wide accesses.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInside.thenBlock());
    int64_t width = accessWidth(window, element);
    auto vectorType = VectorType::get({width}, element);
    auto loop = scf::ForOp::create(
        b, loc, k.tid, indexConstant(b, loc, total / width), threads);
    b.setInsertionPointToStart(loop.getBody());
    Value flat = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                       indexConstant(b, loc, width));
    SmallVector<Value> local = localIndex(b, flat);
    SmallVector<Value> global = globalIndex(b, local);
    int64_t globalAlign = getKnownAlignment(block.array, global);
    int64_t bytes =
        width * (element.isIndex()
                     ? 8
                     : std::max(1u, element.getIntOrFloatBitWidth() / 8));
    int64_t sharedAlign = std::min<int64_t>(16, bytes);
    if (toBuffer) {
      Value v = vector::LoadOp::create(
          b, loc, vectorType, block.array, global, false,
          llvm::MaybeAlign(std::min(globalAlign, bytes)));
      vector::StoreOp::create(b, loc, v, block.buffer, local, false,
                              llvm::MaybeAlign(sharedAlign));
    } else {
      Value v = vector::LoadOp::create(b, loc, vectorType, block.buffer, local,
                                       false, llvm::MaybeAlign(sharedAlign));
      vector::StoreOp::create(b, loc, v, block.array, global, false,
                              llvm::MaybeAlign(std::min(globalAlign, bytes)));
    }
  }
  {
    // At the edge: element by element, masked.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInside.elseBlock());
    auto loop = scf::ForOp::create(b, loc, k.tid, indexConstant(b, loc, total),
                                   threads);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> local = localIndex(b, loop.getInductionVar());
    SmallVector<Value> global = globalIndex(b, local);
    Value valid = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (auto [g, e] : llvm::zip(global, extents))
      valid = arith::AndIOp::create(
          b, loc, valid,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, g, e));
    if (toBuffer) {
      auto load = scf::IfOp::create(
          b, loc, valid,
          [&](OpBuilder &nb, Location l) {
            scf::YieldOp::create(
                nb, l,
                Value(memref::LoadOp::create(nb, l, block.array, global)));
          },
          [&](OpBuilder &nb, Location l) {
            scf::YieldOp::create(
                nb, l,
                Value(arith::ConstantOp::create(
                    nb, l, cast<TypedAttr>(nb.getZeroAttr(element)))));
          });
      memref::StoreOp::create(b, loc, load.getResult(0), block.buffer, local);
    } else {
      auto store = scf::IfOp::create(b, loc, valid, false);
      b.setInsertionPointToStart(store.thenBlock());
      Value v = memref::LoadOp::create(b, loc, block.buffer, local);
      memref::StoreOp::create(b, loc, v, block.array, global);
    }
  }
}

/// Elements per 16-byte cp.async of `block`, if its copies can be
/// asynchronous: whole 16-byte chunks of the window's rows, 16-byte aligned
/// in the array (a static row length that keeps every row aligned).
std::optional<int64_t> asyncCopyWidth(const StagedBlock &block) {
  auto arrayType = cast<MemRefType>(block.array.getType());
  Type element = arrayType.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (16 % bytes)
    return std::nullopt;
  int64_t width = 16 / bytes;
  ArrayRef<int64_t> window = block.spec.getShape();
  if (window.empty() || window.back() % width)
    return std::nullopt;
  if (arrayType.getRank() > 1 &&
      (arrayType.isDynamicDim(arrayType.getRank() - 1) ||
       arrayType.getShape().back() % width))
    return std::nullopt;
  return width;
}

/// Starts copying block `blockIndex` of the array into `buffer` with
/// cp.async (all threads of the CTA, 16 bytes each); chunks past the array
/// are zero-filled by the copy itself (fewer source elements).
void copyBlockAsync(KernelBuilder &k, const StagedBlock &block,
                    ArrayRef<Value> blockIndex, Value buffer, int64_t width) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  ArrayRef<int64_t> window = block.spec.getShape();
  int64_t total = 1;
  for (int64_t w : window)
    total *= w;
  SmallVector<Value> windowSizes;
  for (int64_t w : window)
    windowSizes.push_back(indexConstant(b, loc, w));
  auto loop =
      scf::ForOp::create(b, loc, k.tid, indexConstant(b, loc, total / width),
                         indexConstant(b, loc, k.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value flat = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                     indexConstant(b, loc, width));
  SmallVector<Value> local = unflatten(b, loc, flat, windowSizes);
  Value zero = indexConstant(b, loc, 0);
  Value rowsInside = arith::ConstantIntOp::create(b, loc, 1, 1);
  SmallVector<Value> global;
  size_t rank = window.size();
  Value available;
  for (size_t d = 0; d < rank; ++d) {
    Value offset = arith::MulIOp::create(b, loc, blockIndex[d], windowSizes[d]);
    Value g = arith::AddIOp::create(b, loc, offset, local[d]);
    Value extent = memref::DimOp::create(b, loc, block.array, d);
    global.push_back(g);
    if (d + 1 < rank) {
      rowsInside = arith::AndIOp::create(
          b, loc, rowsInside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, g, extent));
      continue;
    }
    // Elements of the chunk inside the row: clamp(extent - g, 0, width).
    Value left = arith::SubIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, extent, g), g);
    available =
        arith::MinUIOp::create(b, loc, left, indexConstant(b, loc, width));
  }
  Value count = arith::SelectOp::create(b, loc, rowsInside, available, zero);
  // A chunk that reads nothing still needs an address inside the array.
  Value reads =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, zero);
  SmallVector<Value> source;
  for (Value g : global)
    source.push_back(arith::SelectOp::create(b, loc, reads, g, zero));
  nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), buffer, local,
      block.array, source, b.getIndexAttr(width), count, b.getUnitAttr());
}

/// Buffer `slot` of a pipelined block: a view at a computed offset (a
/// select between memrefs would leave shared-memory memref types for the
/// host's arith-to-llvm conversion to trip over).
Value bufferAt(OpBuilder &b, Location loc, const StagedBlock &block,
               Value slot) {
  auto first = block.buffer.getDefiningOp<memref::ViewOp>();
  Value shift = arith::AddIOp::create(
      b, loc, first.getByteShift(),
      arith::MulIOp::create(b, loc, slot, indexConstant(b, loc, block.stride)));
  return memref::ViewOp::create(b, loc, first.getType(), first.getSource(),
                                shift, ValueRange());
}

/// The slot after `slot` in a ring of `depth` buffers.
Value nextSlot(OpBuilder &b, Location loc, Value slot, int64_t depth) {
  Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot,
                                      indexConstant(b, loc, depth - 1));
  return arith::SelectOp::create(
      b, loc, wraps, indexConstant(b, loc, 0),
      arith::AddIOp::create(b, loc, slot, indexConstant(b, loc, 1)));
}

/// Zeroes a shared-memory scratch buffer with all threads of the CTA.
void zeroShared(KernelBuilder &k, Value buffer) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> sizes;
  for (int64_t s : type.getShape())
    sizes.push_back(indexConstant(b, loc, s));
  auto loop = scf::ForOp::create(b, loc, k.tid, product(b, loc, sizes),
                                 indexConstant(b, loc, k.threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
  memref::StoreOp::create(b, loc, zero, buffer,
                          unflatten(b, loc, loop.getInductionVar(), sizes));
}

SmallVector<Value> blockIndexAt(OpBuilder &b, Location loc, BlockSpecAttr spec,
                                ArrayRef<Value> ids) {
  return *affine::expandAffineMap(b, loc, spec.getIndexMap().getValue(), ids);
}

Value differs(OpBuilder &b, Location loc, ArrayRef<Value> x,
              ArrayRef<Value> y) {
  Value result = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (auto [a, c] : llvm::zip(x, y))
    result = arith::OrIOp::create(
        b, loc, result,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, a, c));
  return result;
}

LogicalResult lowerPallasCall(PallasCallOp op) {
  if (failed(verifyBufferized(op)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  MeshAttr mesh = op.getMeshAttrOrNull();

  // Grid sizes and axis kinds.
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
  if (mesh && llvm::is_contained(sequential, true))
    return op.emitOpError() << "cannot be lowered to the GPU: a pallas_call "
                               "with a mesh has no sequential axes (every "
                               "mesh axis is a CTA, cluster or thread axis)";

  SmallVector<int64_t> cluster;
  int64_t numThreads = 1;
  SmallVector<Value> ctaSizes, stepSizes;
  if (mesh) {
    cluster = llvm::to_vector(mesh.getCluster());
    numThreads = mesh.getNumThreads().value_or(1);
    for (size_t d = 0; d < mesh.getGrid().size(); ++d)
      ctaSizes.push_back(sizes[d]);
  } else {
    for (size_t d = 0; d < rank; ++d)
      (sequential[d] ? stepSizes : ctaSizes).push_back(sizes[d]);
  }

  int64_t staticCtas = 1;
  for (int64_t size : op.getStaticGrid())
    staticCtas =
        ShapedType::isDynamic(size) || staticCtas < 0 ? -1 : staticCtas * size;
  if (failed(verifyCoResident(op, staticCtas)))
    return failure();

  // Device copies of the arrays.
  DeviceOperands device(b, loc);
  SmallVector<Value> deviceIns, deviceOuts;
  for (auto [v, spec] : llvm::zip(op.getIns(), op.getInSpecs())) {
    FailureOr<Value> d =
        device.copyIn(op, v, cast<BlockSpecAttr>(spec).isStaged());
    if (failed(d))
      return failure();
    deviceIns.push_back(*d);
  }
  for (auto [v, spec] : llvm::zip(op.getOuts(), op.getOutSpecs())) {
    FailureOr<Value> d =
        device.copyIn(op, v, cast<BlockSpecAttr>(spec).isStaged());
    if (failed(d))
      return failure();
    deviceOuts.push_back(*d);
  }
  SmallVector<Value> globalScratch;
  SmallVector<MemRefType> scratchTypes;
  if (std::optional<ArrayAttr> scratch = op.getScratch())
    for (Attribute attr : *scratch) {
      auto type = cast<MemRefType>(cast<TypeAttr>(attr).getValue());
      scratchTypes.push_back(type);
      if (isWorkgroupMemRef(type)) {
        globalScratch.push_back(Value());
        continue;
      }
      FailureOr<Value> d = device.zeroedScratch(op, type);
      if (failed(d))
        return failure();
      globalScratch.push_back(*d);
    }

  // With a sequential axis and max_concurrent_steps = N >= 2, input blocks
  // that cp.async can copy get N buffers and are fetched N - 1 steps ahead
  // (S25 already counts the N buffers against shared memory).
  int64_t depth =
      op.getParamsAttr() ? op.getParamsAttr().getMaxConcurrentSteps() : 1;
  if (stepSizes.empty())
    depth = 1;
  // More buffers than steps would never fill, and the prologue is unrolled
  // (one copy loop per step ahead): bound both.
  constexpr int64_t kMaxPipelineDepth = 8;
  depth = std::min(depth, kMaxPipelineDepth);
  int64_t staticSteps = 1;
  for (Value size : stepSizes)
    if (std::optional<int64_t> c = getConstantIntValue(size))
      staticSteps *= *c;
    else
      staticSteps = std::numeric_limits<int64_t>::max() / 2;
  depth = std::max<int64_t>(1, std::min(depth, staticSteps));

  KernelBuilder k(b, loc);
  Value ctas = product(b, loc, ctaSizes);
  k.create(device.token, ctas, cluster, numThreads * kWarpgroupLanes);

  // Buffers and region arguments.
  Block &body = op.getBody().front();
  IRMapping mapping;
  SmallVector<StagedBlock> staged;
  unsigned argIndex = 0;
  auto addArrays = [&](ValueRange arrays, ArrayAttr specs, bool output) {
    for (auto [array, specAttr] : llvm::zip(arrays, specs)) {
      auto spec = cast<BlockSpecAttr>(specAttr);
      BlockArgument arg = body.getArgument(argIndex++);
      if (!spec.isStaged()) {
        mapping.map(arg, array);
        continue;
      }
      Value buffer = k.allocateShared(cast<MemRefType>(arg.getType()));
      mapping.map(arg, buffer);
      staged.push_back({array, buffer, spec, output, arg});
      // An input that is also an output is not fetched ahead: the next
      // step's block may be one this step writes back.
      if (output || depth < 2 || !asyncCopyWidth(staged.back()) ||
          llvm::is_contained(deviceOuts, array))
        continue;
      StagedBlock &block = staged.back();
      block.depth = depth;
      auto shiftOf = [](Value view) {
        return *getConstantIntValue(
            view.getDefiningOp<memref::ViewOp>().getByteShift());
      };
      Value second = k.allocateShared(cast<MemRefType>(arg.getType()));
      block.stride = shiftOf(second) - shiftOf(buffer);
      for (int64_t d = 2; d < depth; ++d)
        k.allocateShared(cast<MemRefType>(arg.getType()));
    }
  };
  addArrays(deviceIns, op.getInSpecs(), false);
  addArrays(deviceOuts, op.getOutSpecs(), true);
  SmallVector<Value> sharedScratch;
  for (auto [type, global] : llvm::zip(scratchTypes, globalScratch)) {
    Value value = global;
    if (!value) {
      value = k.allocateShared(type);
      sharedScratch.push_back(value);
    }
    mapping.map(body.getArgument(argIndex++), value);
  }
  if (!sharedScratch.empty()) {
    for (Value buffer : sharedScratch)
      zeroShared(k, buffer);
    gpu::BarrierOp::create(b, loc);
  }

  // Program ids of this CTA; sequential ids come from the step loop.
  SmallVector<Value> ctaIds;
  SmallVector<Value> clusterIds;
  Bindings bindings;
  bindings.numPrograms = sizes;
  if (mesh) {
    bindAxisSizes({mesh}, bindings);
    ctaIds = unflatten(b, loc, k.linearCta(!cluster.empty()), ctaSizes);
    clusterIds = k.clusterPosition(cluster);
    bindMeshAxes(mesh, ctaIds, clusterIds, k.warpgroup, bindings);
  } else {
    ctaIds = unflatten(b, loc, k.linearCta(false), ctaSizes);
  }
  auto idsAt = [&](ArrayRef<Value> stepIds) {
    SmallVector<Value> ids;
    if (mesh) {
      ids.append(ctaIds);
      ids.append(clusterIds);
      if (mesh.getNumThreads())
        ids.push_back(k.warpgroup);
      return ids;
    }
    unsigned c = 0, s = 0;
    for (size_t d = 0; d < rank; ++d)
      ids.push_back(sequential[d] ? stepIds[s++] : ctaIds[c++]);
    return ids;
  };

  Value steps = product(b, loc, stepSizes);
  Value zero = indexConstant(b, loc, 0), one = indexConstant(b, loc, 1);
  SmallVector<StagedBlock *> prefetched;
  for (StagedBlock &block : staged)
    if (block.depth > 1)
      prefetched.push_back(&block);
  auto blockIndexAtStep = [&](const StagedBlock &block, Value at) {
    return blockIndexAt(b, loc, block.spec,
                        idsAt(unflatten(b, loc, at, stepSizes)));
  };

  // Prologue: the blocks of steps 0 .. depth - 2, one commit group per
  // step (so that group g always holds step g's blocks), each into the
  // next slot when its block index changes. The copies sit in loops, so
  // their tokens cannot reach a device_async_create_group: groups are
  // committed and waited for by count, with NVVM.
  SmallVector<Value> issued(prefetched.size(), zero);
  for (int64_t j = 0; !prefetched.empty() && j + 1 < depth; ++j) {
    Value at = indexConstant(b, loc, j);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at, steps);
    for (auto [i, block] : llvm::enumerate(prefetched)) {
      SmallVector<Value> index = blockIndexAtStep(*block, at);
      Value fetch = inRange;
      if (j > 0) {
        Value before = indexConstant(b, loc, j - 1);
        fetch = arith::AndIOp::create(
            b, loc, inRange,
            differs(b, loc, blockIndexAtStep(*block, before), index));
        issued[i] = arith::SelectOp::create(
            b, loc, fetch, nextSlot(b, loc, issued[i], depth), issued[i]);
      }
      auto ifFetch = scf::IfOp::create(b, loc, fetch, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFetch.thenBlock());
      copyBlockAsync(k, *block, index, bufferAt(b, loc, *block, issued[i]),
                     *asyncCopyWidth(*block));
    }
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  // Each prefetched input carries the slot of the current step's block and
  // the slot of the newest block fetched.
  SmallVector<Value> inits;
  for (Value slot : issued)
    inits.append({zero, slot});
  auto loop = scf::ForOp::create(b, loc, zero, steps, one, inits);
  Block *loopBody = loop.getBody();
  if (!loopBody->empty() && isa<scf::YieldOp>(loopBody->back()))
    loopBody->back().erase();
  b.setInsertionPointToEnd(loopBody);
  Value step = loop.getInductionVar();
  SmallVector<Value> ids = idsAt(unflatten(b, loc, step, stepSizes));
  Value last = arith::SubIOp::create(b, loc, steps, one);
  SmallVector<Value> prevIds = idsAt(
      unflatten(b, loc,
                arith::SubIOp::create(
                    b, loc, arith::MaxUIOp::create(b, loc, step, one), one),
                stepSizes));
  SmallVector<Value> nextIds = idsAt(
      unflatten(b, loc,
                arith::AddIOp::create(
                    b, loc, arith::MinUIOp::create(b, loc, step, last), one),
                stepSizes));
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, step, zero);
  Value isLast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, step, last);
  Value notLast = arith::XOrIOp::create(
      b, loc, isLast, arith::ConstantIntOp::create(b, loc, 1, 1));

  // Prefetched inputs: start step + depth - 1's block (when it changes)
  // into the next slot, then wait for this step's.
  SmallVector<Value> yields;
  if (!prefetched.empty()) {
    Value ahead =
        arith::AddIOp::create(b, loc, step, indexConstant(b, loc, depth - 1));
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ahead, steps);
    // Clamped: past the end the indices are computed but never used.
    Value target = arith::MinUIOp::create(b, loc, ahead, last);
    Value before = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ahead, one), last);
    for (auto [i, block] : llvm::enumerate(prefetched)) {
      Value current = loop.getRegionIterArgs()[2 * i];
      Value newest = loop.getRegionIterArgs()[2 * i + 1];
      SmallVector<Value> targetIndex = blockIndexAtStep(*block, target);
      Value fetch = arith::AndIOp::create(
          b, loc, inRange,
          differs(b, loc, blockIndexAtStep(*block, before), targetIndex));
      Value slot = arith::SelectOp::create(
          b, loc, fetch, nextSlot(b, loc, newest, depth), newest);
      auto ifFetch = scf::IfOp::create(b, loc, fetch, false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifFetch.thenBlock());
        copyBlockAsync(k, *block, targetIndex, bufferAt(b, loc, *block, slot),
                       *asyncCopyWidth(*block));
      }
      mapping.map(block->arg, bufferAt(b, loc, *block, current));
      Value moves = arith::AndIOp::create(
          b, loc, notLast,
          differs(b, loc, blockIndexAt(b, loc, block->spec, ids),
                  blockIndexAt(b, loc, block->spec, nextIds)));
      yields.push_back(arith::SelectOp::create(
          b, loc, moves, nextSlot(b, loc, current, depth), current));
      yields.push_back(slot);
    }
    // All groups but the newest depth - 1: this step's blocks are in.
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    NVVM::CpAsyncWaitGroupOp::create(b, loc, depth - 1);
  }

  // Other inputs whose block index changed come in.
  for (const StagedBlock &block : staged) {
    if (block.isOutput || block.depth > 1)
      continue;
    SmallVector<Value> index = blockIndexAt(b, loc, block.spec, ids);
    Value changed = arith::OrIOp::create(
        b, loc, isFirst,
        differs(b, loc, index, blockIndexAt(b, loc, block.spec, prevIds)));
    auto ifChanged = scf::IfOp::create(b, loc, changed, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifChanged.thenBlock());
    copyBlock(k, block, index, /*toBuffer=*/true);
  }
  gpu::BarrierOp::create(b, loc);

  bindings.programIds = ids;
  bindQueries(b, loc, body, bindings, mapping);
  if (failed(k.distribute(body, mapping)))
    return failure();
  gpu::BarrierOp::create(b, loc);

  // Outputs whose block index is about to change go out.
  for (const StagedBlock &block : staged) {
    if (!block.isOutput)
      continue;
    SmallVector<Value> index = blockIndexAt(b, loc, block.spec, ids);
    Value changes = arith::OrIOp::create(
        b, loc, isLast,
        differs(b, loc, index, blockIndexAt(b, loc, block.spec, nextIds)));
    auto ifChanges = scf::IfOp::create(b, loc, changes, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifChanges.thenBlock());
    copyBlock(k, block, index, /*toBuffer=*/false);
  }
  // The next step's inputs overwrite buffers the copies above read.
  gpu::BarrierOp::create(b, loc);
  scf::YieldOp::create(b, loc, yields);

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

LogicalResult lowerMpmdMap(MpmdMapOp op, MpmdForm requested) {
  if (failed(verifyBufferized(op)))
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
  DeviceOperands device(b, loc);
  SmallVector<Value> args;
  for (Value v : op.getOperands()) {
    FailureOr<Value> d = device.copyIn(op, v, /*relayout=*/false);
    if (failed(d))
      return failure();
    args.push_back(*d);
  }
  SmallVector<MemRefType> sharedScratchTypes;
  SmallVector<int> sharedScratchArg;
  if (std::optional<ArrayAttr> scratch = op.getScratch())
    for (Attribute attr : *scratch) {
      auto type = cast<MemRefType>(cast<TypeAttr>(attr).getValue());
      if (isWorkgroupMemRef(type)) {
        sharedScratchArg.push_back(args.size());
        sharedScratchTypes.push_back(type);
        args.push_back(Value());
        continue;
      }
      FailureOr<Value> d = device.zeroedScratch(op, type);
      if (failed(d))
        return failure();
      args.push_back(*d);
    }

  KernelBuilder k(b, loc);
  k.create(device.token, indexConstant(b, loc, totalCtas), cluster,
           threads * kWarpgroupLanes);
  if (!sharedScratchTypes.empty()) {
    for (auto [type, arg] : llvm::zip(sharedScratchTypes, sharedScratchArg)) {
      args[arg] = k.allocateShared(type);
      zeroShared(k, args[arg]);
    }
    gpu::BarrierOp::create(b, loc);
  }

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
    mapping.map(body.getArguments(), args);
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

/// The launch's block size as a constant, if it is one.
std::optional<int64_t> constantBlockSize(gpu::LaunchFuncOp launch) {
  APInt value;
  if (matchPattern(launch.getBlockSizeX(), m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
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
      LogicalResult result = isa<PallasCallOp>(kernel)
                                 ? lowerPallasCall(cast<PallasCallOp>(kernel))
                                 : lowerMpmdMap(cast<MpmdMapOp>(kernel), *form);
      if (failed(result))
        return signalPassFailure();
    }

    if (!outline)
      return;
    // Every gpu.launch becomes a kernel in a gpu.module.
    OpPassManager outline(ModuleOp::getOperationName());
    outline.addPass(createGpuKernelOutliningPass());
    if (failed(runPipeline(outline, module)))
      return signalPassFailure();
    // Strided slices of lane vectors become shuffles, which the NVVM
    // lowering handles (it has no pattern for the slices themselves). Done
    // on the outlined kernels so that constants stay inside them.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    WalkResult simplified = module.walk([&](gpu::GPUModuleOp kernels) {
      if (failed(applyPatternsGreedily(kernels, frozen)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (simplified.wasInterrupted())
      return signalPassFailure();

    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      std::optional<int64_t> threads = constantBlockSize(launch);
      if (!kernel || !threads)
        return;
      // convert-gpu-to-nvvm turns known_block_size into .maxntid, which
      // ptxas refuses next to .reqntid; reqntid says more.
      kernel.removeKnownBlockSizeAttr();
      kernel->setAttr(
          NVVM::NVVMDialect::getReqntidAttrName(),
          DenseI32ArrayAttr::get(&getContext(),
                                 {static_cast<int32_t>(*threads), 1, 1}));
    });
  }
};

} // namespace
