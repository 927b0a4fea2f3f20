//===- ClusterOps.cpp - Ops and types across the CTAs of a cluster --------===//
//
// Verifiers of the cluster ops and types (SPEC section 8,
// docs/SPEC-additions.md): cluster_sync runs where every body op may,
// inside a kernel (without a cluster it is a barrier over one CTA); a
// cluster barrier is a barrier array whose axes are distinct names, checked
// against the mesh's cluster axes where a kernel declares or uses it.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mgpu;

LogicalResult
ClusterBarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<StringAttr> axes, int64_t count,
                           int64_t arrivals) {
  if (axes.empty())
    return emitError() << "a cluster barrier names at least one cluster axis "
                          "(axes = [\"c\"]); a CTA's own barriers are "
                          "!mgpu.barrier";
  llvm::SmallSet<StringRef, 4> seen;
  for (StringAttr axis : axes)
    if (!seen.insert(axis.getValue()).second)
      return emitError() << "cluster barrier axis '" << axis.getValue()
                         << "' is listed twice";
  return BarrierType::verify(emitError, count, arrivals);
}

LogicalResult mlir::mgpu::verifyClusterBarrierAxes(Operation *op,
                                                   ClusterBarrierType type,
                                                   MeshAttr mesh) {
  ArrayRef<StringAttr> clusterNames;
  if (mesh)
    clusterNames = mesh.getClusterNames();
  for (StringAttr axis : type.getAxes()) {
    if (llvm::is_contained(clusterNames, axis))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "uses " << type << ", whose axis '"
                              << axis.getValue()
                              << "' is not a cluster axis of the mesh "
                                 "(cluster axes: [";
    llvm::interleave(
        clusterNames,
        [&](StringAttr name) { diag << "'" << name.getValue() << "'"; },
        [&] { diag << ", "; });
    diag << "])";
    diag.attachNote() << "a cluster barrier's arrivals come from the CTAs "
                         "along cluster axes: give the mesh a cluster "
                         "(cluster = [2], cluster_names = [\"c\"])";
    return diag;
  }
  return success();
}

/// The mesh of the kernel region around `op`: std::nullopt where there is
/// none to check against (kernel form, launches, an mpmd_map region whose
/// mesh is reported elsewhere); a null mesh for a pallas_call without one.
std::optional<MeshAttr> mlir::mgpu::getKernelRegionMesh(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (auto call = dyn_cast<PallasCallOp>(parent))
      return call.getMeshAttrOrNull();
    if (auto map = dyn_cast<MpmdMapOp>(parent)) {
      if (MeshAttr mesh = map.getMeshAttrOrNull(region->getRegionNumber()))
        return mesh;
      return std::nullopt;
    }
    if (isa<FunctionOpInterface>(parent))
      break;
  }
  return std::nullopt;
}

LogicalResult mlir::mgpu::verifyClusterBarrierUse(Operation *op, Type barrier) {
  auto type = dyn_cast<ClusterBarrierType>(barrier);
  if (!type)
    return success();
  if (std::optional<MeshAttr> mesh = getKernelRegionMesh(op))
    return verifyClusterBarrierAxes(op, type, *mesh);
  return success();
}

InFlightDiagnostic mlir::mgpu::emitNotAClusterAxis(Operation *op,
                                                   StringRef what,
                                                   StringRef axis,
                                                   ArrayRef<StringAttr> names) {
  InFlightDiagnostic diag = op->emitOpError()
                            << what << " '" << axis
                            << "' is not a cluster axis of the mesh "
                               "(cluster axes: [";
  llvm::interleave(
      names, [&](StringAttr name) { diag << "'" << name.getValue() << "'"; },
      [&] { diag << ", "; });
  diag << "])";
  return diag;
}

LogicalResult mlir::mgpu::verifyCollectiveCopy(CopyGmemToSmemOp op) {
  std::optional<ArrayAttr> axes = op.getCollectiveAxes();
  if (!axes)
    return success();
  if (axes->empty())
    return op.emitOpError() << "expects at least one collective axis";
  llvm::SmallSet<StringRef, 4> seen;
  for (StringRef axis : axes->getAsValueRange<StringAttr>())
    if (!seen.insert(axis).second)
      return op.emitOpError()
             << "collective axis '" << axis << "' is listed twice";
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  ArrayRef<StringAttr> names;
  ArrayRef<int64_t> sizes;
  if (*mesh) {
    names = mesh->getClusterNames();
    sizes = mesh->getCluster();
  }
  int64_t group = 1;
  for (StringAttr axis : axes->getAsRange<StringAttr>()) {
    const StringAttr *it = llvm::find(names, axis);
    if (it == names.end())
      return emitNotAClusterAxis(op, "collective axis", axis.getValue(), names);
    group *= sizes[it - names.begin()];
  }
  auto dst = cast<MemRefType>(op.getDst().getType());
  if (dst.getRank() == 0 || dst.getDimSize(0) % group)
    return op.emitOpError()
           << "multicasts to " << group
           << " CTAs, each loading a share of the window's leading dimension, "
              "which must be a multiple of "
           << group << ", got " << formatTuple(dst.getShape());
  // Into a tiled buffer, each CTA's share is whole rows of tiles.
  if (std::optional<ArrayAttr> transforms = op.getTransforms())
    for (Attribute t : *transforms)
      if (auto tile = dyn_cast<TileTransformAttr>(t);
          tile && !tile.getTiling().empty() &&
          dst.getDimSize(0) % (group * tile.getTiling()[0]))
        return op.emitOpError()
               << "multicasts " << dst.getDimSize(0) << " rows to " << group
               << " CTAs, which is not a whole number of "
               << tile.getTiling()[0] << "-row tiles per CTA";
  return success();
}

/// Axes named once each and, where the kernel's mesh is known, cluster
/// axes of it (JAX resolves a cluster_ref's axis names against the mesh).
static LogicalResult verifyNamedClusterAxes(Operation *op, ArrayAttr axes) {
  llvm::SmallSet<StringRef, 4> seen;
  for (StringRef axis : axes.getAsValueRange<StringAttr>())
    if (!seen.insert(axis).second)
      return op->emitOpError()
             << "cluster axis '" << axis << "' is listed twice";
  std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
  if (!mesh)
    return success();
  ArrayRef<StringAttr> names;
  if (*mesh)
    names = mesh->getClusterNames();
  for (StringAttr axis : axes.getAsRange<StringAttr>()) {
    if (!llvm::is_contained(names, axis))
      return emitNotAClusterAxis(op, "axis", axis.getValue(), names);
  }
  return success();
}

LogicalResult ClusterRefOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto source = cast<MemRefType>(getSmem().getType());
  if (!isWorkgroupMemRef(source))
    return emitOpError() << "expects a buffer in shared memory "
                            "(#gpu.address_space<workgroup>), got "
                         << source;
  auto result = cast<MemRefType>(getResult().getType());
  MemRefType want = MemRefType::get(source.getShape(), source.getElementType(),
                                    source.getLayout());
  if (result != want)
    return emitOpError() << "result must be " << want
                         << " (the buffer's type without a memory space: a "
                            "generic address of the peer's buffer)";
  if (getAxes().empty())
    return emitOpError() << "names at least one cluster axis (along [\"c\"])";
  if (getAxes().size() != getCtas().size())
    return emitOpError() << "expects one index per cluster axis, got "
                         << getCtas().size() << " for " << getAxes().size()
                         << " axes";
  if (std::optional<ArrayRef<int64_t>> dims = getClusterDims();
      dims && dims->size() != getAxes().size())
    return emitOpError() << "expects one cluster_dims entry per axis";
  return verifyNamedClusterAxes(*this, getAxes());
}

LogicalResult AsyncStoreSmemOp::verify() {
  if (failed(verifyInsideKernel(*this)))
    return failure();
  auto src = cast<MemRefType>(getSrc().getType());
  auto dst = cast<MemRefType>(getDst().getType());
  if (!isWorkgroupMemRef(src))
    return emitOpError() << "expects the source in this CTA's shared memory "
                            "(#gpu.address_space<workgroup>), got "
                         << src;
  if (!getDst().getDefiningOp<ClusterRefOp>())
    return emitOpError() << "expects the destination to be a mgpu.cluster_ref "
                            "of a peer CTA's buffer";
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "copies between buffers of the same shape and "
                            "element type, got "
                         << src << " and " << dst;
  if (!src.hasStaticShape())
    return emitOpError() << "expects a static shape, got " << src;
  if (!src.areTrailingDimsContiguous(src.getRank()) ||
      !dst.areTrailingDimsContiguous(dst.getRank()))
    return emitOpError() << "copies contiguous buffers only (one bulk copy)";
  int64_t bits = src.getNumElements() * src.getElementTypeBitWidth();
  if (bits % (16 * 8))
    return emitOpError() << "copies a multiple of 16 bytes, got " << bits / 8
                         << " bytes";
  return success();
}
