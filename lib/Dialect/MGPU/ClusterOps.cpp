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

LogicalResult ClusterSyncOp::verify() { return verifyInsideKernel(*this); }

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

LogicalResult mlir::mgpu::verifyClusterBarrierUse(Operation *op, Type barrier) {
  auto type = dyn_cast<ClusterBarrierType>(barrier);
  if (!type)
    return success();
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (auto call = dyn_cast<PallasCallOp>(parent))
      return verifyClusterBarrierAxes(op, type, call.getMeshAttrOrNull());
    if (auto map = dyn_cast<MpmdMapOp>(parent)) {
      MeshAttr mesh = map.getMeshAttrOrNull(region->getRegionNumber());
      return mesh ? verifyClusterBarrierAxes(op, type, mesh) : success();
    }
    if (isa<FunctionOpInterface>(parent))
      break;
  }
  return success();
}
