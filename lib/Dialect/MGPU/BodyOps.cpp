//===- BodyOps.cpp - Ops used inside kernel bodies ------------------------===//
//
// Verifiers of the ops a kernel body uses: program_id and num_programs
// (S23), axis_index and axis_size (S24), and the semaphore ops. Each finds
// the kernel region it runs in, which gives the grid and the mesh axes.
//
//===----------------------------------------------------------------------===//

#include "mgpu/Dialect/MGPU/MGPUDialect.h"
#include "mgpu/Dialect/MGPU/MGPURules.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mgpu;

namespace {
/// The kernel op a body op runs in, and which of its regions.
struct EnclosingKernel {
  Operation *kernel;
  unsigned regionIndex;
};
} // namespace

static FailureOr<EnclosingKernel> getEnclosingKernel(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentOp()->getParentRegion()) {
    Operation *parent = region->getParentOp();
    if (isa<PallasCallOp, MpmdMapOp>(parent))
      return EnclosingKernel{parent, region->getRegionNumber()};
  }
  return op->emitOpError()
         << "must be inside an 'mgpu.pallas_call' or 'mgpu.mpmd_map' region";
}

/// The grid a program_id / num_programs axis indexes, if it is known (an
/// mpmd_map region whose mesh is not a #mgpu.mesh has already been reported).
static std::optional<SmallVector<int64_t>> getGridOf(EnclosingKernel where) {
  if (auto call = dyn_cast<PallasCallOp>(where.kernel))
    return SmallVector<int64_t>(call.getStaticGrid());
  if (MeshAttr mesh =
          cast<MpmdMapOp>(where.kernel).getMeshAttrOrNull(where.regionIndex))
    return SmallVector<int64_t>(mesh.getGrid());
  return std::nullopt;
}

/// S23.
static LogicalResult verifyGridAxis(Operation *op, int64_t axis) {
  FailureOr<EnclosingKernel> where = getEnclosingKernel(op);
  if (failed(where))
    return failure();
  std::optional<SmallVector<int64_t>> grid = getGridOf(*where);
  if (!grid || (axis >= 0 && axis < static_cast<int64_t>(grid->size())))
    return success();
  return op->emitError() << "Axis " << axis << " is out of bounds for grid "
                         << formatTuple(*grid);
}

LogicalResult ProgramIdOp::verify() { return verifyGridAxis(*this, getAxis()); }

LogicalResult NumProgramsOp::verify() {
  return verifyGridAxis(*this, getAxis());
}

/// The meshes whose axes a named-axis op may refer to: the region's own mesh,
/// or with `superMesh` every mesh and external mesh of an mpmd_map.
static SmallVector<MeshAttr> getVisibleMeshes(EnclosingKernel where,
                                              bool superMesh) {
  SmallVector<MeshAttr> meshes;
  if (auto call = dyn_cast<PallasCallOp>(where.kernel)) {
    if (MeshAttr mesh = call.getMeshAttrOrNull())
      meshes.push_back(mesh);
    return meshes;
  }
  auto map = cast<MpmdMapOp>(where.kernel);
  if (!superMesh) {
    if (MeshAttr mesh = map.getMeshAttrOrNull(where.regionIndex))
      meshes.push_back(mesh);
    return meshes;
  }
  for (Attribute attr : map.getMeshes())
    if (auto mesh = dyn_cast<MeshAttr>(attr))
      meshes.push_back(mesh);
  if (ArrayAttr external = map.getExternalMeshesAttr())
    for (Attribute attr : external)
      if (auto mesh = dyn_cast<MeshAttr>(attr))
        meshes.push_back(mesh);
  return meshes;
}

/// S24.
static LogicalResult verifyNamedAxis(Operation *op, StringRef name,
                                     bool superMesh) {
  FailureOr<EnclosingKernel> where = getEnclosingKernel(op);
  if (failed(where))
    return failure();
  SmallVector<MeshAttr> meshes = getVisibleMeshes(*where, superMesh);
  for (MeshAttr mesh : meshes)
    if (mesh.getAxisSize(name))
      return success();
  return emitUnknownAxis(op, name, meshes);
}

LogicalResult AxisIndexOp::verify() {
  return verifyNamedAxis(*this, getAxisName(), /*superMesh=*/false);
}

LogicalResult AxisSizeOp::verify() {
  return verifyNamedAxis(*this, getAxisName(), /*superMesh=*/true);
}

//===----------------------------------------------------------------------===//
// Semaphores
//===----------------------------------------------------------------------===//

static LogicalResult verifySemaphore(Operation *op, MemRefType type,
                                     size_t numIndices) {
  // Kernel bodies, and the GPU code the backends make of them.
  if (failed(verifyInsideKernel(op)))
    return failure();
  if (numIndices != static_cast<size_t>(type.getRank()))
    return op->emitOpError() << "expects " << type.getRank()
                             << " indices for a semaphore ref of rank "
                             << type.getRank() << ", got " << numIndices;
  if (isWorkgroupMemRef(type)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects a semaphore ref in global memory, "
                                 "got one in shared memory";
    diag.attachNote() << "semaphores synchronize programs (CTAs): use a "
                         "global-memory i32 ref, e.g. an mpmd_map scratch";
    return diag;
  }
  return success();
}

LogicalResult SemaphoreSignalOp::verify() {
  return verifySemaphore(*this, getSem().getType(), getIndices().size());
}

LogicalResult SemaphoreWaitOp::verify() {
  return verifySemaphore(*this, getSem().getType(), getIndices().size());
}

LogicalResult SemaphoreReadOp::verify() {
  return verifySemaphore(*this, getSem().getType(), getIndices().size());
}
