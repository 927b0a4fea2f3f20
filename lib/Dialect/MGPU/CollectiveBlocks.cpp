//===- CollectiveBlocks.cpp - The rules of block specs' collective_axes ---===//
//
// `collective_axes` on a block spec multicasts an input block of a
// warp-specialized pipeline along a cluster axis (JAX's
// `plgpu.BlockSpec(collective_axes=)`, which only
// emit_pipeline_warp_specialized takes: jax/_src/pallas/mosaic_gpu/
// pipeline.py, 273-279 and 686-698; the messages there are JAX's, Python's
// spelling included). Where the kernel's mesh is known, the axis is one of
// its cluster axes and each CTA's share of the block is whole rows (whole
// rows of tiles in a tiled layout), as the multicast copy needs.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mgpu;

/// The axes' product of cluster sizes in `mesh`, or the first axis that is
/// not a cluster axis.
static FailureOr<int64_t> getGroupSize(Operation *op, MeshAttr mesh,
                                       ArrayAttr axes) {
  ArrayRef<StringAttr> names = mesh.getClusterNames();
  int64_t group = 1;
  for (StringAttr axis : axes.getAsRange<StringAttr>()) {
    const StringAttr *it = llvm::find(names, axis);
    if (it == names.end())
      return emitNotAClusterAxis(op, "collective axis", axis.getValue(), names);
    group *= mesh.getCluster()[it - names.begin()];
  }
  return group;
}

LogicalResult mlir::mgpu::verifyCollectiveBlocks(Operation *op,
                                                 ArrayAttr inSpecs,
                                                 ArrayAttr outSpecs,
                                                 bool pipeline,
                                                 bool warpSpecialized) {
  for (auto spec : outSpecs.getAsRange<BlockSpecAttr>())
    if (spec.getCollectiveAxes())
      return op->emitOpError() << "Output BlockSpecs cannot have "
                                  "collective_axes";
  for (auto [i, spec] : llvm::enumerate(inSpecs.getAsRange<BlockSpecAttr>())) {
    ArrayAttr axes = spec.getCollectiveAxes();
    if (!axes)
      continue;
    if (!pipeline)
      return op->emitOpError()
             << "in_specs[" << i
             << "] has collective_axes, which only the input blocks of a "
                "warp-specialized mgpu.emit_pipeline take (JAX's "
                "emit_pipeline_warp_specialized)";
    if (!warpSpecialized)
      return op->emitOpError()
             << "BlockSpecs with collective_axes are not supported in "
                "emit_pipeline";
    if (axes.size() > 1) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "Only a single collective axis supported in "
                                   "input BlockSpecs, but got (";
      llvm::interleave(
          axes.getAsValueRange<StringAttr>(),
          [&](StringRef a) { diag << "'" << a << "'"; }, [&] { diag << ", "; });
      return diag << ")";
    }
    std::optional<MeshAttr> mesh = getKernelRegionMesh(op);
    if (!mesh)
      continue;
    if (!*mesh)
      return op->emitOpError()
             << "in_specs[" << i << "] multicasts along '"
             << cast<StringAttr>(axes[0]).getValue()
             << "', but the kernel has no mesh with cluster axes";
    FailureOr<int64_t> group = getGroupSize(op, *mesh, axes);
    if (failed(group))
      return failure();
    int64_t rows = spec.getShape().front(), share = *group;
    for (Attribute t : spec.getTransforms())
      if (auto tile = dyn_cast<TileTransformAttr>(t);
          tile && tile.getTiling().size() == spec.getShape().size())
        share *= tile.getTiling().front();
    if (rows % share)
      return op->emitOpError()
             << "in_specs[" << i << "] multicasts " << rows << " rows to "
             << *group << " CTAs, which must each load whole rows"
             << (share != *group ? " of tiles" : "") << ": " << rows
             << " is not a multiple of " << share;
  }
  return success();
}
