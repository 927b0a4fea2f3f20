//===- LaunchOp.cpp - mgpu.launch, the launch form ------------------------===//
//
// The accessors and verifier of mgpu.launch: the body's arguments are the
// CTA and thread indices, then the arrays and the planned scratch, and the
// scratch plan must fit what every backend will allocate (aligned,
// disjoint entries in shared memory, statically shaped buffers).
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"
#include "mgpu/Dialect/MGPU/TensorMemory.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mgpu;

ArrayRef<int64_t> LaunchOp::getClusterShape() {
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
    return *cluster;
  return {};
}

static SmallVector<Type> typesOf(std::optional<ArrayAttr> list) {
  SmallVector<Type> types;
  if (list)
    for (Attribute attr : *list)
      types.push_back(cast<TypeAttr>(attr).getValue());
  return types;
}

SmallVector<Type> LaunchOp::getGlobalScratchTypes() {
  return typesOf(getGlobalScratch());
}

SmallVector<Type> LaunchOp::getSharedScratchTypes() {
  return typesOf(getSharedScratch());
}

ArrayRef<int64_t> LaunchOp::getSharedScratchOffsets() {
  if (std::optional<ArrayRef<int64_t>> offsets = getSharedOffsets())
    return *offsets;
  return {};
}

/// Bytes of one shared scratch entry (a buffer or a barrier array).
static int64_t getSharedEntryBytes(Type type) {
  if (auto barrier = dyn_cast<BarrierLikeType>(type))
    return barrier.getSharedMemoryBytes();
  if (isa<TmemType>(type))
    return kTmemSlotBytes;
  auto memref = cast<MemRefType>(type);
  return getBufferBytes(memref.getShape(), memref.getElementType()).value_or(0);
}

int64_t LaunchOp::getSharedMemoryBytes() {
  int64_t end = 0;
  for (auto [type, offset] :
       llvm::zip(getSharedScratchTypes(), getSharedScratchOffsets()))
    end = std::max(end, offset + getSharedEntryBytes(type));
  return end;
}

Block::BlockArgListType LaunchOp::getGridIds() {
  return getBody().getArguments().take_front(getStaticGrid().size());
}

Block::BlockArgListType LaunchOp::getClusterIds() {
  return getBody().getArguments().slice(getStaticGrid().size(),
                                        getClusterShape().size());
}

BlockArgument LaunchOp::getWarpgroupId() {
  return getBody().getArgument(getStaticGrid().size() +
                               getClusterShape().size());
}

BlockArgument LaunchOp::getLaneId() {
  if (!getLanes())
    return {};
  return getBody().getArgument(getWarpgroupId().getArgNumber() + 1);
}

/// The number of index arguments before the arrays: indices, then the
/// scalars.
static unsigned getNumIdArguments(LaunchOp op) {
  return op.getStaticGrid().size() + op.getClusterShape().size() + 1 +
         (op.getLanes() ? 1 : 0) + op.getScalars().size();
}

Block::BlockArgListType LaunchOp::getScalarArgs() {
  return getBody().getArguments().slice(
      getNumIdArguments(*this) - getScalars().size(), getScalars().size());
}

Block::BlockArgListType LaunchOp::getArrayArgs() {
  return getBody().getArguments().slice(getNumIdArguments(*this),
                                        getIns().size() + getOuts().size());
}

Block::BlockArgListType LaunchOp::getGlobalScratchArgs() {
  return getBody().getArguments().slice(getNumIdArguments(*this) +
                                            getIns().size() + getOuts().size(),
                                        getGlobalScratchTypes().size());
}

Block::BlockArgListType LaunchOp::getSharedScratchArgs() {
  return getBody().getArguments().take_back(getSharedScratchTypes().size());
}

SmallVector<Type> LaunchOp::getExpectedArgumentTypes() {
  SmallVector<Type> types(getNumIdArguments(*this),
                          IndexType::get(getContext()));
  llvm::append_range(types, getIns().getTypes());
  llvm::append_range(types, getOuts().getTypes());
  llvm::append_range(types, getGlobalScratchTypes());
  llvm::append_range(types, getSharedScratchTypes());
  return types;
}

LogicalResult LaunchOp::verify() {
  ArrayRef<int64_t> grid = getStaticGrid();
  if (static_cast<int64_t>(getGrid().size()) !=
      llvm::count(grid, ShapedType::kDynamic))
    return emitOpError() << "expects one grid operand per dynamic size ("
                         << llvm::count(grid, ShapedType::kDynamic) << "), got "
                         << getGrid().size();
  for (auto [i, size] : llvm::enumerate(grid))
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitOpError() << "grid size #" << i << " must be positive, got "
                           << size;
  ArrayRef<int64_t> cluster = getClusterShape();
  if (cluster.size() > 3)
    return emitOpError() << "expects a cluster of at most 3 dimensions, got "
                         << cluster.size();
  if (llvm::any_of(cluster, [](int64_t size) { return size <= 0; }))
    return emitOpError() << "expects positive cluster sizes, got "
                         << formatTuple(cluster);
  if (failed(verifyLaunchLimits(*this, grid, cluster)))
    return failure();
  int64_t maxWarpgroups = TargetInfo::kMaxThreadsPerCta / kWarpgroupLanes;
  int64_t warpgroups = getWarpgroupsAttr().getInt();
  if (warpgroups < 1 || warpgroups > maxWarpgroups)
    return emitOpError() << "runs " << warpgroups
                         << " warpgroups per CTA, expected 1 to "
                         << maxWarpgroups << " (" << kWarpgroupLanes
                         << " threads each)";

  if (std::optional<ArrayRef<int64_t>> writeOnly = getWriteOnlyOuts())
    for (int64_t index : *writeOnly)
      if (index < 0 || index >= static_cast<int64_t>(getOuts().size()))
        return emitOpError() << "expects write_only_outs to index its "
                             << getOuts().size() << " outs, got " << index;
  for (Type type : getGlobalScratchTypes()) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape() || isWorkgroupMemRef(memref))
      return emitOpError() << "expects global scratch of statically shaped "
                              "global-memory buffers, got "
                           << type;
  }
  SmallVector<Type> shared = getSharedScratchTypes();
  ArrayRef<int64_t> offsets = getSharedScratchOffsets();
  if (shared.size() != offsets.size())
    return emitOpError() << "expects one offset per shared scratch entry ("
                         << shared.size() << "), got " << offsets.size();
  int64_t end = 0;
  for (auto [i, type, offset] : llvm::enumerate(shared, offsets)) {
    auto memref = dyn_cast<MemRefType>(type);
    bool buffer = memref && memref.hasStaticShape() &&
                  memref.getLayout().isIdentity() && isWorkgroupMemRef(memref);
    if (!buffer && !isa<BarrierLikeType, TmemType>(type))
      return emitOpError()
             << "expects shared scratch of statically shaped, row-major "
                "workgroup-memory buffers, barrier arrays and TMEM buffers, "
                "got "
             << type;
    if (offset < end || offset % TargetInfo::kSharedAlignment)
      return emitOpError() << "expects shared scratch #" << i
                           << " at a multiple of "
                           << TargetInfo::kSharedAlignment
                           << " bytes after the entries before it (from " << end
                           << "), got offset " << offset;
    end = offset + getSharedEntryBytes(type);
  }
  return success();
}

Block *LaunchOp::createBody(OpBuilder &b) {
  SmallVector<Type> types = getExpectedArgumentTypes();
  Block *body = b.createBlock(&getBody(), {}, types,
                              SmallVector<Location>(types.size(), getLoc()));
  b.setInsertionPointToStart(body);
  YieldOp::create(b, getLoc());
  b.setInsertionPointToStart(body);
  return body;
}

LogicalResult LaunchOp::verifyRegions() {
  Block &body = getBody().front();
  SmallVector<Type> expected = getExpectedArgumentTypes();
  if (body.getNumArguments() != expected.size())
    return emitOpError() << "expects " << expected.size()
                         << " body arguments (grid and cluster indices, "
                            "warpgroup"
                         << (getLanes() ? ", lane" : "")
                         << ", scalars, arrays, scratch), got "
                         << body.getNumArguments();
  for (auto [i, arg, type] : llvm::enumerate(body.getArguments(), expected))
    if (arg.getType() != type)
      return emitOpError() << "expects body argument #" << i << " of type "
                           << type << ", got " << arg.getType();
  // A pair's ops (Blackwell's 2-CTA MMAs) name their cluster axis; in a
  // launch, which has lost the mesh, the cluster must still be the pair.
  ArrayRef<int64_t> cluster = getClusterShape();
  bool pair = !cluster.empty() && cluster[0] == 2 &&
              llvm::all_of(cluster.drop_front(),
                           [](int64_t size) { return size == 1; });
  WalkResult queries = body.walk([&](Operation *op) {
    if (!pair && isPairOp(op)) {
      op->emitOpError() << "runs on a pair of CTAs: its launch needs a (2, "
                           "1, 1)-shaped cluster, got "
                        << formatTuple(cluster);
      return WalkResult::interrupt();
    }
    if (isa<ProgramIdOp, NumProgramsOp, AxisIndexOp, AxisSizeOp>(op)) {
      op->emitOpError() << "is not allowed in an 'mgpu.launch': its value is "
                           "computed from the launch's arguments "
                           "(--mgpu-form-launches)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(queries.wasInterrupted());
}
